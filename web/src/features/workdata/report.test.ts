import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { PREDICTED_STYLE } from '@/shared/charts';
import { monthReport } from './fixtures';
import {
  energyChartOption,
  energyTotals,
  EVENTS_PER_PAGE,
  hasPredicted,
  predictedRows,
  reportPages,
  reportPath,
  reportPeriod,
  reportTitle,
  shownEnergyKeys,
} from './report';
import type { ReportEvent } from './types';

const today = dayjs('2026-11-25');
const event = (id: number): ReportEvent => ({
  id,
  sn: 'INV',
  code: 'F01',
  content: null,
  severity: 'fault',
  openedAt: '2026-10-01 00:00:00',
  closedAt: null,
});

describe('reportPeriod', () => {
  it('reads the type and date of the URL', () => {
    expect(reportPeriod(new URLSearchParams('type=day&date=2026-10-03'), today)).toEqual({
      type: 'day',
      date: '2026-10-03',
    });
    expect(reportPeriod(new URLSearchParams('type=year&date=2025'), today)).toEqual({
      type: 'year',
      date: '2025',
    });
  });

  it('falls back to the current month, or the current period of a type without a good date', () => {
    expect(reportPeriod(new URLSearchParams(''), today)).toEqual({
      type: 'month',
      date: '2026-11',
    });
    expect(reportPeriod(new URLSearchParams('type=day&date=2026-10'), today)).toEqual({
      type: 'day',
      date: '2026-11-25',
    });
    expect(reportPeriod(new URLSearchParams('type=week&date=2026'), today).type).toBe('month');
  });

  it('builds the route a report opens at', () => {
    expect(reportPath(7, 'month', '2026-10')).toBe('/workdata/info/7?type=month&date=2026-10');
  });
});

describe('reportPages', () => {
  it('lays a month out as summary, energy table and one page of events', () => {
    expect(reportPages(monthReport()).map((p) => p.kind)).toEqual(['summary', 'energy', 'events']);
  });

  it('adds the power curve to a day and keeps an events page when there were none', () => {
    const pages = reportPages({ type: 'day', events: [] });
    expect(pages.map((p) => p.kind)).toEqual(['summary', 'energy', 'power', 'events']);
  });

  it('splits many events over pages of EVENTS_PER_PAGE', () => {
    const events = Array.from({ length: EVENTS_PER_PAGE * 2 + 1 }, (_, i) => event(i));
    const pages = reportPages({ type: 'year', events });
    const eventPages = pages.filter((p) => p.kind === 'events');
    expect(eventPages).toHaveLength(3);
    expect(eventPages.map((p) => (p.kind === 'events' ? p.events.length : 0))).toEqual([
      EVENTS_PER_PAGE,
      EVENTS_PER_PAGE,
      1,
    ]);
  });
});

describe('report figures', () => {
  it('leaves out the battery when the plant never charged nor discharged', () => {
    expect(shownEnergyKeys(monthReport().summary)).toEqual([
      'produced',
      'consumed',
      'imported',
      'exported',
    ]);
  });

  it('sums the energy table to the two decimals the server rounds to', () => {
    const totals = energyTotals(monthReport().energy);
    expect(totals.produced).toBe(412.5);
    expect(totals.consumed).toBe(300.25);
    expect(totals.predicted).toBe(450);
    expect(energyTotals([]).produced).toBeNull();
  });

  it('draws predicted generation hollow beside produced, without animation', () => {
    const option = energyChartOption(monthReport(), (k) => k) as {
      series: { name: string; itemStyle: object; data: (number | null)[] }[];
      animation: boolean;
    };
    expect(option.animation).toBe(false);
    expect(option.series.map((s) => s.name)).toEqual([
      'produced',
      'predicted',
      'consumed',
      'imported',
      'exported',
    ]);
    expect(option.series[1]?.itemStyle).toEqual(PREDICTED_STYLE);
    expect(option.series[1]?.data).toEqual([225, 225]);
  });

  it('keeps the predicted figure of a day whose hours have none, without an empty column', () => {
    const r = monthReport();
    const day = { ...r, energy: r.energy.map((e) => ({ ...e, predicted: null })) };
    expect(hasPredicted(day)).toBe(true);
    expect(predictedRows(day)).toBe(false);
    const option = energyChartOption(day, (k) => k) as { series: { name: string }[] };
    expect(option.series.map((s) => s.name)).not.toContain('predicted');
  });

  it('names the printed file after the plant and the period, without path characters', () => {
    const r = monthReport();
    expect(reportTitle({ ...r, plant: { ...r.plant, name: 'Roof A/B' } })).toBe('Roof A_B-2026-10');
  });
});

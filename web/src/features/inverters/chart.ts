import { SERIES_COLORS, type ChartOption, type SeriesKind } from '@/shared/charts';
import type { Series, Span } from './api';

export type TempUnit = 'C' | 'F';

/** °C (what the server sends) in the user's unit. */
export function toUserTemp(celsius: number, unit: TempUnit): number {
  return unit === 'F' ? Math.round(((celsius * 9) / 5) * 10 + 320) / 10 : celsius;
}

/** A unit as shown: temperatures follow the user's unit. */
export function userUnit(unit: string, temp: TempUnit): string {
  return unit === '°C' && temp === 'F' ? '°F' : unit;
}

/** The palette colour of a series by its label (SPEC section 9 palettes, one meaning each). */
export function seriesKind(label: string): SeriesKind {
  if (/^(pv|ppv|vpv|ipv)/.test(label) || label === 'ac_power' || label === 'pac') return 'pv';
  if (/^(load|eps)/.test(label)) return 'load';
  if (/^(grid|meter)/.test(label) || label === 'grid_import' || label === 'grid_export')
    return 'grid';
  if (/soc$/.test(label)) return 'soc';
  if (/^(battery|charge|discharge)/.test(label)) return 'battery';
  if (/^gen/.test(label) || label === 'generator') return 'generator';
  return 'other';
}

/** A series value, converted to the user's temperature unit when it is one; null if absent. */
function value(raw: string, unit: string, temp: TempUnit): number | null {
  const n = Number(raw);
  if (!Number.isFinite(n) || raw === '') return null;
  return unit === '°C' ? toUserTemp(n, temp) : n;
}

/** X axis label of a record: the hour and minute of a day curve (plant-local), else the bucket. */
export function axisLabel(time: string, span: Span): string {
  return span === 'day' ? time.slice(11, 16) : time;
}

export interface ChartInput {
  infos: Series[];
  span: Span;
  temp: TempUnit;
  /** The translated name of a series label. */
  name: (label: string) => string;
}

/**
 * The ECharts option of a tab's chart: day curves as lines over the plant-local times (one
 * y axis per unit, at most two: W and the next), month/year/total as bars. Pure, for tests;
 * the component adds the axis style of the theme.
 */
export function chartOption({ infos, span, temp, name }: ChartInput): ChartOption {
  const shown = infos.filter((s) => s.records.length > 0);
  const times = [...new Set(shown.flatMap((s) => s.records.map((r) => r.time)))].sort();
  const units = [...new Set(shown.map((s) => userUnit(s.unit, temp)))].slice(0, 2);
  const series = shown
    .filter((s) => units.includes(userUnit(s.unit, temp)))
    .map((s) => {
      const byTime = new Map(s.records.map((r) => [r.time, value(r.value, s.unit, temp)]));
      const unit = userUnit(s.unit, temp);
      return {
        name: `${name(s.label)} (${unit})`,
        type: span === 'day' ? 'line' : 'bar',
        showSymbol: false,
        smooth: span === 'day',
        yAxisIndex: units.indexOf(unit),
        itemStyle: { color: SERIES_COLORS[seriesKind(s.label)] },
        lineStyle: { color: SERIES_COLORS[seriesKind(s.label)] },
        data: times.map((t) => byTime.get(t) ?? null),
      };
    });
  return {
    legend: { type: 'scroll', top: 0 },
    xAxis: { type: 'category', data: times.map((t) => axisLabel(t, span)) },
    yAxis: units.map((u) => ({ type: 'value', name: u })),
    series,
  };
}

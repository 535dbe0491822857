import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { PlantFigures } from './api';
import { PerformanceCard } from './PerformanceCard';

/** A day of a storage plant without a station: the clear-sky reference, orientation assumed. */
const figures = (patch: Partial<PlantFigures> = {}): PlantFigures => ({
  from: '2026-11-28',
  to: '2026-11-28',
  capacity: 8,
  pvEnergy: 41.4,
  specificYield: { value: 5.18, basis: 'pvEnergy' },
  referenceYield: { value: 6.43, basis: 'clearSkyAssumed' },
  performanceRatio: { value: 80.51, basis: 'clearSkyAssumed' },
  availability: { value: null, basis: 'missing' },
  selfConsumption: { value: 24.4, basis: 'gridCharge' },
  selfSufficiency: { value: 71.37, basis: 'gridCharge' },
  co2Avoided: { value: 16.56, basis: 'pvEnergy' },
  co2Factor: 0.4,
  irradiation: 6.428,
  ratioDays: 1,
  days: 1,
  orientation: { tilt: 33.9, azimuth: 0, assumed: true },
  gridCharge: 2.88,
  daylightHours: null,
  availableHours: null,
  ...patch,
});

const value = (key: string) => screen.getByTestId(`figure-${key}-value`).textContent;

describe('PerformanceCard', () => {
  it('shows the figures of the chosen day, a missing one as --, with how each is computed', async () => {
    const api = fakeHttp({ 'GET /api/v1/plant/{id}/figures': () => envelope(figures()) });
    await renderScreen(<PerformanceCard plantId={6} period="day" date={dayjs('2026-11-28')} />);
    await screen.findByTestId('performance-figures');
    expect(api.calls('GET /api/v1/plant/{id}/figures')[0]?.query).toMatchObject({
      date: '2026-11-28',
    });
    expect(value('specificYield')).toBe('5.18 kWh/kWp');
    expect(value('referenceYield')).toBe('6.43 h');
    expect(value('performanceRatio')).toBe('80.5 %');
    expect(value('selfSufficiency')).toBe('71.4 %');
    expect(value('co2Avoided')).toBe('16.6 kg');
    // Missing is "--", never 0.
    expect(value('availability')).toBe('--');
    expect(screen.getByTestId('figure-availability')).toHaveAttribute('data-value', '');
    // The ratio's reference and the CO2 factor are shown beside the figures.
    const ratio = screen.getByTestId('figure-performanceRatio');
    expect(ratio).toHaveTextContent('Clear-sky model, orientation assumed');
    expect(ratio).toHaveAttribute('data-basis', 'clearSkyAssumed');
    expect(screen.getByTestId('figure-co2Avoided')).toHaveTextContent('at 0.4 kg/kWh');
    // The tooltip says the clear sky is an upper bound and what was assumed.
    fireEvent.mouseEnter(within(ratio).getByText('Performance ratio'));
    const tip = await screen.findByRole('tooltip');
    expect(tip).toHaveTextContent('upper bound');
    expect(tip).toHaveTextContent('tilt 33.9° and azimuth 0°');
    expect(tip).toHaveTextContent('no tilt or azimuth');
  });

  it('follows a month and says when a station is the reference', async () => {
    const api = fakeHttp({
      'GET /api/v1/plant/{id}/figures': () =>
        envelope(
          figures({
            referenceYield: { value: 16.35, basis: 'station' },
            performanceRatio: { value: 81.49, basis: 'station' },
            orientation: null,
            availability: { value: 84.84, basis: 'reports' },
          }),
        ),
    });
    await renderScreen(<PerformanceCard plantId={6} period="month" date={dayjs('2026-11-28')} />);
    await screen.findByTestId('performance-figures');
    expect(api.calls('GET /api/v1/plant/{id}/figures')[0]?.query).toMatchObject({
      date: '2026-11',
    });
    expect(screen.getByTestId('figure-performanceRatio')).toHaveTextContent('Weather station');
    expect(value('availability')).toBe('84.8 %');
  });

  it('asks nothing for all time and says which periods it covers', async () => {
    const api = fakeHttp({ 'GET /api/v1/plant/{id}/figures': () => envelope(figures()) });
    await renderScreen(<PerformanceCard plantId={6} period="total" date={dayjs('2026-11-28')} />);
    expect(await screen.findByTestId('performance-total')).toHaveTextContent(
      'a day, a month or a year',
    );
    await waitFor(() => expect(api.calls('GET /api/v1/plant/{id}/figures')).toHaveLength(0));
  });

  it('speaks the user language', async () => {
    fakeHttp({ 'GET /api/v1/plant/{id}/figures': () => envelope(figures()) });
    await renderScreen(<PerformanceCard plantId={6} period="day" date={dayjs('2026-11-28')} />, {
      language: 'zh',
    });
    expect(await screen.findByText('性能指标')).toBeInTheDocument();
    expect(await screen.findByText(/性能比 PR/)).toBeInTheDocument();
    expect(screen.getByTestId('figure-availability-value')).toHaveTextContent('--');
  });
});

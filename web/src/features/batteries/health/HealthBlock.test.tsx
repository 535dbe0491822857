import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { envelope, failure, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import { health } from './fixtures';
import HealthBlock from './HealthBlock';

// Not HTTP: jsdom has no canvas for echarts, so here a chart is a labelled box.
vi.mock('@/shared/charts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  EChart: ({ ariaLabel }: { ariaLabel?: string }) => <div data-testid="chart">{ariaLabel}</div>,
}));

const value = (id: string) => screen.getByTestId(`health-${id}-value`).textContent;

describe('HealthBlock', () => {
  it('compares the BMS with the measured capacity and says what each is computed from', async () => {
    const api = fakeHttp({ 'GET /api/v1/battery/{sn}/health': () => envelope(health()) });
    await renderScreen(<HealthBlock sn="BAT-1" zone="UTC" />);
    await screen.findByTestId('health-compare');
    const query = api.calls('GET /api/v1/battery/{sn}/health')[0]?.query;
    // A year up to today by default.
    expect(query?.to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(value('bms')).toBe('96.0 % · 96.0 Ah');
    expect(screen.getByTestId('health-bms')).toHaveTextContent(
      'full capacity it reports (100.0 Ah)',
    );
    expect(value('measured')).toBe('92.6 Ah · 4.63 kWh');
    expect(screen.getByTestId('health-measured')).toHaveTextContent(
      'Ah moved / SOC change over a full discharge, 96 % to 19 % (2026-11-03 06:00:00 to 2026-11-03 09:50:00)',
    );
    expect(value('ratio')).toBe('96.5 % (-3.4 Ah)');
    expect(value('cycles')).toBe('12.3 · 41');
    expect(value('spread')).toBe('31 mV');
    expect(screen.getByTestId('health-spread')).toHaveTextContent(
      'most often highest: Pack 1 cell 4',
    );
    expect(screen.getByTestId('chart')).toHaveTextContent('SOH and measured capacity');
    fireEvent.click(screen.getByText('Cell spread'));
    expect(await screen.findByTestId('health-chart-spread')).toBeInTheDocument();
    expect(screen.getByTestId('health-measured-list')).toHaveTextContent('BMS 96.0 Ah, 96.5 %');
  });

  it('shows -- without a full swing, and asks for another span', async () => {
    const api = fakeHttp({
      'GET /api/v1/battery/{sn}/health': () =>
        envelope(health({ cycles: [], bmsAh: null, soh: null })),
    });
    await renderScreen(<HealthBlock sn="BAT-1" zone="UTC" />);
    await screen.findByTestId('health-compare');
    expect(value('measured')).toBe('--');
    expect(value('ratio')).toBe('--');
    expect(value('bms')).toBe('-- · --');
    expect(screen.getByTestId('health-measured')).toHaveTextContent('No full swing in this span');
    fireEvent.click(screen.getByText('30 days'));
    await vi.waitFor(() => expect(api.calls('GET /api/v1/battery/{sn}/health')).toHaveLength(2));
  });

  it('says when there are no days yet', async () => {
    fakeHttp({
      'GET /api/v1/battery/{sn}/health': () => envelope(health({ days: [], cycles: [] })),
    });
    await renderScreen(<HealthBlock sn="BAT-1" zone="UTC" />);
    expect(await screen.findByText(/No health days yet/)).toBeInTheDocument();
  });

  it('offers a retry when the health cannot be read', async () => {
    fakeHttp({ 'GET /api/v1/battery/{sn}/health': () => failure(1) });
    await renderScreen(<HealthBlock sn="BAT-1" zone="UTC" />);
    expect(await screen.findByText('Battery data could not be loaded.')).toBeInTheDocument();
  });
});

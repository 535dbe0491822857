import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_REFRESH_MS } from '@/shared/api/live';
import { envelope, failure, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { FleetSummary, FleetYield } from './api';
import FleetDashboardPage from './FleetDashboardPage';

const aYield = (patch: Partial<FleetYield>): FleetYield => ({
  plantId: 1,
  plantName: 'Roof',
  plantType: 1,
  capacityKwp: 5,
  energyKwh: 20,
  specificYield: 4,
  outlier: null,
  ...patch,
});

/** A fleet of 9: two alarms, one silent plant, a ranking with a low outlier and an unrated plant. */
const aSummary = (patch: Partial<FleetSummary> = {}): FleetSummary => ({
  period: 'today',
  updateAt: '2026-06-21T10:00:00Z',
  plants: { total: 9, normal: 5, warning: 1, fault: 1, offline: 2, upgrading: 0, noDevices: 1 },
  alarms: {
    plants: 2,
    faults: 1,
    warnings: 2,
    infos: [
      {
        plantId: 3,
        plantName: 'Barn',
        plantType: 2,
        severity: 'fault',
        faults: 1,
        warnings: 1,
        since: '2026-06-21T07:00:00Z',
        code: 'F01',
        meaning: 'DC insulation fault',
      },
      {
        plantId: 4,
        plantName: 'School',
        plantType: 1,
        severity: 'warning',
        faults: 0,
        warnings: 1,
        since: '2026-06-19T08:30:00Z',
        code: 'W02',
        meaning: null,
      },
    ],
  },
  silent: {
    minutes: 60,
    total: 2,
    infos: [
      {
        plantId: 6,
        plantName: 'Farm',
        plantType: 1,
        status: 0,
        lastHeard: null,
        daylightBy: 'clock',
        sunElevation: null,
      },
      {
        plantId: 5,
        plantName: 'Depot',
        plantType: 1,
        status: 0,
        lastHeard: '2026-06-21T08:15:00Z',
        daylightBy: 'sun',
        sunElevation: 48.3,
      },
    ],
  },
  energy: { todayKwh: 1339, periodKwh: 1339, powerW: 4200, capacityKwp: 65 },
  ranking: {
    ranked: 8,
    unrated: 1,
    median: 3.9,
    mad: 0.2,
    lowBelow: 2.73,
    highAbove: 5.07,
    best: [
      aYield({ plantId: 1, plantName: 'Roof', specificYield: 4.4 }),
      aYield({ plantId: 2, plantName: 'Shed', specificYield: 4.1 }),
    ],
    worst: [aYield({ plantId: 7, plantName: 'Shady', specificYield: 1.2, outlier: 'low' })],
    unratedInfos: [
      aYield({ plantId: 8, plantName: 'Unknown size', capacityKwp: null, specificYield: null }),
    ],
  },
  ...patch,
});

const PERMISSIONS = [
  { permission: 'station.view', type: 0 },
  { permission: 'event.view', type: 0 },
];

function server(summary: () => FleetSummary | ReturnType<typeof failure>) {
  return fakeHttp({
    'GET /api/v1/fleet/summary': () => {
      const s = summary();
      return 'status' in s ? s : envelope(s);
    },
    'GET /api/v1/dict/plantTypes': () => envelope([{ id: 1, name: 'Grid-tied' }]),
    'GET /api/v1/agents/list': () => envelope([]),
  });
}

const show = (route = '/') =>
  renderScreen(<FleetDashboardPage />, { route, path: '/', permissions: PERMISSIONS });

describe('FleetDashboardPage', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());

  it('shows the plants per status, each tile opening the filtered plant list', async () => {
    server(() => aSummary());
    await show('/?type=1');
    const tiles = await screen.findByTestId('fleet-status');
    expect(within(tiles).getByTestId('fleet-tile-total')).toHaveTextContent('9');
    const fault = within(tiles).getByTestId('fleet-tile-fault');
    expect(fault).toHaveTextContent('Fault');
    // the dashboard's filters go along, with the tile's status
    expect(fault).toHaveAttribute('href', '/plants?type=1&status=3');
    expect(within(tiles).getByTestId('fleet-tile-total')).toHaveAttribute('href', '/plants?type=1');
    expect(within(tiles).getByTestId('fleet-tile-offline')).toHaveTextContent('1 without devices');
    expect(screen.getByTestId('fleet-energy-today')).toHaveTextContent('1.3 MWh');
    expect(screen.getByTestId('fleet-power')).toHaveTextContent('4.2 kW');
    expect(screen.getByTestId('fleet-capacity')).toHaveTextContent('65 kWp');
  });

  it('lists open alarms faults first with why, and the silent plants with how day was told', async () => {
    server(() => aSummary());
    await show();
    const alarms = await screen.findByTestId('fleet-alarms');
    const rows = within(alarms).getAllByTestId('fleet-alarm');
    expect(rows[0]).toHaveTextContent('Barn');
    expect(rows[0]).toHaveTextContent('F01 DC insulation fault');
    expect(rows[0]).toHaveTextContent('open 3 h 0 min');
    expect(rows[1]).toHaveTextContent('open 2 d 1 h');
    expect(within(rows[0]!).getByRole('link', { name: 'Barn' })).toHaveAttribute(
      'href',
      '/plants/overview/3/2',
    );
    expect(within(rows[0]!).getByRole('link', { name: 'Events' })).toHaveAttribute(
      'href',
      '/device/event?plantId=3&status=open',
    );
    expect(screen.getByTestId('fleet-alarms-all')).toHaveAttribute(
      'href',
      '/device/event?status=open',
    );

    const silent = within(screen.getByTestId('fleet-silent')).getAllByTestId('fleet-silent-plant');
    expect(silent[0]).toHaveTextContent('Never reported');
    expect(within(silent[0]!).getByTestId('fleet-by-clock')).toHaveTextContent(
      'No location: 07:00–19:00 local time',
    );
    expect(silent[1]).toHaveTextContent('silent 1 h 45 min');
    expect(silent[1]).toHaveTextContent('Sun 48°');
  });

  it('ranks by specific yield, marks outliers and shows plants without capacity as --', async () => {
    const api = server(() => aSummary());
    await show();
    const ranking = await screen.findByTestId('fleet-ranking');
    const best = within(within(ranking).getByTestId('fleet-best')).getAllByTestId('fleet-yield');
    expect(best.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Roof'),
      expect.stringContaining('Shed'),
    ]);
    expect(best[0]).toHaveTextContent('4.40');
    const worst = within(ranking).getByTestId('fleet-worst');
    expect(within(worst).getByTestId('fleet-outlier-low')).toHaveTextContent('Low');
    const unrated = within(ranking).getByTestId('fleet-unrated');
    expect(within(unrated).getByTestId('fleet-yield-value')).toHaveTextContent('--');
    expect(unrated).toHaveTextContent('No capacity');
    expect(within(ranking).getByTestId('fleet-median')).toHaveTextContent(
      'Median 3.90 kWh/kWp · Low below 2.73, high above 5.07',
    );
    // the rule is stated where the figures are
    expect(within(ranking).getByTestId('fleet-rule')).toHaveAttribute(
      'aria-label',
      expect.stringContaining('70 % of the median'),
    );

    // the period switch asks again
    fireEvent.click(within(ranking).getByText('7 days'));
    await waitFor(() =>
      expect(api.calls('GET /api/v1/fleet/summary').map((c) => c.query.period)).toContain('7d'),
    );
  });

  it('reads the figures again at the live interval', async () => {
    let power = 4200;
    const api = server(() => aSummary({ energy: { ...aSummary().energy, powerW: power } }));
    await show();
    await waitFor(() => expect(screen.getByTestId('fleet-power')).toHaveTextContent('4.2 kW'));
    power = 9100;
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS + 100));
    await waitFor(() => expect(screen.getByTestId('fleet-power')).toHaveTextContent('9.1 kW'));
    expect(api.calls('GET /api/v1/fleet/summary').length).toBeGreaterThan(1);
  });

  it('says so when no plant matches the filters', async () => {
    const empty = aSummary({
      plants: { total: 0, normal: 0, warning: 0, fault: 0, offline: 0, upgrading: 0, noDevices: 0 },
    });
    server(() => empty);
    await show('/?status=3');
    expect(await screen.findByTestId('fleet-empty')).toHaveTextContent(
      'No plant matches these filters.',
    );
  });

  it('offers to try again when the summary cannot be read', async () => {
    let fail = true;
    server(() => (fail ? failure(3, 'Server error') : aSummary()));
    await show();
    const problem = await screen.findByTestId('fleet-error');
    expect(problem).toHaveTextContent('The fleet dashboard could not be loaded.');
    fail = false;
    fireEvent.click(screen.getByTestId('fleet-retry'));
    expect(await screen.findByTestId('fleet-status')).toBeInTheDocument();
  });

  it('speaks Chinese and Spanish', async () => {
    const node = (permission: string, id: number) => ({
      id,
      name: permission,
      permission,
      type: 0,
      children: [],
    });
    server(() => aSummary()).on({
      'GET /api/v1/permission': () =>
        envelope({ ...node('', 0), children: [node('station.view', 1), node('event.view', 2)] }),
    });
    for (const [language, title, silent] of [
      ['zh', '电站总览', '白天无数据'],
      ['es', 'Flota', 'Sin datos de día'],
    ] as const) {
      const view = await renderScreen(<FleetDashboardPage />, {
        permissions: PERMISSIONS,
        language,
      });
      expect(await screen.findByTestId('fleet-title')).toHaveTextContent(title);
      expect(await screen.findByTestId('fleet-silent')).toHaveTextContent(silent);
      view.unmount();
    }
  });
});

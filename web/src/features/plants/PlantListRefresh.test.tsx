import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_REFRESH_MS } from '@/shared/api/live';
import { envelope, fakeHttp } from '@/test/http';
import { aPlant } from '@/test/plant';
import { renderScreen } from '@/test/render';
import PlantListPage from './PlantListPage';

// the timers run on their own too (testing-library's waitFor polls with them)
beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

describe('PlantListPage live state', () => {
  it('reads the list again while it stays open and shows the new status and power', async () => {
    let plant = aPlant({ name: 'Roof A', status: 1, pac: 3600 });
    const api = fakeHttp({
      'GET /api/v1/plants': () =>
        envelope({ pageNumber: 1, pageSize: 10, total: 1, infos: [plant] }),
      'GET /api/v1/plant/filter': () => envelope({ status: [], type: [] }),
      'GET /api/v1/plant/offers': () => envelope([]),
      'GET /api/v1/customer/offers/received': () => envelope([]),
      'GET /api/v1/agents/list': () => envelope([]),
    });
    await renderScreen(<PlantListPage />, {
      route: '/plants',
      permissions: { permission: 'user.producer', type: 0, children: [] },
    });
    const table = await screen.findByTestId('plant-table');
    await waitFor(() => expect(table).toHaveTextContent('Normal'));
    expect(screen.getByTestId('plant-pac')).toHaveTextContent('3.6 kW');
    const before = api.calls('GET /api/v1/plants').length;

    // the gateway falls silent: the server now lists the plant offline, without power
    plant = { ...plant, status: 0, pac: 0, stale: true };
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS + 100));

    await waitFor(() => expect(table).toHaveTextContent('Offline'));
    expect(table).not.toHaveTextContent('Normal');
    expect(screen.getByTestId('plant-pac')).toHaveTextContent('0 W');
    expect(api.calls('GET /api/v1/plants').length).toBeGreaterThan(before);
  });
});

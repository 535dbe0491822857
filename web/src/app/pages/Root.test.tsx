import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp } from '@/test/http';
import { aPlant } from '@/test/plant';
import { renderScreen } from '@/test/render';
import { RootPage } from './Root';

const PLANTS = [{ permission: 'station.view', type: 0 }];

const count = (total: number) =>
  envelope({ total, normal: total, offline: 0, warning: 0, fault: 0, upgrading: 0 });
const page = (total: number) =>
  envelope({
    pageNumber: 1,
    pageSize: 1,
    total,
    infos: Array.from({ length: Math.min(total, 1) }, (_, i) => aPlant({ id: 42 + i, type: 2 })),
  });

describe('RootPage', () => {
  it("takes someone with exactly one plant to that plant's overview", async () => {
    fakeHttp({
      'GET /api/v1/overview/plantCount': () => count(1),
      'GET /api/v1/plants': () => page(1),
    });
    const view = await renderScreen(<RootPage />, {
      permissions: PLANTS,
      routes: { '/plants/overview/:id/:type': <p>overview</p> },
    });
    await waitFor(() => expect(view.location()).toBe('/plants/overview/42/2'));
  });

  it('takes someone without plants to the plant list', async () => {
    fakeHttp({ 'GET /api/v1/overview/plantCount': () => count(0) });
    const view = await renderScreen(<RootPage />, {
      permissions: PLANTS,
      routes: { '/plants': <p>list</p> },
    });
    await waitFor(() => expect(view.location()).toBe('/plants'));
  });

  it('shows the fleet dashboard to someone with more than one plant', async () => {
    fakeHttp({
      'GET /api/v1/overview/plantCount': () => count(9),
      'GET /api/v1/fleet/summary': () =>
        envelope({
          period: 'today',
          updateAt: '2026-06-21T10:00:00Z',
          plants: {
            total: 0,
            normal: 0,
            warning: 0,
            fault: 0,
            offline: 0,
            upgrading: 0,
            noDevices: 0,
          },
          alarms: { plants: 0, faults: 0, warnings: 0, infos: [] },
          silent: { minutes: 60, total: 0, infos: [] },
          energy: { todayKwh: 0, periodKwh: 0, powerW: 0, capacityKwp: 0 },
          ranking: {
            ranked: 0,
            unrated: 0,
            median: null,
            mad: null,
            lowBelow: null,
            highAbove: null,
            best: [],
            worst: [],
            unratedInfos: [],
          },
        }),
      'GET /api/v1/dict/plantTypes': () => envelope([{ id: 1, name: 'Grid-tied' }]),
      'GET /api/v1/agents/list': () => envelope([]),
    });
    const view = await renderScreen(<RootPage />, { permissions: PLANTS });
    expect(await screen.findByTestId('fleet-dashboard')).toBeInTheDocument();
    expect(view.location()).toBe('/');
  });
});

import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp, type Routes } from '@/test/http';
import { aPlant } from '@/test/plant';
import { renderScreen } from '@/test/render';
import type { Schemas } from '@/shared/api/schema';
import WorkdataListPage from './WorkdataListPage';

const page = <T,>(infos: T[]) => ({ pageSize: 20, pageNumber: 1, total: infos.length, infos });

function tree(keys: string[]) {
  return { permission: 'root', type: 0, children: keys.map((k) => ({ permission: k, type: 0 })) };
}

/** The server: the plant filter's one plant, and `routes`. */
const serve = (routes: Routes = {}) =>
  fakeHttp({
    'GET /api/v1/plants': () => envelope(page([aPlant()])),
    ...routes,
  });

const show = (keys: string[], route = '/workdata/list') =>
  renderScreen(<WorkdataListPage />, { route, permissions: tree(keys) });

const dynamic = {
  pageSize: 20,
  pageNumber: 1,
  total: 1,
  columns: ['pv_power', 'soc'],
  infos: [{ time: '2026-11-20 10:00:00', pv_power: '3120', soc: null }],
};

const event: Schemas['EventItem'] = {
  id: 5,
  occurrenceId: 5,
  code: 'F35',
  sn: 'INV001',
  alias: null,
  deviceType: 'inverter',
  type: 1,
  severity: 'warning',
  level: 2,
  status: 'closed',
  occurTime: '2026-11-20 10:00:00',
  recoverTime: '2026-11-20 10:20:00',
  updateAt: '2026-11-20T09:20:00Z',
  meaning: 'No AC grid',
  solution: null,
  plantId: 7,
  plantName: 'Roof A',
  timezone: 'Europe/Madrid',
};

describe('WorkdataListPage', () => {
  it('opens on plant reports; the predicted import needs the plant edit right', async () => {
    serve();
    await show(['workdata.view']);
    expect(await screen.findByTestId('report-tab')).toBeInTheDocument();
    expect(screen.getByTestId('report-open')).toBeDisabled();
    expect(screen.queryByTestId('predicted-import')).toBeNull();
  });

  it('lists inverter events with the download for who may export', async () => {
    const api = serve({ 'GET /api/v1/workdata/event': () => envelope(page([event])) });
    await show(['workdata.view', 'workdata.export', 'station.edit'], '/workdata/list?tab=inverter');
    expect(await screen.findByTestId('inverter-events-tab')).toBeInTheDocument();
    expect(await screen.findByText('No AC grid')).toBeInTheDocument();
    expect(screen.getByTestId('wd-event-code')).toHaveTextContent('F35');
    expect(await screen.findByTestId('inverter-events-download')).toBeInTheDocument();
    expect(screen.getByTestId('predicted-import')).toBeInTheDocument();
    expect(api.calls('GET /api/v1/workdata/event')[0]?.query).toMatchObject({ page: 1, limit: 20 });
  });

  it('switches tabs: battery events come from their own list', async () => {
    serve({ 'GET /api/v1/workdata/battery/event': () => envelope(page([])) });
    await show(['workdata.view']);
    await screen.findByTestId('report-tab');
    fireEvent.click(screen.getByTestId('workdata-tab-battery'));
    expect(await screen.findByTestId('battery-events-tab')).toBeInTheDocument();
    expect(await screen.findByText('No events yet')).toBeInTheDocument();
    expect(screen.queryByTestId('battery-events-download')).toBeNull();
  });

  it('asks for a device before it reads dynamic data', async () => {
    const api = serve({ 'GET /api/v1/workdata/dynamic': () => envelope(dynamic) });
    await show(['workdata.view'], '/workdata/list?tab=dynamic');
    expect(await screen.findByTestId('dynamic-pick')).toBeInTheDocument();
    expect(api.calls('GET /api/v1/workdata/dynamic')).toEqual([]);
  });

  it('shows a device’s samples with the columns it reported', async () => {
    const api = serve({
      'GET /api/v1/plant/{id}/devices': () => envelope([]),
      'GET /api/v1/workdata/dynamic': () => envelope(dynamic),
    });
    await show(
      ['workdata.view'],
      '/workdata/list?tab=dynamic&plantId=7&sn=INV001&sdate=2026-11-20&edate=2026-11-20',
    );
    expect(await screen.findByText('3120')).toBeInTheDocument();
    expect(screen.getByText('pv_power')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        api.calls('GET /api/v1/workdata/dynamic').find((r) => r.query.limit === 20)?.query,
      ).toMatchObject({ sn: 'INV001', sdate: '2026-11-20', edate: '2026-11-20' }),
    );
  });
});

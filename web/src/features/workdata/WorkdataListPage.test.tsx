import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import MockAdapter from 'axios-mock-adapter';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { http } from '@/shared/http';
import WorkdataListPage from './WorkdataListPage';

const ok = <T,>(data: T): [number, unknown] => [200, { code: 0, msg: 'Success', data }];
const page = <T,>(infos: T[]) => ({ pageSize: 20, pageNumber: 1, total: infos.length, infos });

function tree(keys: string[]) {
  return { permission: 'root', type: 0, children: keys.map((k) => ({ permission: k, type: 0 })) };
}

function show(url = '/workdata/list') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[url]}>
          <WorkdataListPage />
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

const event = {
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
  let mock: MockAdapter;
  beforeEach(() => {
    mock = new MockAdapter(http.axios);
    mock.onGet('/api/v1/plants').reply(...ok(page([{ id: 7, name: 'Roof A' }])));
  });
  afterEach(() => mock.restore());

  it('opens on plant reports; the predicted import needs the plant edit right', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['workdata.view'])));
    show();
    expect(await screen.findByTestId('report-tab')).toBeInTheDocument();
    expect(screen.getByTestId('report-open')).toBeDisabled();
    expect(screen.queryByTestId('predicted-import')).toBeNull();
  });

  it('lists inverter events with the download for who may export', async () => {
    mock
      .onGet('/api/v1/permission')
      .reply(...ok(tree(['workdata.view', 'workdata.export', 'station.edit'])));
    mock.onGet('/api/v1/workdata/event').reply((config) => {
      expect(config.params).toMatchObject({ page: 1, limit: 20 });
      return ok(page([event]));
    });
    show('/workdata/list?tab=inverter');
    expect(await screen.findByTestId('inverter-events-tab')).toBeInTheDocument();
    expect(await screen.findByText('No AC grid')).toBeInTheDocument();
    expect(screen.getByTestId('wd-event-code')).toHaveTextContent('F35');
    expect(await screen.findByTestId('inverter-events-download')).toBeInTheDocument();
    expect(screen.getByTestId('predicted-import')).toBeInTheDocument();
  });

  it('switches tabs: battery events come from their own list', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['workdata.view'])));
    mock.onGet('/api/v1/workdata/battery/event').reply(...ok(page([])));
    show();
    await screen.findByTestId('report-tab');
    fireEvent.click(screen.getByTestId('workdata-tab-battery'));
    expect(await screen.findByTestId('battery-events-tab')).toBeInTheDocument();
    expect(await screen.findByText('No events yet')).toBeInTheDocument();
    expect(screen.queryByTestId('battery-events-download')).toBeNull();
  });

  it('asks for a device before it reads dynamic data', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['workdata.view'])));
    show('/workdata/list?tab=dynamic');
    expect(await screen.findByTestId('dynamic-pick')).toBeInTheDocument();
    expect(mock.history.get.some((r) => r.url === '/api/v1/workdata/dynamic')).toBe(false);
  });

  it('shows a device’s samples with the columns it reported', async () => {
    mock.onGet('/api/v1/permission').reply(...ok(tree(['workdata.view'])));
    mock.onGet('/api/v1/plant/7/devices').reply(...ok([]));
    mock.onGet('/api/v1/workdata/dynamic').reply(() =>
      ok({
        pageSize: 20,
        pageNumber: 1,
        total: 1,
        columns: ['pv_power', 'soc'],
        infos: [{ time: '2026-11-20 10:00:00', pv_power: '3120', soc: null }],
      }),
    );
    show('/workdata/list?tab=dynamic&plantId=7&sn=INV001&sdate=2026-11-20&edate=2026-11-20');
    expect(await screen.findByText('3120')).toBeInTheDocument();
    expect(screen.getByText('pv_power')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        mock.history.get.find((r) => r.url === '/api/v1/workdata/dynamic' && r.params.limit === 20)
          ?.params,
      ).toMatchObject({ sn: 'INV001', sdate: '2026-11-20', edate: '2026-11-20' }),
    );
  });
});

import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import { gatewayKeys, overviewKeys, plantKeys } from '@/shared/api/keys';
import { ReplaceDialog } from './ReplaceDialog';
import { RestartDialog } from './RestartDialog';

const post = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: { post: (...args: unknown[]) => post(...args) as unknown },
}));

// jsdom has no ResizeObserver; antd's table measures itself with one
if (!('ResizeObserver' in globalThis)) {
  Object.defineProperty(globalThis, 'ResizeObserver', {
    configurable: true,
    value: class {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    },
  });
}

/** Plant 7 holds the gateway; plant 8 is another plant. */
const VIEWS = {
  gatewayList: gatewayKeys.list({ page: 1, limit: 10 }),
  gatewayDetail: gatewayKeys.detail('GW-0001'),
  plantGateways: plantKeys.gatewayList(7),
  plantGatewayDevices: plantKeys.gatewayDevices(7, 41),
  overviewDevices: overviewKeys.devices(7),
  otherPlantGateways: plantKeys.gatewayList(8),
  otherOverviewDevices: overviewKeys.devices(8),
  plantDetail: plantKeys.detail(7),
};
type View = keyof typeof VIEWS;

function seeded(): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  for (const key of Object.values(VIEWS)) client.setQueryData(key as QueryKey, { seeded: true });
  return client;
}

const stale = (client: QueryClient) =>
  (Object.keys(VIEWS) as View[]).filter(
    (view) => client.getQueryState(VIEWS[view] as QueryKey)?.isInvalidated,
  );

function show(client: QueryClient, ui: React.ReactNode) {
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <App>{ui}</App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const item = (sn: string, status: string) => ({
  sn,
  status,
  code: 0,
  msg: '',
  success: true,
  commandId: null,
});

async function restart(client: QueryClient, plantId?: number | null) {
  post
    .mockResolvedValueOnce({ total: 1, ready: 1, refused: 0, items: [item('GW-0001', 'ok')] })
    .mockResolvedValueOnce({
      total: 1,
      succeeded: 1,
      failed: 0,
      items: [item('GW-0001', 'succeeded')],
    });
  show(client, <RestartDialog open onClose={() => {}} fixed={['GW-0001']} plantId={plantId} />);
  fireEvent.click(screen.getByTestId('restart-check'));
  await screen.findByTestId('restart-check-result', {}, { timeout: 10_000 });
  // the button is ready once the check has settled
  await waitFor(
    () => {
      if (post.mock.calls.length < 2) fireEvent.click(screen.getByTestId('restart-confirm'));
      expect(post).toHaveBeenCalledTimes(2);
    },
    { timeout: 10_000 },
  );
  await screen.findByTestId('restart-result', {}, { timeout: 10_000 });
}

describe('gateway actions refresh the plant gateway views', () => {
  beforeEach(() => post.mockReset());

  it('a restart refreshes the gateway screens and its plant gateway list and devices', async () => {
    const client = seeded();
    await restart(client, 7);
    await waitFor(() =>
      expect(stale(client)).toEqual([
        'gatewayList',
        'gatewayDetail',
        'plantGateways',
        'plantGatewayDevices',
        'overviewDevices',
      ]),
    );
  }, 30_000);

  it('a batch restart (any plant) refreshes every plant gateway view', async () => {
    const client = seeded();
    await restart(client);
    await waitFor(() =>
      expect(stale(client)).toEqual([
        'gatewayList',
        'gatewayDetail',
        'plantGateways',
        'plantGatewayDevices',
        'overviewDevices',
        'otherPlantGateways',
        'otherOverviewDevices',
      ]),
    );
  }, 30_000);

  it('a replacement refreshes the views of the plant the server names', async () => {
    post.mockResolvedValueOnce({ oldSn: 'GW-0001', newSn: 'GW-0002', plantId: 7, devices: 3 });
    const client = seeded();
    show(client, <ReplaceDialog sn="GW-0001" open onClose={() => {}} />);
    fireEvent.change(screen.getByTestId('replace-sn'), { target: { value: 'GW-0002' } });
    fireEvent.change(screen.getByTestId('replace-key'), { target: { value: 'key-0002' } });
    fireEvent.click(screen.getByRole('button', { name: /replace/i }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/api/v1/gateway/replace',
        { oldSn: 'GW-0001', newSn: 'GW-0002', key: 'key-0002' },
        expect.anything(),
      ),
    );
    await waitFor(() =>
      expect(stale(client)).toEqual([
        'gatewayList',
        'gatewayDetail',
        'plantGateways',
        'plantGatewayDevices',
        'overviewDevices',
      ]),
    );
  }, 30_000);
});

import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { gatewayKeys, overviewKeys, plantKeys } from '@/shared/api/keys';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import { ReplaceDialog } from './ReplaceDialog';
import { RestartDialog } from './RestartDialog';

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

const show = (client: QueryClient, ui: React.ReactNode) => renderScreen(ui, { client });

const item = (sn: string, status: string) => ({
  sn,
  status,
  code: 0,
  msg: '',
  success: true,
  commandId: null,
  gatewayId: null,
  acceptedAt: null,
});

async function restart(client: QueryClient, plantId?: number | null) {
  const api = fakeHttp({
    'POST /api/v1/gateways/batch/check': () =>
      envelope({ total: 1, ready: 1, refused: 0, items: [item('GW-0001', 'ok')] }),
    'POST /api/v1/gateway/{gsns}/restart': () =>
      envelope({ total: 1, succeeded: 1, failed: 0, items: [item('GW-0001', 'succeeded')] }),
  });
  await show(
    client,
    <RestartDialog open onClose={() => {}} fixed={['GW-0001']} plantId={plantId} />,
  );
  fireEvent.click(screen.getByTestId('restart-check'));
  await screen.findByTestId('restart-check-result');
  // the button is ready once the check has settled
  await waitFor(() => {
    const restarts = api.calls('POST /api/v1/gateway/{gsns}/restart');
    if (restarts.length < 1) fireEvent.click(screen.getByTestId('restart-confirm'));
    expect(restarts).toHaveLength(1);
  });
  await screen.findByTestId('restart-result');
}

describe('gateway actions refresh the plant gateway views', () => {
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
  });

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
  });

  it('a replacement refreshes the views of the plant the server names', async () => {
    const api = fakeHttp({
      'POST /api/v1/gateway/replace': () =>
        envelope({ oldSn: 'GW-0001', newSn: 'GW-0002', plantId: 7, devices: 3 }),
    });
    const client = seeded();
    await show(client, <ReplaceDialog sn="GW-0001" open onClose={() => {}} />);
    fireEvent.change(screen.getByTestId('replace-sn'), { target: { value: 'GW-0002' } });
    fireEvent.change(screen.getByTestId('replace-key'), { target: { value: 'key-0002' } });
    fireEvent.click(screen.getByRole('button', { name: /replace/i }));
    await waitFor(() =>
      expect(api.calls('POST /api/v1/gateway/replace')).toMatchObject([
        { body: { oldSn: 'GW-0001', newSn: 'GW-0002', key: 'key-0002' } },
      ]),
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
  });
});

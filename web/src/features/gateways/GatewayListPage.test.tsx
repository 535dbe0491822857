import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { GatewayRow } from '@/shared/api/gateways';
import { envelope, fakeHttp, type Routes } from '@/test/http';
import { screenWidth } from '@/test/media';
import { renderScreen } from '@/test/render';
import GatewayListPage from './GatewayListPage';

const gateway: GatewayRow = {
  id: 3,
  sn: 'GW-ROOF-01',
  alias: 'Roof box',
  commType: 1,
  commTypeName: 'WiFi',
  createAt: '2026-05-01T10:00:00.000+00:00',
  customer: null,
  customerId: 42,
  customerName: 'Ann Owner',
  devName: '',
  hardVer: 'H2',
  key: null,
  lastMessageAt: '2026-05-04T10:00:00.000+00:00',
  lldt: '2026-05-04 10:00:00',
  model: '',
  online: true,
  plant: null,
  plantId: 7,
  plantName: 'Madrid rooftop with a long name',
  proto: 'deye-hybrid-3ph-hv',
  protocolType: null,
  signal: 80,
  softVer: 'SIM-1.4.2',
  status: 1,
  updateAt: '2026-05-04T10:00:00.000+00:00',
  uploadCycle: 300,
  signedInAt: null,
};

const second: GatewayRow = { ...gateway, id: 4, sn: 'GW-SHED-02', alias: '' };

function serve(more: Routes = {}, infos = [gateway]) {
  return fakeHttp({
    'GET /api/v1/gateways': () =>
      envelope({ pageNumber: 1, pageSize: 10, total: infos.length, infos }),
    'GET /api/v1/gateways/count': () => envelope({ total: 1, online: 1, offline: 0 }),
    'GET /api/v1/agents/list': () => envelope([]),
    'GET /api/v1/customers/list': () => envelope([]),
    ...more,
  });
}

describe('GatewayListPage', () => {
  it('shows each gateway as a card with every figure on a phone', async () => {
    screenWidth(390);
    serve();
    await renderScreen(<GatewayListPage />, { route: '/device/gateway' });
    const card = await screen.findByTestId('gateway-card');
    expect(within(card).getByTestId('gateway-sn')).toHaveTextContent('GW-ROOF-01');
    expect(card).toHaveTextContent('Roof box');
    expect(card).toHaveTextContent('Online');
    expect(within(card).getByTestId('gateway-last-message')).toHaveTextContent(
      '2026-05-04 10:00:00',
    );
    expect(card).toHaveTextContent('Madrid rooftop with a long name');
    expect(card).toHaveTextContent('Ann Owner');
    expect(card).toHaveTextContent('deye-hybrid-3ph-hv · WiFi');
    // one column: no header of the desktop's columns
    expect(screen.queryByRole('columnheader', { name: 'Plant' })).toBeNull();
  });

  it('keeps names, state, last message, customer and plant as columns at 1440 px', async () => {
    screenWidth(1440);
    serve();
    await renderScreen(<GatewayListPage />, { route: '/device/gateway' });
    await screen.findByTestId('gateway-sn');
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(
      expect.arrayContaining(['SN', 'Alias', 'Status', 'Last message (UTC)', 'Customer', 'Plant']),
    );
    // the rest waits for a wider window (antd's xxl), the card or the gateway's page
    expect(headers).not.toContain('Hardware version');
    expect(screen.queryByTestId('gateway-card')).toBeNull();
  });

  it('restarts the gateways picked in the list, without typing their SNs', async () => {
    screenWidth(1440);
    const api = serve(
      {
        'POST /api/v1/gateways/batch/check': () =>
          envelope({
            total: 1,
            ready: 1,
            refused: 0,
            items: [
              {
                sn: 'GW-SHED-02',
                success: true,
                status: 'ok',
                code: 0,
                msg: '',
                commandId: null,
                gatewayId: null,
                acceptedAt: null,
              },
            ],
          }),
      },
      [gateway, second],
    );
    await renderScreen(<GatewayListPage />, {
      route: '/device/gateway',
      permissions: { permission: 'gateway.restart', type: 1 },
    });
    await screen.findAllByTestId('gateway-sn');
    expect(screen.getByTestId('batch-restart')).toHaveTextContent('Batch restart');
    fireEvent.click(screen.getByRole('checkbox', { name: 'GW-SHED-02' }));
    expect(screen.getByTestId('batch-restart')).toHaveTextContent('Restart 1 selected');
    fireEvent.click(screen.getByTestId('batch-restart'));
    // The dialog names the picked gateway and asks for no SNs.
    expect(await screen.findByText(/Restart GW-SHED-02\?/)).toBeTruthy();
    expect(screen.queryByTestId('restart-sns')).toBeNull();
    fireEvent.click(screen.getByTestId('restart-check'));
    expect(await screen.findByTestId('restart-check-result')).toHaveTextContent('GW-SHED-02');
    expect(api.calls('POST /api/v1/gateways/batch/check').map((c) => c.body)).toEqual([
      { sns: ['GW-SHED-02'], action: 'restart' },
    ]);
  });

  it('offers no selection without the restart permission', async () => {
    screenWidth(1440);
    serve({}, [gateway, second]);
    await renderScreen(<GatewayListPage />, { route: '/device/gateway' });
    await screen.findAllByTestId('gateway-sn');
    expect(screen.queryByRole('checkbox', { name: 'GW-SHED-02' })).toBeNull();
    expect(screen.queryByTestId('batch-restart')).toBeNull();
  });
});

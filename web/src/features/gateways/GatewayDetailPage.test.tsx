import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeHttp, networkError } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { GatewayDetail } from './api';
import GatewayDetailPage from './GatewayDetailPage';

const gateway: GatewayDetail = {
  id: 7,
  sn: 'GW-0007',
  key: 'KEY123',
  alias: '',
  status: 1,
  commType: 1,
  commTypeName: 'WiFi',
  signal: -61,
  softVer: 'SIM-1.4.2',
  hardVer: '',
  updateAt: '2026-05-04T10:00:00Z',
  protocolType: null,
  proto: 'deye-hybrid-1ph',
  model: '',
  lldt: '2026-05-04 10:00:00',
  lastMessageAt: '2026-05-04T10:00:00Z',
  uploadCycle: 300,
  signedInAt: null,
  devName: 'GW-0007',
  online: true,
  plantId: 3,
  plantName: 'Ann storage plant',
  plant: { id: 3, name: 'Ann storage plant' },
  customerId: 2,
  customerName: 'Ann',
  customer: { id: 2, account: 'ann@example.com', nickname: 'Ann' },
  createAt: '2026-05-01T10:00:00.000+00:00',
  keyEditable: true,
  keyPending: false,
  keyChangedAt: null,
  devices: [
    {
      id: 1,
      sn: 'INV 1',
      family: 'inverter',
      type: 2,
      alias: '',
      model: 'SUN-5K',
      status: 3,
      online: true,
      parentSn: null,
      plantId: 3,
      lastSeen: null,
      protocol: '',
      ratePower: 0,
      updateAt: '2026-05-04T10:00:00Z',
    },
    {
      id: 2,
      sn: 'X-1',
      family: 'combiner',
      type: 0,
      alias: 'Spare',
      model: '',
      status: 0,
      online: false,
      parentSn: null,
      plantId: 3,
      lastSeen: null,
      protocol: '',
      ratePower: 0,
      updateAt: '2026-05-04T10:00:00Z',
    },
  ],
};

/** The page of gateway 7, as the server answers it; resolves once it is shown. */
async function renderPage(detail: GatewayDetail = gateway) {
  const api = fakeHttp({
    'GET /api/v1/gateway/{id}': () => envelope(detail),
    // the plant's own detail is not what these tests read: it does not arrive
    'GET /api/v1/plant/{id}': () => networkError(),
  });
  await renderScreen(<GatewayDetailPage />, {
    route: '/device/gateway/7',
    path: '/device/gateway/:id',
  });
  // the plant's name comes with the answer (the title shows "Gateway" until then)
  await screen.findAllByText(detail.plantName ?? '');
  expect(api.calls('GET /api/v1/gateway/{id}')[0]?.params).toEqual({ id: '7' });
}

describe('GatewayDetailPage', () => {
  it('shows the gateway with its devices, each linking to its screen', async () => {
    await renderPage();
    expect(screen.getByTestId('gateway-title').textContent).toBe('GW-0007');
    expect(screen.getAllByText('Ann storage plant').length).toBeGreaterThan(0);
    expect(screen.getByTestId('signal-bars').getAttribute('data-bars')).toBe('4');
    const links = screen.getAllByTestId('device-link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual([
      '/device/inverter/INV%201',
      '/device/combiner/X-1',
    ]);
    // missing values read '--'
    expect(screen.getByText('Fault')).toBeTruthy();
    expect(screen.getAllByText('--').length).toBeGreaterThan(0);
  });

  it('hides the key until asked and offers its rotation to those who may edit the gateway', async () => {
    await renderPage();
    const value = screen.getByTestId('gateway-key-value');
    expect(value.textContent).not.toContain('KEY123');
    fireEvent.click(screen.getByTestId('gateway-key-toggle'));
    expect(screen.getByTestId('gateway-key-value').textContent).toContain('KEY123');
    expect(screen.getByTestId('gateway-key-rotate')).toBeTruthy();
  });

  it('shows no key at all to a visitor', async () => {
    await renderPage({ ...gateway, key: null, keyEditable: false });
    expect(screen.queryByTestId('gateway-key')).toBeNull();
    expect(screen.queryByText('Registration key')).toBeNull();
  });
});

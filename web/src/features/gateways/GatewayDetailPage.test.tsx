import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { gatewayDetailQuery, type GatewayDetail } from './api';
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
      family: 'unknown',
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

function renderPage(detail: GatewayDetail = gateway) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity } },
  });
  client.setQueryData(gatewayDetailQuery('7').queryKey, detail);
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/device/gateway/7']}>
        <App>
          <Routes>
            <Route path="/device/gateway/:id" element={<GatewayDetailPage />} />
          </Routes>
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('GatewayDetailPage', () => {
  it('shows the gateway with its devices, linking those that have a screen', () => {
    renderPage();
    expect(screen.getByTestId('gateway-title').textContent).toBe('GW-0007');
    expect(screen.getAllByText('Ann storage plant').length).toBeGreaterThan(0);
    expect(screen.getByTestId('signal-bars').getAttribute('data-bars')).toBe('4');
    const links = screen.getAllByTestId('device-link');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('/device/inverter/INV%201');
    // a family without a screen is plain text; missing values read '--'
    expect(screen.getByText('X-1').closest('a')).toBeNull();
    expect(screen.getByText('Fault')).toBeTruthy();
    expect(screen.getAllByText('--').length).toBeGreaterThan(0);
  }, 30_000);

  it('hides the key until asked and offers its rotation to those who may edit the gateway', () => {
    renderPage();
    const value = screen.getByTestId('gateway-key-value');
    expect(value.textContent).not.toContain('KEY123');
    fireEvent.click(screen.getByTestId('gateway-key-toggle'));
    expect(screen.getByTestId('gateway-key-value').textContent).toContain('KEY123');
    expect(screen.getByTestId('gateway-key-rotate')).toBeTruthy();
  }, 30_000);

  it('shows no key at all to a visitor', () => {
    renderPage({ ...gateway, key: null, keyEditable: false });
    expect(screen.queryByTestId('gateway-key')).toBeNull();
    expect(screen.queryByText('Registration key')).toBeNull();
  }, 30_000);
});

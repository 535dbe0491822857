import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import { aUser } from '@/test/user';
import type { InverterDetail } from './api';
import { InfoTab } from './InfoTab';

const inverter = (keys: string[]): InverterDetail => ({
  id: 7,
  sn: '2306012345',
  alias: 'Roof east',
  gsn: 'GW-0001',
  status: 1,
  type: 2,
  typeKey: 'single_phase_lv_hybrid',
  commTypeName: 'RS485',
  custCode: 0,
  version: {
    masterVer: null,
    softVer: '1.2.3',
    hardVer: null,
    hmiVer: null,
    bmsVer: null,
    commVer: null,
  },
  model: 'SUN-5K',
  pac: 1200,
  etoday: 12.5,
  etotal: 39.75,
  updateAt: '2026-05-04T10:00:00Z',
  createAt: '2026-01-04T10:00:00.000+00:00',
  stale: false,
  opened: 1,
  plant: {
    id: 3,
    name: 'Ann storage plant',
    type: 2,
    master: 'ann',
    installer: '',
    email: '',
    phone: '',
  },
  plantId: 3,
  gatewayVO: { gsn: 'GW-0001', status: 1 },
  sunsynkEquip: true,
  protocolIdentifier: 'deye-hybrid-1ph',
  equipMode: null,
  equipType: 2,
  ratePower: 5000,
  online: true,
  hybrid: true,
  protocol: 'deye-hybrid-1ph',
  runningState: 2,
  mpptCount: 2,
  phaseCount: 1,
  dcTemp: 100,
  igbtTemp: null,
  lastSeen: '2026-05-04T10:00:00Z',
  timezone: 'Europe/Madrid',
  plantPermission: keys,
  values: {},
  emonth: 120.5,
  eyear: 980.25,
  runStatus: 'Normal',
  thumbUrl: null,
  commType: null,
  brand: 'Deye',
  address: 'Calle Mayor 1',
  user: { id: 7, nickname: 'Ann', mobile: null, email: 'ann@example.com' },
  productId: 3,
  productName: 'SUN-5K-SG01LP1',
});

/** The tab for a signed-in owner who reads temperatures in `tempUnit`. */
const renderTab = (keys: string[], tempUnit: 'C' | 'F' = 'C') => {
  // the tab asks the server nothing: any request fails the test
  fakeHttp();
  return renderScreen(<InfoTab inv={inverter(keys)} />, {
    user: aUser({
      id: 1,
      account: 'ann@example.com',
      email: 'ann@example.com',
      createAt: '2026-01-01T00:00:00.000+00:00',
      tempUnit,
    }),
  });
};

describe('inverter basic information', () => {
  it('hides rename and delete without the keys on the plant', async () => {
    await renderTab([]);
    expect(screen.getByText('2306012345')).toBeInTheDocument();
    expect(screen.queryByTestId('rename')).toBeNull();
    expect(screen.queryByTestId('delete')).toBeNull();
  });

  it('shows the product; picking it needs inverter.setting', async () => {
    await renderTab([]);
    expect(screen.getByTestId('info-product')).toHaveTextContent('SUN-5K-SG01LP1');
    expect(screen.queryByTestId('product-pick')).toBeNull();
  });

  it('shows rename with inverter.alias, and delete only with the plant edit key', async () => {
    await renderTab(['inverter.alias']);
    expect(screen.getByTestId('rename')).toBeInTheDocument();
    expect(screen.queryByTestId('delete')).toBeNull();
  });

  it('asks for the SN before deleting', async () => {
    await renderTab(['station.edit']);
    fireEvent.click(screen.getByTestId('delete'));
    const submit = await screen.findByTestId('delete-submit');
    expect(submit).toBeDisabled();
    fireEvent.change(screen.getByTestId('delete-confirm'), { target: { value: '2306012345' } });
    expect(submit).toBeEnabled();
  });

  it('shows temperatures in the user unit and missing values as --', async () => {
    await renderTab([], 'F');
    expect(screen.getByText('212 °F')).toBeInTheDocument();
    expect(screen.getAllByText('--').length).toBeGreaterThan(0);
  });
});

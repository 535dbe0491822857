import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '@/shared/api/schema';
import { envelope, failure, fakeHttp, type Routes } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { Field, Support, Values } from './api';
import SettingsPage from './SettingsPage';
import { afterGuard } from '@/test/guard';

const support: Support = {
  support: true,
  sn: 'INV1',
  family: 'hybrid_lv',
  editable: true,
  groups: [
    {
      key: 'battery',
      fields: [
        {
          key: 'batteryMaxCurrentCharge',
          group: 'battery',
          unit: 'A',
          default: '100',
          selectable: true,
          type: 'number',
          min: 0,
          max: 240,
          decimals: 0,
        },
      ],
    },
  ],
};
const values: Values = { sn: 'INV1', batteryMaxCurrentCharge: '100' };

/** GET /api/v1/inverter/{sn}: the inverter in `status` (1 normal, 0 offline, 4 upgrading). */
const inverter = (status: number): Schemas['InverterDetail'] => ({
  id: 7,
  sn: 'INV1',
  alias: '',
  gsn: 'GW1',
  status,
  type: 2,
  typeKey: 'single_phase_lv_hybrid',
  commTypeName: 'RS485',
  custCode: 0,
  version: {
    masterVer: null,
    softVer: null,
    hardVer: null,
    hmiVer: null,
    bmsVer: null,
    commVer: null,
  },
  model: '',
  pac: 0,
  etoday: 0,
  etotal: 0,
  updateAt: '2026-05-04T10:00:00Z',
  createAt: '2026-01-04T10:00:00.000+00:00',
  stale: false,
  opened: 1,
  plant: null,
  plantId: null,
  gatewayVO: { gsn: 'GW1', status: 1 },
  sunsynkEquip: true,
  protocolIdentifier: '',
  equipMode: null,
  equipType: 2,
  ratePower: null,
  online: status !== 0,
  hybrid: true,
  protocol: '',
  runningState: null,
  mpptCount: null,
  phaseCount: null,
  dcTemp: null,
  igbtTemp: null,
  lastSeen: null,
  timezone: 'Europe/Madrid',
  plantPermission: [],
  values: {},
  emonth: 0,
  eyear: 0,
  runStatus: '',
  thumbUrl: null,
  commType: null,
  brand: '',
  address: '',
  user: null,
  productId: null,
  productName: null,
});

/** The server of the screen for inverter INV1 in `status`; `more` adds or replaces routes. */
function serve(status = 1, more: Routes = {}) {
  return fakeHttp({
    'GET /api/v1/inverter/{sn}': () => envelope(inverter(status)),
    'GET /api/v1/inverter/setting/{sn}/support': () => envelope(support),
    'GET /api/v1/common/setting/{sn}/read': () => envelope(values),
    'GET /api/v1/inverter/params/custom': () => envelope([]),
    'GET /api/v1/inverter/params': () =>
      envelope({ family: 'hybrid_lv', maxParams: 6, maxProfiles: 6, infos: [] }),
    'GET /api/v1/command/{id}': () =>
      envelope({
        id: 5,
        kind: 'set_params',
        deviceSn: 'INV1',
        gatewaySn: 'GW1',
        status: 'succeeded',
        resultCode: 0,
        result: null,
        message: 'applied',
        createAt: '2026-11-22T07:00:00.000+00:00',
        updateAt: '2026-11-22T07:00:01Z',
      }),
    ...more,
  });
}

const show = () => renderScreen(<SettingsPage />, { route: '/device/setting?sn=INV1' });

const writes = (api: ReturnType<typeof serve>) =>
  api.calls('POST /api/v1/common/setting/{sn}/set').map((c) => [c.params.sn, c.body]);

/** A battery SOC level field (0-100 %). */
const level = (key: string): Field => ({
  key,
  group: 'battery',
  unit: '%',
  default: '0',
  selectable: true,
  type: 'number',
  min: 0,
  max: 100,
  decimals: 0,
});

/**
 * The routes of an inverter whose battery group holds `fields` and the three SOC levels, read
 * as `levels` (shutdown, low, restart); a write answers a command.
 */
function withLevels(fields: Field[], levels: [string, string, string]): Routes {
  const [batteryShutdownCap, batteryLowCap, batteryRestartCap] = levels;
  return {
    'GET /api/v1/inverter/setting/{sn}/support': () =>
      envelope({
        ...support,
        groups: [
          {
            key: 'battery',
            fields: [
              ...fields,
              ...['batteryLowCap', 'batteryRestartCap', 'batteryShutdownCap'].map(level),
            ],
          },
        ],
      }),
    'GET /api/v1/common/setting/{sn}/read': () =>
      envelope({ ...values, batteryLowCap, batteryRestartCap, batteryShutdownCap }),
    'POST /api/v1/common/setting/{sn}/set': () => envelope({ commandId: 5, changed: [] }),
  };
}

describe('SettingsPage', () => {
  it('refuses a value out of range on the spot, then sends the whole set and shows it applied', async () => {
    const api = serve(1, {
      'POST /api/v1/common/setting/{sn}/set': () =>
        envelope({ commandId: 5, changed: ['batteryMaxCurrentCharge'] }),
    });
    await show();
    const input = await screen.findByTestId('field-batteryMaxCurrentCharge');
    fireEvent.change(input, { target: { value: '300' } });
    fireEvent.click(screen.getByTestId('settings-submit'));
    expect(await screen.findByText('Enter a value from 0 to 240')).toBeTruthy();
    expect(writes(api)).toEqual([]);

    fireEvent.change(input, { target: { value: '120' } });
    await afterGuard(screen.getByTestId('settings-submit'));
    fireEvent.click(screen.getByTestId('settings-submit'));
    await waitFor(() =>
      expect(writes(api)).toEqual([['INV1', { sn: 'INV1', batteryMaxCurrentCharge: '120' }]]),
    );
    await waitFor(() =>
      expect(screen.getByTestId('command-progress').getAttribute('data-status')).toBe('succeeded'),
    );
  });

  it('refuses battery levels out of order on the form, naming the level they must respect', async () => {
    const api = serve(1, withLevels([], ['10', '20', '40']));
    await show();
    const shutdown = await screen.findByTestId('field-batteryShutdownCap');
    fireEvent.change(shutdown, { target: { value: '60' } });
    fireEvent.click(screen.getByTestId('settings-submit'));
    expect(await screen.findByText('Must be at most Low battery SOC (20 %)')).toBeTruthy();
    // The low level is checked again when the shutdown level changes.
    expect(await screen.findByText('Must be at least Shutdown SOC (60 %)')).toBeTruthy();
    expect(writes(api)).toEqual([]);

    fireEvent.change(shutdown, { target: { value: '15' } });
    await waitFor(() => expect(screen.queryByText(/Shutdown SOC \(60 %\)/)).toBeNull());
    await afterGuard(screen.getByTestId('settings-submit'));
    fireEvent.click(screen.getByTestId('settings-submit'));
    await waitFor(() => expect(writes(api)).toHaveLength(1));
    expect(writes(api)[0]?.[1]).toMatchObject({ batteryShutdownCap: '15' });
  });

  it('sends other settings of an inverter whose reported levels are out of order', async () => {
    const api = serve(1, withLevels(support.groups[0]?.fields ?? [], ['0', '0', '0']));
    await show();
    fireEvent.change(await screen.findByTestId('field-batteryMaxCurrentCharge'), {
      target: { value: '120' },
    });
    await afterGuard(screen.getByTestId('settings-submit'));
    fireEvent.click(screen.getByTestId('settings-submit'));
    await waitFor(() => expect(writes(api)).toHaveLength(1));
  });

  it('says before any editing that an offline or upgrading inverter takes no settings', async () => {
    for (const [status, banner] of [
      [0, 'settings-offline'],
      [4, 'settings-upgrading'],
    ] as const) {
      serve(status);
      await show();
      expect((await screen.findByTestId(banner)).textContent).toContain(
        status === 0 ? 'This inverter is offline' : 'This inverter is being upgraded',
      );
      await screen.findByTestId('field-batteryMaxCurrentCharge');
      expect(screen.getByTestId('settings-submit').hasAttribute('disabled')).toBe(true);
      cleanup();
    }
    // a normal one: no banner, saving allowed
    const api = serve(1);
    await show();
    await screen.findByTestId('field-batteryMaxCurrentCharge');
    await waitFor(() =>
      expect(api.calls('GET /api/v1/inverter/{sn}').map((c) => c.params)).toContainEqual({
        sn: 'INV1',
      }),
    );
    expect(screen.queryByTestId('settings-offline')).toBeNull();
    expect(screen.getByTestId('settings-submit').hasAttribute('disabled')).toBe(false);
  });

  it('says "no configuration parameters" for a family without settings', async () => {
    const refusal = () => failure(605, 'No configuration parameters');
    serve(1, {
      'GET /api/v1/inverter/setting/{sn}/support': refusal,
      'GET /api/v1/common/setting/{sn}/read': refusal,
    });
    await show();
    const refused = await screen.findByTestId('settings-refused');
    expect(refused.textContent).toContain('No configuration parameters');
  });

  it('shows a micro inverter the settings its map offers, power on/off among them', async () => {
    const micro: Support = {
      support: true,
      sn: 'INV1',
      family: 'micro',
      editable: true,
      groups: [
        {
          key: 'limits',
          fields: [
            {
              key: 'pvMaxLimit',
              group: 'limits',
              unit: 'W',
              default: '800',
              selectable: true,
              type: 'number',
              min: 0,
              max: 800,
              decimals: 0,
            },
          ],
        },
        {
          key: 'power',
          fields: [
            {
              key: 'powerOn',
              group: 'power',
              unit: '',
              default: '1',
              selectable: false,
              type: 'bool',
            },
          ],
        },
      ],
    };
    const api = serve(1, {
      'GET /api/v1/inverter/setting/{sn}/support': () => envelope(micro),
      'GET /api/v1/common/setting/{sn}/read': () =>
        envelope({ sn: 'INV1', pvMaxLimit: '600', powerOn: '1' }),
      'POST /api/v1/common/setting/{sn}/set': () =>
        envelope({ commandId: 5, changed: ['powerOn'] }),
    });
    await show();
    expect((await screen.findByText('Micro inverter')).textContent).toBe('Micro inverter');
    expect(screen.getByTestId('group-limits').textContent).toBe('Limits');
    fireEvent.click(screen.getByTestId('group-power'));
    expect(screen.getByText('Inverter on')).toBeTruthy();
    const on = screen.getByTestId('field-powerOn');
    expect(on.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(on);
    await afterGuard(screen.getByTestId('settings-submit'));
    fireEvent.click(screen.getByTestId('settings-submit'));
    // only the offered keys; the flag as the read writes it
    await waitFor(() =>
      expect(writes(api)).toEqual([['INV1', { sn: 'INV1', pvMaxLimit: '600', powerOn: 'false' }]]),
    );
  });
});

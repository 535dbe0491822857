import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import { ApiError } from '@/shared/http';
import type { Support, Values } from './api';
import SettingsPage from './SettingsPage';
import { afterGuard } from '@/test/guard';

const get = vi.fn();
const post = vi.fn();
vi.mock('@/shared/http', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/http')>()),
  http: {
    get: (...args: unknown[]) => get(...args) as unknown,
    post: (...args: unknown[]) => post(...args) as unknown,
  },
}));

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

function answer(url: string, status = 1): unknown {
  if (url === '/api/v1/inverter/INV1') return { sn: 'INV1', status, updateAt: null };
  if (url.includes('/support')) return support;
  if (url.includes('/read')) return values;
  if (url.endsWith('/params/custom')) return [];
  if (url.endsWith('/inverter/params'))
    return { family: 'hybrid_lv', maxParams: 6, maxProfiles: 6, infos: [] };
  if (url.startsWith('/api/v1/command/'))
    return {
      id: 5,
      kind: 'set_params',
      deviceSn: 'INV1',
      gatewaySn: 'GW1',
      status: 'succeeded',
      resultCode: 0,
      message: 'applied',
      createAt: '2026-11-22T07:00:00.000+00:00',
      updateAt: '2026-11-22T07:00:01Z',
    };
  throw new Error(`unexpected ${url}`);
}

function show() {
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <MemoryRouter initialEntries={['/device/setting?sn=INV1']}>
        <App>
          <SettingsPage />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('SettingsPage', () => {
  beforeEach(() => {
    get.mockReset();
    post.mockReset();
  });

  it('refuses a value out of range on the spot, then sends the whole set and shows it applied', async () => {
    get.mockImplementation((url: string) => Promise.resolve(answer(url)));
    post.mockResolvedValue({ commandId: 5, changed: ['batteryMaxCurrentCharge'] });
    show();
    const input = await screen.findByTestId('field-batteryMaxCurrentCharge');
    fireEvent.change(input, { target: { value: '300' } });
    fireEvent.click(screen.getByTestId('settings-submit'));
    expect(await screen.findByText('Enter a value from 0 to 240')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(input, { target: { value: '120' } });
    await afterGuard(screen.getByTestId('settings-submit'));
    fireEvent.click(screen.getByTestId('settings-submit'));
    await waitFor(() => expect(post).toHaveBeenCalled());
    expect(post).toHaveBeenCalledWith(
      '/api/v1/common/setting/INV1/set',
      { sn: 'INV1', batteryMaxCurrentCharge: '120' },
      expect.anything(),
    );
    await waitFor(() =>
      expect(screen.getByTestId('command-progress').getAttribute('data-status')).toBe('succeeded'),
    );
  });

  it('says before any editing that an offline or upgrading inverter takes no settings', async () => {
    for (const [status, banner] of [
      [0, 'settings-offline'],
      [4, 'settings-upgrading'],
    ] as const) {
      get.mockImplementation((url: string) => Promise.resolve(answer(url, status)));
      show();
      expect((await screen.findByTestId(banner)).textContent).toContain(
        status === 0 ? 'This inverter is offline' : 'This inverter is being upgraded',
      );
      await screen.findByTestId('field-batteryMaxCurrentCharge');
      expect(screen.getByTestId('settings-submit').hasAttribute('disabled')).toBe(true);
      cleanup();
    }
    // a normal one: no banner, saving allowed
    get.mockImplementation((url: string) => Promise.resolve(answer(url, 1)));
    show();
    await screen.findByTestId('field-batteryMaxCurrentCharge');
    await waitFor(() =>
      expect(get).toHaveBeenCalledWith('/api/v1/inverter/INV1', expect.anything()),
    );
    expect(screen.queryByTestId('settings-offline')).toBeNull();
    expect(screen.getByTestId('settings-submit').hasAttribute('disabled')).toBe(false);
  });

  it('says "no configuration parameters" for a family without settings', async () => {
    get.mockRejectedValue(new ApiError(605, 'No configuration parameters'));
    show();
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
    get.mockImplementation((url: string) =>
      Promise.resolve(
        url.includes('/support')
          ? micro
          : url.includes('/read')
            ? { sn: 'INV1', pvMaxLimit: '600', powerOn: '1' }
            : answer(url),
      ),
    );
    post.mockResolvedValue({ commandId: 5, changed: ['powerOn'] });
    show();
    expect((await screen.findByText('Micro inverter')).textContent).toBe('Micro inverter');
    expect(screen.getByTestId('group-limits').textContent).toBe('Limits');
    fireEvent.click(screen.getByTestId('group-power'));
    expect(screen.getByText('Inverter on')).toBeTruthy();
    const on = screen.getByTestId('field-powerOn');
    expect(on.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(on);
    await afterGuard(screen.getByTestId('settings-submit'));
    fireEvent.click(screen.getByTestId('settings-submit'));
    await waitFor(() => expect(post).toHaveBeenCalled());
    // only the offered keys; the flag as the read writes it
    expect(post).toHaveBeenCalledWith(
      '/api/v1/common/setting/INV1/set',
      { sn: 'INV1', pvMaxLimit: '600', powerOn: 'false' },
      expect.anything(),
    );
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readPushDevice, rememberPushDevice } from '@/shared/pwa/device';
import { envelope, fakeHttp, type Routes } from '@/test/http';
import { renderScreen } from '@/test/render';
import type { PushDevice } from './pushApi';
import { base64UrlBytes, guessDeviceName } from './pushBrowser';
import { PushSection } from './PushSection';

// a VAPID public key as the portal sends it: 65 bytes, base64url without padding
const KEY =
  'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';
const ENDPOINT = 'https://push.example.net/send/abc123';

const device = (over: Partial<PushDevice> = {}): PushDevice => ({
  id: 5,
  deviceName: 'Chrome · Android',
  endpointHost: 'push.example.net',
  kinds: ['offline'],
  minSeverity: 'alarm',
  createdAt: '2026-11-29T10:00:00Z',
  lastSuccessAt: null,
  lastError: '',
  ...over,
});

/** The browser's push machinery, faked: a service worker registration with a pushManager. */
function fakeBrowser(permission: NotificationPermission = 'default') {
  let subscription: PushSubscription | null = null;
  const unsubscribe = vi.fn(async () => {
    subscription = null;
    return true;
  });
  const subscribe = vi.fn(async (options: PushSubscriptionOptionsInit) => {
    subscription = {
      endpoint: ENDPOINT,
      options,
      unsubscribe,
      toJSON: () => ({ endpoint: ENDPOINT, keys: { p256dh: 'P256', auth: 'AUTH' } }),
    } as unknown as PushSubscription;
    return subscription;
  });
  const pushManager = { subscribe, getSubscription: async () => subscription };
  const requestPermission = vi.fn(async () => {
    state.permission = granted;
    return granted;
  });
  let granted: NotificationPermission = 'granted';
  const state = { permission, requestPermission };
  Object.defineProperty(window, 'Notification', { configurable: true, value: state });
  Object.defineProperty(window, 'PushManager', { configurable: true, value: class {} });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => ({ pushManager }) },
  });
  return {
    subscribe,
    unsubscribe,
    requestPermission,
    refuse() {
      granted = 'denied';
    },
  };
}

/** The push routes (not in this branch's API document yet: keys cast). */
function pushRoutes(list: PushDevice[]) {
  const routes = {
    'GET /api/v1/user/push/key': () => envelope({ publicKey: KEY }),
    'GET /api/v1/user/pushSubscriptions': () => envelope(list),
    'POST /api/v1/user/pushSubscriptions': (r: { body: Record<string, unknown> }) => {
      const added = device({ id: 9, deviceName: String(r.body.deviceName) });
      list.push(added);
      return envelope(added);
    },
    'POST /api/v1/user/pushSubscriptions/{id}/delete': (r: { params: { id: string } }) => {
      list.splice(
        list.findIndex((d) => d.id === Number(r.params.id)),
        1,
      );
      return envelope(null);
    },
    'POST /api/v1/user/pushSubscriptions/{id}/test': () => envelope(null),
  };
  return routes as unknown as Routes;
}

const calls = (http: ReturnType<typeof fakeHttp>, route: string) =>
  http.calls(route as never) as unknown as { body: Record<string, unknown>; path: string }[];

beforeEach(() => rememberPushDevice(null));
afterEach(() => {
  for (const name of ['Notification', 'PushManager'] as const) {
    Reflect.deleteProperty(window, name);
  }
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('PushSection', () => {
  it('turns this device on: permission, the VAPID key, the subscription sent to the portal', async () => {
    const browser = fakeBrowser();
    const http = fakeHttp(pushRoutes([]));
    await renderScreen(<PushSection />);
    expect(await screen.findByText('No device receives push notifications yet.')).toBeVisible();
    const form = screen.getByTestId('push-form');
    const name = within(form).getByLabelText('Device name');
    fireEvent.change(name, { target: { value: 'My phone' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Turn on for this device' }));

    await screen.findByTestId('push-on');
    expect(browser.requestPermission).toHaveBeenCalled();
    const options = browser.subscribe.mock.calls[0]?.[0];
    expect(options?.userVisibleOnly).toBe(true);
    expect(options?.applicationServerKey).toEqual(base64UrlBytes(KEY));
    expect(calls(http, 'POST /api/v1/user/pushSubscriptions')[0]?.body).toEqual({
      deviceName: 'My phone',
      kinds: [],
      minSeverity: 'warning',
      endpoint: ENDPOINT,
      p256dh: 'P256',
      auth: 'AUTH',
    });
    expect(readPushDevice()).toEqual({ id: 9, endpoint: ENDPOINT });
    const card = await screen.findByTestId('push-device');
    expect(within(card).getByText('This device')).toBeInTheDocument();
    expect(within(card).getByText('Nothing delivered yet')).toBeInTheDocument();
  });

  it('sends a test and removes a device; removing this one ends its subscription', async () => {
    const browser = fakeBrowser('granted');
    await browser.subscribe({});
    const list = [device({ id: 5, deviceName: 'Laptop', lastSuccessAt: '2026-11-30T05:00:00Z' })];
    const http = fakeHttp(pushRoutes(list));
    rememberPushDevice({ id: 5, endpoint: ENDPOINT });
    await renderScreen(<PushSection />);
    const card = await screen.findByTestId('push-device');
    expect(within(card).getByText(/^Last delivered /)).toBeInTheDocument();
    expect(within(card).getByText('Gateway offline')).toBeInTheDocument();
    expect(within(card).getByText('≥ Alarm')).toBeInTheDocument();

    fireEvent.click(within(card).getByRole('button', { name: 'Send a test' }));
    expect(await screen.findByText(/Test sent/)).toBeInTheDocument();
    expect(calls(http, 'POST /api/v1/user/pushSubscriptions/{id}/test')[0]?.path).toBe(
      '/api/v1/user/pushSubscriptions/5/test',
    );

    fireEvent.click(within(card).getByRole('button', { name: 'Remove' }));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByTestId('push-device')).toBeNull());
    expect(calls(http, 'POST /api/v1/user/pushSubscriptions/{id}/delete')).toHaveLength(1);
    expect(readPushDevice()).toBeNull();
    expect(browser.unsubscribe).toHaveBeenCalled();
  });

  it('explains a refused permission and an unsupported browser', async () => {
    const browser = fakeBrowser();
    browser.refuse();
    fakeHttp(pushRoutes([]));
    await renderScreen(<PushSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on for this device' }));
    expect(await screen.findByTestId('push-denied')).toHaveTextContent(/blocked for this site/);
    expect(browser.subscribe).not.toHaveBeenCalled();

    Reflect.deleteProperty(window, 'PushManager');
    Object.defineProperty(navigator, 'userAgent', {
      value: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1',
      configurable: true,
    });
    await renderScreen(<PushSection />);
    const note = await screen.findByTestId('push-unsupported');
    expect(note).toHaveTextContent(/cannot receive push notifications/);
    expect(note).toHaveTextContent(/Add to Home Screen/);
    Reflect.deleteProperty(navigator, 'userAgent');
  });

  it('names a device after its browser and system', () => {
    expect(
      guessDeviceName('Mozilla/5.0 (Linux; Android 14) AppleWebKit Chrome/130 Mobile Safari'),
    ).toBe('Chrome · Android');
    expect(guessDeviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Version/17 Safari')).toBe(
      'Safari · iOS',
    );
    expect(guessDeviceName('Mozilla/5.0 (Windows NT 10.0) Firefox/130')).toBe('Firefox · Windows');
  });
});

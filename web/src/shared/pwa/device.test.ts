import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerServiceWorker } from './device';

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
  document.getElementById('pwa-update')?.remove();
});

describe('the service worker registration', () => {
  it('offers a waiting new version with a Reload button that activates it', async () => {
    const waiting = { postMessage: vi.fn() };
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: {
        controller: {},
        addEventListener: vi.fn(),
        register: vi.fn(async () => ({ waiting, addEventListener: vi.fn(), update: vi.fn() })),
      },
    });
    const texts: Record<string, string> = {
      'pwa.update': 'A new version is available',
      'pwa.reload': 'Reload',
    };
    registerServiceWorker({ signedIn: true, t: (key) => texts[key] ?? key });
    expect(navigator.serviceWorker.register).toHaveBeenCalledWith('/sw.js');
    await waitFor(() => expect(document.getElementById('pwa-update')).not.toBeNull());
    const bar = document.getElementById('pwa-update');
    expect(bar?.textContent).toBe('A new version is availableReload');
    bar?.querySelector('button')?.click();
    expect(waiting.postMessage).toHaveBeenCalledWith({ type: 'skipWaiting' });
  });

  it('offers nothing on the first install (no worker controls the page yet)', async () => {
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: {
        controller: null,
        addEventListener: vi.fn(),
        register: vi.fn(async () => ({
          waiting: { postMessage: vi.fn() },
          addEventListener: vi.fn(),
          update: vi.fn(),
        })),
      },
    });
    registerServiceWorker({ signedIn: true, t: (key) => key });
    await new Promise((r) => setTimeout(r, 10));
    expect(document.getElementById('pwa-update')).toBeNull();
  });
});

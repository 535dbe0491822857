import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/shared/api/client';
import { rememberUser, tokenStore } from '@/shared/session';
import { envelope, fakeHttp, networkError, reply } from '@/test/http';
import { getStaleSince, resetPwaState, setRefetch } from './state';

const AT = '2026-11-30T06:15:00.000Z';
const user = { id: 7, name: 'Ann' } as never;
/** GET /api/v1/user as the service worker answers it offline: its copy, marked stale. */
const staleCopy = (at = AT) => reply(200, envelope(user), { 'x-portal-stale': at });
const banner = () => document.getElementById('pwa-stale');
const call = () => api.get('/api/v1/user');

function signIn() {
  tokenStore.set({ access_token: 'access', refresh_token: 'refresh' });
  rememberUser({ id: 7, companyId: null });
}

afterEach(() => {
  tokenStore.clear();
  resetPwaState();
});

describe('offline copies and the stale banner', () => {
  it('names the signed-in user to the service worker, and nobody when signed out', async () => {
    const http = fakeHttp({ 'GET /api/v1/user': () => envelope(user) });
    await call();
    expect(http.calls('GET /api/v1/user')[0]?.headers.get('X-Portal-User')).toBeUndefined();
    signIn();
    await call();
    expect(http.calls('GET /api/v1/user')[1]?.headers.get('X-Portal-User')).toBe('7');
  });

  it('shows a stale answer as offline data with its time, never as live', async () => {
    signIn();
    fakeHttp({ 'GET /api/v1/user': () => staleCopy() });
    expect(banner()).toBeNull();
    // the copy is still handed to the screen: the banner says what it is
    await expect(call()).resolves.toEqual(user);
    expect(banner()?.getAttribute('role')).toBe('status');
    expect(banner()?.textContent).toBe(`Offline — data from ${new Date(AT).toLocaleString('en')}`);
    // an older copy moves the time back, a newer one does not
    fakeHttp({ 'GET /api/v1/user': () => staleCopy('2026-11-29T00:00:00.000Z') });
    await call();
    fakeHttp({ 'GET /api/v1/user': () => staleCopy('2026-12-01T00:00:00.000Z') });
    await call();
    expect(getStaleSince()).toBe('2026-11-29T00:00:00.000Z');
  });

  it('back online: the banner stays until the screens have refetched, and goes after', async () => {
    signIn();
    let release: () => void = () => undefined;
    const refetch = vi.fn(() => new Promise<void>((r) => (release = r)));
    setRefetch(refetch);
    const http = fakeHttp({ 'GET /api/v1/user': () => staleCopy() });
    await call();
    expect(banner()).not.toBeNull();

    // the network answers again: the screens are refetched, the banner waits for them
    http.on({ 'GET /api/v1/user': () => envelope(user) });
    await call();
    await call();
    expect(refetch).toHaveBeenCalledTimes(1);
    expect(banner()).not.toBeNull();
    release();
    await waitFor(() => expect(banner()).toBeNull());
    expect(getStaleSince()).toBeNull();
  });

  it('keeps the banner when the refetch still got copies (the network came and went)', async () => {
    signIn();
    const http = fakeHttp({ 'GET /api/v1/user': () => staleCopy() });
    setRefetch(() => call());
    await call();
    // one fresh answer, then the refetch gets a copy again
    http.on({ 'GET /api/v1/user': () => envelope(user) });
    const fresh = call();
    http.on({ 'GET /api/v1/user': () => staleCopy() });
    await fresh;
    await new Promise((r) => setTimeout(r, 20));
    expect(banner()).not.toBeNull();
  });

  it('a failed request (no copy) changes nothing', async () => {
    signIn();
    fakeHttp({ 'GET /api/v1/user': () => networkError() });
    await expect(api.get('/api/v1/user', { silent: true })).rejects.toThrow();
    expect(getStaleSince()).toBeNull();
    expect(banner()).toBeNull();
  });
});

import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/shared/api/client';
import { offerUpdate, pwaState, resetPwaState, setRefetch } from '@/shared/pwa/state';
import { rememberUser, tokenStore } from '@/shared/session';
import { envelope, fakeHttp, networkError, reply } from '@/test/http';
import { PwaNotices } from './PwaNotices';

const AT = '2026-11-30T06:15:00.000Z';
const user = { id: 7, name: 'Ann' };
/** GET /api/v1/user as the service worker answers it offline: its copy, marked stale. */
const staleCopy = () => reply(200, envelope(user), { 'x-portal-stale': AT });

function signIn() {
  tokenStore.set({ access_token: 'access', refresh_token: 'refresh' });
  rememberUser({ id: 7, companyId: null });
}

/** A call whose answer may change the banner (its update inside act). */
const call = () => act(() => api.get('/api/v1/user'));

afterEach(() => {
  tokenStore.clear();
  act(() => resetPwaState());
});

describe('offline copies and the stale banner', () => {
  it('names the signed-in user to the service worker, and nobody when signed out', async () => {
    const http = fakeHttp({ 'GET /api/v1/user': () => envelope(user as never) });
    await api.get('/api/v1/user');
    expect(http.calls('GET /api/v1/user')[0]?.headers.get('X-Portal-User')).toBeUndefined();
    signIn();
    await api.get('/api/v1/user');
    expect(http.calls('GET /api/v1/user')[1]?.headers.get('X-Portal-User')).toBe('7');
  });

  it('shows a stale answer as offline data with its time, never as live', async () => {
    signIn();
    fakeHttp({ 'GET /api/v1/user': staleCopy as never });
    render(<PwaNotices />);
    expect(screen.queryByTestId('pwa-stale')).toBeNull();
    // the copy is still handed to the screen: the banner says what it is
    await expect(call()).resolves.toEqual(user);
    const banner = await screen.findByTestId('pwa-stale');
    expect(banner.textContent).toMatch(/^Offline — data from /);
    expect(banner.textContent).toContain(new Date(AT).toLocaleString('en'));
    // an older copy moves the time back
    fakeHttp({
      'GET /api/v1/user': () =>
        reply(200, envelope(user), { 'x-portal-stale': '2026-11-29T00:00:00Z' }),
    });
    await call();
    expect(pwaState.get().staleSince).toBe('2026-11-29T00:00:00Z');
  });

  it('back online: the banner stays until the screens have refetched, and goes after', async () => {
    signIn();
    let release: () => void = () => undefined;
    const refetch = vi.fn(() => new Promise<void>((r) => (release = r)));
    setRefetch(refetch);
    const http = fakeHttp({ 'GET /api/v1/user': staleCopy as never });
    render(<PwaNotices />);
    await call();
    await screen.findByTestId('pwa-stale');

    // the network answers again: the screens are refetched, the banner waits for them
    http.on({ 'GET /api/v1/user': () => envelope(user as never) });
    await call();
    expect(refetch).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('pwa-stale')).toBeInTheDocument();
    await act(async () => release());
    await waitFor(() => expect(screen.queryByTestId('pwa-stale')).toBeNull());
  });

  it('keeps the banner when the refetch still got copies (the network came and went)', async () => {
    signIn();
    const http = fakeHttp({ 'GET /api/v1/user': staleCopy as never });
    setRefetch(() => api.get('/api/v1/user'));
    render(<PwaNotices />);
    await call();
    // one fresh answer, then the refetch gets a copy again
    http.on({ 'GET /api/v1/user': () => envelope(user as never) });
    const fresh = call();
    http.on({ 'GET /api/v1/user': staleCopy as never });
    await fresh;
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(screen.getByTestId('pwa-stale')).toBeInTheDocument();
  });

  it('a failed request (no copy) changes nothing', async () => {
    signIn();
    fakeHttp({ 'GET /api/v1/user': () => networkError() });
    await expect(api.get('/api/v1/user', { silent: true })).rejects.toThrow();
    expect(pwaState.get().staleSince).toBeNull();
  });

  it('offers a waiting new version with a Reload button', async () => {
    const update = vi.fn();
    render(<PwaNotices />);
    act(() => offerUpdate(update));
    const banner = await screen.findByTestId('pwa-update');
    expect(banner.textContent).toContain('A new version is available');
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(update).toHaveBeenCalled();
  });
});

/**
 * The offline banner (docs/pwa.md): when the figures shown are the service worker's copies
 * from an earlier visit, a bar above the app says so with their time, until the screens have
 * been refetched from the network. Plain DOM, no React: the http client feeds it on every
 * answer, and it sits in the first screen's code (npm run size).
 */
import { i18n } from '../i18n';

/** ISO time of the oldest copy shown since the network last answered, or null. */
let staleSince: string | null = null;
let refetch: () => Promise<unknown> = () => Promise.resolve();
/** Back online, the screens refetching: 'running', or 'stale' when a copy came meanwhile. */
let recovery: 'running' | 'stale' | null = null;

export function getStaleSince(): string | null {
  return staleSince;
}

/** The shell's way to reload what the screens show (react-query's invalidate). */
export function setRefetch(fn: () => Promise<unknown>): void {
  refetch = fn;
}

function show(at: string | null): void {
  staleSince = at;
  let bar = document.getElementById('pwa-stale');
  if (!at) return bar?.remove();
  if (!bar) {
    bar = document.createElement('div');
    bar.id = bar.className = 'pwa-stale';
    bar.setAttribute('role', 'status');
    document.body.prepend(bar);
  }
  bar.textContent = i18n.t('pwa.offline', { time: new Date(at).toLocaleString(i18n.language) });
}

/**
 * Every API answer: `staleAt` is its `X-Portal-Stale` time when the service worker answered
 * from its cache, null when the network answered. Back online the banner stays until the
 * screens have refetched: until then they still show the cached figures.
 */
export function answered(staleAt: string | null): void {
  if (staleAt !== null) {
    if (recovery) recovery = 'stale';
    if (!staleSince || staleAt < staleSince) show(staleAt);
  } else if (staleSince && !recovery) {
    recovery = 'running';
    void refetch()
      .catch(() => undefined)
      .then(() => {
        if (recovery === 'running') show(null);
        recovery = null;
      });
  }
}

/** Tests: back to a page that has shown nothing offline (unused by the app, so not built in). */
export function resetPwaState(): void {
  show(null);
  recovery = null;
  refetch = () => Promise.resolve();
}

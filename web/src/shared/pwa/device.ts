/**
 * This browser's side of the installed app (docs/pwa.md): the service worker's registration,
 * its per-user API copies and the push subscription. One chunk, loaded after the first screen
 * (main.tsx), on sign-out (shared/user) and by the push settings.
 */
import { PUSH_DEVICE_KEY } from '../session';

/** The cache names of the service worker's API copies (sw/sw.js): one per user. */
export const API_CACHE_PREFIX = 'portal-api-';

/** Deletes every user's API copies (sign-out, and any page opened signed out). */
export async function clearDataCaches(): Promise<void> {
  if (typeof caches === 'undefined') return;
  for (const name of await caches.keys()) {
    if (name.startsWith(API_CACHE_PREFIX)) await caches.delete(name);
  }
}

/** How often an open page asks whether a new version was deployed (besides each navigation). */
const CHECK_EVERY_MS = 30 * 60_000;

/**
 * What registration needs from the rest of the app, handed over by main.tsx rather than
 * imported: a module this chunk shared with the first screen's would be split into a chunk of
 * its own, loaded before the first screen (npm run size).
 */
export interface RegisterHooks {
  signedIn: boolean;
  /** The app's translation of a key (the update prompt's texts). */
  t(key: string): string;
}

/** "A new version is available — Reload": a bar above the app (styles.css, `.pwa-update`). */
function offerUpdate(t: (key: string) => string, update: () => void): void {
  if (document.getElementById('pwa-update')) return;
  const bar = document.createElement('div');
  bar.id = bar.className = 'pwa-update';
  bar.setAttribute('role', 'status');
  const reload = document.createElement('button');
  reload.type = 'button';
  reload.textContent = t('pwa.reload');
  reload.onclick = update;
  bar.append(t('pwa.update'), reload);
  document.body.prepend(bar);
}

/**
 * Registers the service worker (sw/sw.js, built to /sw.js; docs/pwa.md) and offers a waiting
 * new version through the shell's prompt. Loaded after the first screen, in the built app only.
 * A page opened signed out first deletes any user's API copies and push subscription left
 * behind (a sign-out that could not finish, an expired session: the page reloads to /login).
 */
export function registerServiceWorker(hooks: RegisterHooks): void {
  const sw = navigator.serviceWorker;
  window.addEventListener('beforeinstallprompt', keepInstallPrompt);
  if (!hooks.signedIn) {
    void clearDataCaches();
    void forgetThisDevice();
  }
  let reloading = false;
  sw.addEventListener('controllerchange', () => {
    // only after the user chose "Reload": the first install takes control quietly
    if (reloading) window.location.reload();
  });
  const offer = (worker: ServiceWorker | null) => {
    // a worker waiting while another controls the page is a new version
    if (!worker || !sw.controller) return;
    offerUpdate(hooks.t, () => {
      reloading = true;
      worker.postMessage({ type: 'skipWaiting' });
    });
  };
  sw.register('/sw.js')
    .then((registration) => {
      offer(registration.waiting);
      registration.addEventListener('updatefound', () => {
        const installing = registration.installing;
        installing?.addEventListener('statechange', () => {
          if (installing.state === 'installed') offer(installing);
        });
      });
      window.setInterval(() => void registration.update().catch(() => undefined), CHECK_EVERY_MS);
    })
    .catch(() => undefined);
}

/** This browser's subscription as the portal knows it (docs/pwa.md, "Push"). */
export interface PushDeviceRecord {
  id: number;
  endpoint: string;
}

export function readPushDevice(): PushDeviceRecord | null {
  try {
    const record = JSON.parse(localStorage.getItem(PUSH_DEVICE_KEY) ?? 'null') as unknown;
    const r = record as Partial<PushDeviceRecord> | null;
    return r && typeof r.id === 'number' && typeof r.endpoint === 'string'
      ? { id: r.id, endpoint: r.endpoint }
      : null;
  } catch {
    return null;
  }
}

export function rememberPushDevice(record: PushDeviceRecord | null): void {
  if (record) localStorage.setItem(PUSH_DEVICE_KEY, JSON.stringify(record));
  else localStorage.removeItem(PUSH_DEVICE_KEY);
}

/** The push subscription of this browser, if any (no service worker: none). */
export async function currentPushSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker?.getRegistration();
  return (await registration?.pushManager?.getSubscription()) ?? null;
}

/**
 * Signing out: this browser stops receiving the user's pushes. The browser's subscription is
 * ended in any case (the push service then tells the portal it is gone); `tellPortal`, given
 * while the session still allows it, removes it on the portal at once (POST .../{id}/delete).
 */
export async function forgetThisDevice(
  tellPortal?: (id: number) => Promise<unknown>,
): Promise<void> {
  const record = readPushDevice();
  rememberPushDevice(null);
  try {
    await (await currentPushSubscription())?.unsubscribe();
  } catch {
    // the subscription is gone already
  }
  if (tellPortal && record) await tellPortal(record.id).catch(() => undefined);
}

/** The browser's install offer (Chromium's `beforeinstallprompt`; not in the DOM types). */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let installPrompt: InstallPromptEvent | null = null;

/**
 * Kept from the page's start: the browser offers the install once, usually before anyone opens
 * the download page, which offers it with its own button (the browser's own menu still can).
 */
export function keepInstallPrompt(event: Event | null): void {
  installPrompt = event as InstallPromptEvent | null;
}

export function takeInstallPrompt(): InstallPromptEvent | null {
  return installPrompt;
}

/** Opened as the installed app (or from iOS's home screen). */
export function runsInstalled(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as { standalone?: boolean }).standalone === true
  );
}

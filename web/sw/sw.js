// The portal's service worker (docs/pwa.md). Hand-written, no library: the build (vite.config.ts,
// `serviceWorker()`) copies it to dist/sw.js and fills in BUILD below: a version that changes
// with every build (so browsers see a new worker) and the app shell's files (index.html and the
// files it loads). What it does:
//  - the app shell: navigations go to the network first and fall back to the cached
//    index.html, so the app opens offline; hashed files under /assets/ never change, so they
//    are answered from the cache once seen;
//  - the last answers of the data the first screens show (CACHED_API), per signed-in user,
//    only when the page names the user (X-Portal-User). A cached answer is only ever used when
//    the network fails, and then marked `X-Portal-Stale: <when it was fetched>`: the page shows
//    it as offline data, never as live;
//  - Web Push: shows the notification and opens its screen on a click.
// Nothing else is cached: no sign-in calls, no writes, no other API answers.

const BUILD = /*BUILD*/ { version: 'dev', precache: [] }; /*BUILD*/

const SHELL = `portal-shell-${BUILD.version}`;
/** One cache per user: `portal-api-<user id>`; the page deletes them all on sign-out. */
const API = 'portal-api-';
/** At most this many answers per user (the oldest written go first). */
const API_MAX = 120;

/** The GET answers kept for offline use: what the first screens and a plant's overview show. */
const CACHED_API = [
  /^\/api\/v1\/user$/, // who is signed in: the shell waits for it
  /^\/api\/v1\/permission$/, // the menu
  /^\/api\/v1\/dict\/[\w-]+$/,
  /^\/api\/v1\/fleet\/summary$/, // fleet dashboard
  /^\/api\/v1\/overview\/plantCount$/,
  /^\/api\/v1\/plants(\/map)?$/, // plant list and map
  /^\/api\/v1\/plant\/filter$/,
  /^\/api\/v1\/plant\/\d+(\/(realtime|figures|devices))?$/, // a plant's overview
  /^\/api\/v1\/plant\/energy\/\d+\/[\w/]+$/,
  /^\/api\/v1\/messages$/, // notifications
  /^\/api\/v1\/alarm\/cases$/,
];

/** Paths the server answers itself: a navigation there is never the app shell. */
const SERVER_PATHS = /^\/(api|oauth|anonymous|files|uploads|version|metrics)(\/|$)/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(SHELL).then((cache) =>
      // `reload`: past the browser's HTTP cache, so the shell is this build's
      cache.addAll(BUILD.precache.map((url) => new Request(url, { cache: 'reload' }))),
    ),
  );
  // no skipWaiting here: a new version waits until the page's "Reload" (the update prompt)
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('portal-shell-') && name !== SHELL) await caches.delete(name);
      }
      // the first install takes over the open pages at once (an update waits for the prompt)
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data?.type === 'skipWaiting') void self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/')) {
    const user = request.headers.get('X-Portal-User');
    if (user && /^\d+$/.test(user) && CACHED_API.some((p) => p.test(url.pathname))) {
      event.respondWith(apiAnswer(event, request, user));
    }
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(event, request));
    return;
  }
  if (request.mode === 'navigate') {
    if (!SERVER_PATHS.test(url.pathname)) event.respondWith(appShell(request));
    return;
  }
  // the few unhashed files of the shell (icons, favicons, the manifest) and the server config
  if (BUILD.precache.includes(url.pathname) || url.pathname === '/anonymous/config') {
    event.respondWith(networkFirst(event, request));
  }
});

async function appShell(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = await caches.match('/index.html', { cacheName: SHELL });
    if (shell) return shell;
    throw error;
  }
}

async function cacheFirst(event, request) {
  const cache = await caches.open(SHELL);
  const hit = await cache.match(request);
  if (hit) return hit;
  const answer = await fetch(request);
  if (answer.ok) event.waitUntil(cache.put(request, answer.clone()));
  return answer;
}

async function networkFirst(event, request) {
  const cache = await caches.open(SHELL);
  try {
    const answer = await fetch(request);
    if (answer.ok) event.waitUntil(cache.put(request, answer.clone()));
    return answer;
  } catch (error) {
    const hit = await cache.match(request, { ignoreSearch: true });
    if (hit) return hit;
    throw error;
  }
}

/**
 * The network's answer whenever there is one (and keep it if it is a success); only when the
 * network fails, the last kept answer, marked stale with the time it was fetched.
 */
async function apiAnswer(event, request, user) {
  let answer;
  try {
    answer = await fetch(request);
  } catch (error) {
    const hit = await caches.match(request, { cacheName: API + user, ignoreVary: true });
    if (!hit) throw error;
    const headers = new Headers(hit.headers);
    headers.set('X-Portal-Stale', hit.headers.get('X-Portal-Fetched-At') ?? '');
    return new Response(hit.body, { status: hit.status, headers });
  }
  if (answer.ok) event.waitUntil(keep(request, answer.clone(), user));
  return answer;
}

/** Keeps a successful envelope (code 0) only: an error answer replayed offline would mislead. */
async function keep(request, answer, user) {
  if (!(answer.headers.get('Content-Type') ?? '').includes('json')) return;
  const text = await answer.text();
  try {
    if (JSON.parse(text)?.code !== 0) return;
  } catch {
    return;
  }
  const headers = new Headers(answer.headers);
  headers.set('X-Portal-Fetched-At', new Date().toISOString());
  const cache = await caches.open(API + user);
  await cache.put(request, new Response(text, { status: answer.status, headers }));
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - API_MAX))) await cache.delete(old);
}

// Web Push (docs/pwa.md, "Push"): the payload is `{ title, body, url, tag, kind, severity,
// plant, at }`, sent by the portal for the alarms the user chose for this device.
self.addEventListener('push', (event) => {
  let payload;
  try {
    payload = event.data?.json() ?? {};
  } catch {
    payload = { body: event.data?.text() ?? '' };
  }
  event.waitUntil(notify(payload));
});

async function notify(p) {
  const icon = await themeIcon();
  const at = typeof p.at === 'string' ? Date.parse(p.at) : NaN;
  await self.registration.showNotification(p.title || 'Solar Portal', {
    body: p.body ?? '',
    tag: p.tag || undefined,
    icon,
    badge: icon,
    timestamp: Number.isNaN(at) ? undefined : at,
    data: { url: sameOrigin(p.url) },
  });
}

/** The manifest's icon: the host's (branded or not) as the manifest names it. */
async function themeIcon() {
  try {
    const manifest = await caches.match('/manifest.webmanifest', { cacheName: SHELL });
    const icons = manifest ? (await manifest.json()).icons : null;
    return icons?.[0]?.src ?? '/icons/icon-192.png';
  } catch {
    return '/icons/icon-192.png';
  }
}

/** Only this portal's own screens are opened from a notification. */
function sameOrigin(url) {
  try {
    const target = new URL(url || '/', self.location.origin);
    return target.origin === self.location.origin ? target.href : `${self.location.origin}/`;
  } catch {
    return `${self.location.origin}/`;
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = event.notification.data?.url ?? `${self.location.origin}/`;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      // a window of the portal goes to the screen, then comes to the front (navigate() works
      // on the windows this worker controls); else a new window
      const own = windows.find((w) => w.url === url) ?? windows[0];
      if (own) {
        let at = own;
        try {
          if (own.url !== url) at = (await own.navigate(url)) ?? own;
        } catch {
          // not this worker's window: a new one
          return self.clients.openWindow(url);
        }
        return at.focus().catch(() => undefined);
      }
      return self.clients.openWindow(url);
    })(),
  );
});

// Issue 32: the installable app (docs/pwa.md). The manifest is served and valid with fetchable
// icons; the service worker registers and controls the page; offline, a reload opens the app
// shell with the last data marked stale ("Offline — data from ..."), and the banner goes once
// the network answers again; a push message shows a notification whose click opens its screen;
// signing out leaves no API answer in any cache.
/* global NotificationEvent -- the service worker's, in worker.evaluate */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG');
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return `${view.getUint32(16)}x${view.getUint32(20)}`;
}

/** Every URL kept in the page's caches, by cache name. */
function cached(page) {
  return page.evaluate(async () => {
    const all = {};
    for (const name of await caches.keys()) {
      all[name] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
    }
    return all;
  });
}

describe('installable app (PWA)', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-pwa-', { historyDays: 1 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves a valid manifest with fetchable icons', async () => {
    const res = await fetch(`${server.url}/manifest.webmanifest`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type'), /^application\/manifest\+json/);
    const manifest = await res.json();
    assert.equal(manifest.name, 'Solar Portal');
    assert.equal(manifest.short_name, 'Solar Portal');
    assert.equal(manifest.start_url, '/');
    assert.equal(manifest.display, 'standalone');
    assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/);
    const purposes = manifest.icons.map((i) => `${i.sizes} ${i.purpose}`);
    assert.deepEqual(purposes, ['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of [...manifest.icons, { src: '/apple-touch-icon.png', sizes: '180x180' }]) {
      const file = await fetch(new URL(icon.src, server.url));
      assert.equal(file.status, 200, icon.src);
      assert.equal(file.headers.get('content-type'), 'image/png', icon.src);
      assert.equal(pngSize(new Uint8Array(await file.arrayBuffer())), icon.sizes, icon.src);
    }
  });

  it('opens offline with the last data marked stale, pushes, and forgets it all on sign-out', async () => {
    // the one journey with the service worker (newPage blocks it for the others)
    const { context, page } = await newPage(browser, { serviceWorkers: 'allow' });
    await context.grantPermissions(['notifications'], { origin: server.url });
    await signIn(page, server.url, DEMO);
    assert.equal(
      await page.locator('link[rel="manifest"]').getAttribute('href'),
      '/manifest.webmanifest',
    );

    // the worker registers after the first screen and takes control of the page
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
      timeout: 15_000,
    });
    // the next visit goes through it: its answers are kept for this user
    await page.reload();
    const status = page.getByTestId('fleet-status');
    await status.waitFor({ timeout: 20_000 });
    const online = await status.innerText();
    await page.waitForFunction(
      async () =>
        (await caches.keys()).some((n) => n.startsWith('portal-api-')) &&
        (
          await (
            await caches.open((await caches.keys()).find((n) => n.startsWith('portal-api-')))
          ).keys()
        ).some((r) => new URL(r.url).pathname === '/api/v1/fleet/summary'),
      null,
      { timeout: 10_000 },
    );
    const kept = await cached(page);
    const userCache = Object.keys(kept).find((n) => n.startsWith('portal-api-'));
    assert.ok(kept[userCache].includes('/api/v1/user'), JSON.stringify(kept));
    assert.ok(
      !Object.values(kept)
        .flat()
        .some((p) => p.startsWith('/oauth/')),
      'no sign-in call is kept',
    );
    assert.equal(await page.getByTestId('pwa-stale').count(), 0, 'online: no banner');

    // offline: the shell opens from the cache, with the last figures, marked stale
    await context.setOffline(true);
    await page.reload();
    const stale = page.locator('#pwa-stale');
    await stale.waitFor({ timeout: 15_000 });
    assert.match(await stale.innerText(), /^Offline — data from .+\d/);
    await status.waitFor();
    assert.equal(await status.innerText(), online);

    // back online: the screens refetch from the network and the banner goes
    await context.setOffline(false);
    await stale.waitFor({ state: 'detached', timeout: 15_000 });

    // a push message: the worker shows it, and its click opens the payload's screen
    const cdp = await context.newCDPSession(page);
    const registration = new Promise((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const r = registrations.find((x) => x.scopeURL === `${server.url}/` && !x.isDeleted);
        if (r) resolve(r.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    const payload = {
      title: 'Alarm: Single roof',
      body: 'Inverter fault',
      url: '/notifications',
      tag: 'alarm-1',
      kind: 'fault',
      severity: 'alarm',
      plant: 'Single roof',
      at: new Date().toISOString(),
    };
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: server.url,
      registrationId: await registration,
      data: JSON.stringify(payload),
    });
    // polled with evaluate, which awaits the page's promise: waitForFunction takes the promise
    // an async predicate returns as a truthy answer at once, before the worker has shown it
    let notification = null;
    for (const until = Date.now() + 10_000; !notification && Date.now() < until;) {
      notification = await page.evaluate(async () => {
        const r = await navigator.serviceWorker.ready;
        const [n] = await r.getNotifications({ tag: 'alarm-1' });
        return n ? { title: n.title, body: n.body, icon: n.icon, url: n.data?.url } : null;
      });
      if (!notification) await page.waitForTimeout(100);
    }
    assert.ok(notification, 'the push is shown as a notification within 10 s');
    assert.equal(notification.title, payload.title);
    assert.equal(notification.body, payload.body);
    assert.match(notification.icon, /\/icons\/icon-192\.png$/);
    assert.equal(notification.url, `${server.url}/notifications`);
    // the click (dispatched in the worker: headless chromium has no notification to click)
    const [worker] = context.serviceWorkers();
    await worker.evaluate(async () => {
      const [n] = await self.registration.getNotifications({ tag: 'alarm-1' });
      self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n }));
    });
    await page.waitForURL(`${server.url}/notifications`, { timeout: 10_000 });

    // sign-out: no API answer left in any cache
    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await page.getByTestId('login-submit').waitFor();
    const left = await cached(page);
    const apiLeft = Object.values(left)
      .flat()
      .filter((p) => p.startsWith('/api/'));
    assert.deepEqual(apiLeft, [], JSON.stringify(left));
    assert.ok(!Object.keys(left).some((n) => n.startsWith('portal-api-')));
    await context.close();
  });
});

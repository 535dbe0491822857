// Every route of the app's router, as the demo owner and as the internal administrator, at a
// desktop size (1440x900) and a phone size (390x844), on `portal serve --demo`: no page may
// scroll sideways, show a 404/403 result or throw a page error. The routes are read from
// src/app/router.tsx and src/app/registry.tsx, so a new route fails here until this test knows
// how to fill its parameters. The demo owner, the administrator and the public pages are
// visited at the same time, each size in a page of its own (most of a visit is waiting for the
// page to settle). A page with a problem is screenshotted to a temp dir named in the output;
// every page is when SCREENSHOT_DIR is set.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, launch, newContext, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { USERS, WEB_DIR } from './server.mjs';

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];
const EVERY_SHOT = Boolean(process.env.SCREENSHOT_DIR);
const SHOTS =
  process.env.SCREENSHOT_DIR || mkdtempSync(path.join(os.tmpdir(), 'portal-routes-shots-'));

/** `{ path, permission }` of each object literal in a source file that starts with `path:`. */
function routeEntries(file) {
  const source = readFileSync(path.join(WEB_DIR, 'src', 'app', file), 'utf8');
  const entries = [];
  const re = /\{\s*(?:\/\/[^\n]*\n\s*)*path: '([^']+)',(?:\s*permission: '([^']+)',)?/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    entries.push({ path: m[1], permission: m[2] });
  }
  // every `path:` of the file was understood (a route this parser misses would go unvisited)
  assert.equal(entries.length, source.match(/\bpath: '/g)?.length, `routes of ${file}`);
  return entries;
}

const REGISTRY = routeEntries('registry.tsx');
// the routes outside the main layout (open without sign-in); '*' is the not-found page
const PUBLIC = routeEntries('router.tsx').filter((r) => r.path !== '*');

/** URLs for the routes with parameters (and the pages that read a query), from demo data. */
const FILL = {
  '/plants/overview/:id/:type': (d) => d.plant && `/plants/overview/${d.plant.id}/${d.plant.type}`,
  '/plants/edit/:id': (d) => d.plant && `/plants/edit/${d.plant.id}`,
  '/workdata/info/:id': (d) => d.plant && `/workdata/info/${d.plant.id}`,
  '/device/gateway/:id': (d) => d.gateway && `/device/gateway/${d.gateway}`,
  '/device/inverter/:sn': (d) => d.inverter && `/device/inverter/${enc(d.inverter)}`,
  '/device/battery/:sn': (d) => d.battery && `/device/battery/${enc(d.battery)}`,
  '/device/meter/:sn': (d) => d.meter && `/device/meter/${enc(d.meter)}`,
  '/device/weather/:sn': (d) => d.weather && `/device/weather/${enc(d.weather)}`,
  '/device/combiner/:sn': (d) => d.combiner && `/device/combiner/${enc(d.combiner)}`,
  '/device/setting': (d) => d.inverter && `/device/setting?sn=${enc(d.inverter)}`,
  '/plants/device/setting': (d) => d.inverter && `/plants/device/setting?sn=${enc(d.inverter)}`,
  '/debug': (d) => d.inverter && `/debug?sn=${enc(d.inverter)}&kind=inverter`,
  // a protocol config the portal ships, so every portal has it
  '/management/protocol/:code': () => '/management/protocol/meter-3ph',
};
const enc = encodeURIComponent;

/** The route keys (type 0 nodes) of GET /api/v1/permission. */
function routeKeys(tree) {
  const keys = new Set();
  const walk = (n) => {
    if (n.permission && n.type === 0) keys.add(n.permission);
    for (const c of n.children ?? []) walk(c);
  };
  for (const root of Array.isArray(tree) ? tree : [tree]) walk(root);
  return keys;
}

/** One device of each kind (and a plant) the signed-in user can see, for the detail routes. */
async function demoData(page) {
  const first = async (url) => (await api(page, url)).data?.infos?.[0];
  const plant = await first('/api/v1/plants?page=1&limit=10');
  const gateway = await first('/api/v1/gateways?page=1&limit=10');
  const inverter = await first('/api/v1/inverters?page=1&limit=10');
  const battery = await first('/api/v1/batteries?page=1&limit=10');
  const meter = await first('/api/v1/meters?page=1&limit=10');
  const weather = await first('/api/v1/weatherStations?page=1&limit=10');
  const combiner = await first('/api/v1/combiners?page=1&limit=10');
  return {
    plant,
    gateway: gateway?.id,
    inverter: inverter?.sn,
    battery: battery?.sn,
    meter: meter?.sn,
    weather: weather?.sn,
    combiner: combiner?.sn,
  };
}

/** What a user would trip over on the open page. */
async function problems(page, errors) {
  const s = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement.scrollWidth,
    innerWidth: window.innerWidth,
    result: [...document.querySelectorAll('.ant-result-404, .ant-result-403, .ant-result-error')]
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => el.className),
  }));
  const found = [];
  if (s.scrollWidth > s.innerWidth)
    found.push(`scrolls sideways (${s.scrollWidth} px in ${s.innerWidth})`);
  if (s.result.length) found.push(`shows ${s.result.join(', ')}`);
  found.push(...errors.map((e) => `page error: ${e}`));
  return found;
}

/**
 * The plant list (issue 13: headers wrapped letter by letter, 120 px rows, columns hidden
 * behind a fixed column): every header on one line, rows of a normal height, the table not
 * scrolling inside itself.
 */
async function plantListProblems(page) {
  // on a loaded machine the page can settle (no request in flight) before the table is drawn;
  // the checks are of antd's table, which takes over from the stand-in (DeferredTable)
  await page
    .locator('[data-testid="plant-table"] .ant-table')
    .waitFor({ timeout: 15_000 })
    .catch(() => {});
  const s = await page.evaluate(() => {
    const table = document.querySelector('[data-testid="plant-table"]');
    if (!table) return null;
    // the lines a header's text takes: distinct tops of its text's boxes
    const lines = (el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      return new Set(rects.map((r) => Math.round(r.top))).size;
    };
    const heads = [...table.querySelectorAll('thead th')]
      .filter((th) => th.innerText.trim())
      .map((th) => {
        const title = th.querySelector('.ant-table-column-title') ?? th;
        return { text: th.innerText.trim(), lines: lines(title) };
      });
    const rows = [...table.querySelectorAll('tr.ant-table-row')].map(
      (r) => r.getBoundingClientRect().height,
    );
    const box = table.querySelector('.ant-table-content, .ant-table-body');
    return { heads, rows, inner: box ? box.scrollWidth - box.clientWidth : 0 };
  });
  if (!s) return ['no plant table'];
  const found = [];
  for (const h of s.heads)
    if (h.lines > 1) found.push(`header "${h.text}" wraps (${h.lines} lines)`);
  const tallest = Math.max(...s.rows);
  if (s.rows.length === 0) found.push('no plant rows');
  else if (tallest > 84) found.push(`rows up to ${Math.round(tallest)} px tall`);
  if (s.inner > 0) found.push(`the table scrolls sideways inside itself by ${s.inner} px`);
  return found;
}

/**
 * Counts the page's requests in flight, so that a visit can wait until its data has arrived:
 * after an in-app navigation the page does not load again, so `networkidle` would answer at once.
 */
function trackRequests(page) {
  const inFlight = new Set();
  page.on('request', (r) => inFlight.add(r));
  page.on('requestfinished', (r) => inFlight.delete(r));
  page.on('requestfailed', (r) => inFlight.delete(r));
  return inFlight;
}

/** Waits until no request has been in flight for 300 ms (at most 10 s) and no spinner spins. */
async function settle(page, inFlight) {
  const deadline = Date.now() + 10_000;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (inFlight.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 300) break;
    await page.waitForTimeout(50);
  }
  await page
    .locator('.ant-spin-spinning, .ant-skeleton-active')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => {});
  await page.waitForTimeout(100);
}

/**
 * Opens a URL and waits until its data has arrived and the page has settled: loaded afresh (a
 * bookmark, a link from outside) or, `inApp`, through the router as a link inside the app
 * moves (the page keeps its loaded code and session, which is what most moves in the app are).
 */
async function visit(page, inFlight, url, inApp) {
  if (inApp) {
    const target = new URL(url);
    await page.evaluate((to) => {
      window.history.pushState({}, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, target.pathname + target.search);
  } else {
    await page.goto(url);
  }
  await settle(page, inFlight);
}

/** Screenshots the open page when every page is wanted or when it has a problem. */
async function shoot(page, name, found) {
  if (EVERY_SHOT || found.length > 0)
    await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}

const shotName = (who, size, url) =>
  `${who}-${size}${url.replace(/[?&=]/g, '_').replace(/[^a-zA-Z0-9_]+/g, '-')}.png`;

describe('every route at desktop and phone size', () => {
  let server;
  let browser;
  const visited = new Set();
  const failures = [];

  before(async () => {
    server = await startDemoServer('portal-e2e-routes-', { historyDays: 3 });
    browser = await launch();
    mkdirSync(SHOTS, { recursive: true });
    console.log(`# screenshots: ${SHOTS}`);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  /**
   * Every route `user` may open, at one size: loaded afresh as the administrator (who may open
   * the most routes) at the desktop size, moved to inside the app otherwise (a fresh page load
   * is most of the browser's work here, and both ways of arriving are seen).
   */
  async function visitAsUser(who, user, size) {
    const context = await newContext(browser, { viewport: size.viewport });
    const page = await context.newPage();
    const inFlight = trackRequests(page);
    const inApp = !(who === 'admin' && size.name === 'desktop');
    let errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, server.url, user);
    const keys = routeKeys((await api(page, '/api/v1/permission')).data);
    const data = await demoData(page);
    for (const route of REGISTRY) {
      if (route.permission && !keys.has(route.permission)) continue;
      const fill = FILL[route.path];
      if (route.path.includes(':') && !fill) {
        failures.push(`${route.path}: no URL for its parameters (add it to FILL)`);
        continue;
      }
      const url = fill ? fill(data) : route.path;
      if (!url) continue; // this user sees no such device
      errors = [];
      const started = Date.now();
      await visit(page, inFlight, server.url + url, inApp);
      const found = await problems(page, errors);
      if (route.path === '/plants') found.push(...(await plantListProblems(page)));
      await shoot(page, shotName(who, size.name, url), found);
      for (const p of found) failures.push(`${who} ${size.name} ${url}: ${p}`);
      visited.add(route.path);
      console.log(`# ${who} ${size.name} ${url} ${Date.now() - started} ms`);
    }
    await context.close();
  }

  /** The pages outside the main layout, without signing in, at both sizes. */
  async function visitPublic() {
    for (const size of SIZES) {
      const context = await newContext(browser, { viewport: size.viewport });
      const page = await context.newPage();
      const inFlight = trackRequests(page);
      let errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      for (const route of PUBLIC) {
        errors = [];
        await visit(page, inFlight, server.url + route.path, false);
        const found = (await problems(page, errors)).filter(
          // /403 is the no-access page itself
          (p) => !(route.path === '/403' && p.includes('ant-result-403')),
        );
        await shoot(page, shotName('public', size.name, route.path), found);
        for (const p of found) failures.push(`public ${size.name} ${route.path}: ${p}`);
        visited.add(route.path);
      }
      await context.close();
    }
  }

  it('every route as the demo owner, the administrator and without sign-in', async () => {
    await Promise.all([
      ...SIZES.map((size) => visitAsUser('owner', DEMO, size)),
      ...SIZES.map((size) => visitAsUser('admin', USERS.admin, size)),
      visitPublic(),
    ]);
  });

  it('no menu label is cut off, in English, Chinese or Spanish', async () => {
    for (const lang of ['en', 'zh', 'es']) {
      const context = await newContext(browser, { viewport: SIZES[0].viewport });
      const page = await context.newPage();
      await page.goto(`${server.url}/login`);
      await page.evaluate((l) => localStorage.setItem('portal.lang', l), lang);
      await signIn(page, server.url, USERS.admin);
      const groups = page.locator('[data-testid="side-menu"] .ant-menu-submenu-title');
      for (let i = 0; i < (await groups.count()); i += 1) {
        await groups.nth(i).click(); // one group open at a time (accordion)
        await page.waitForTimeout(400);
        const cut = await page.evaluate(() =>
          [...document.querySelectorAll('[data-testid="side-menu"] .ant-menu-title-content')]
            .filter((el) => el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth)
            .map((el) => el.innerText),
        );
        for (const label of cut) failures.push(`${lang} menu: "${label}" is cut off`);
      }
      await context.close();
    }
  });

  it('visited every route and found nothing to trip over', () => {
    const missed = REGISTRY.map((r) => r.path).filter((p) => !visited.has(p));
    assert.deepEqual(missed, [], 'routes no user of the demo could open');
    assert.deepEqual(failures, []);
  });
});

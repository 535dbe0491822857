// Time to the plant list with data on a throttled phone network (docs/performance.md): against
// `portal serve --demo`, in Chromium with DevTools' "Fast 3G" (562.5 ms latency, 1.44 Mbit/s
// down, 675 kbit/s up) and the CPU slowed 4x, a fresh browser context (empty cache) opens
// /plants signed out, lands on the login page, signs in as the demo owner and waits for the
// plant list's rows. Prints per run: the login page ready (from the navigation), the rows
// visible (from the sign-in click; drawn by the list's stand-in until antd's table is in, whose
// rows are timed too), and both together; then the medians. Given two builds
// (`--dist a --dist b`, e.g. main's and a branch's), it serves each from its own portal and
// alternates their runs, so that a busy machine slows both alike.
//   node scripts/first-screen-bench.mjs [--dist <built web app>]... [--runs 3] [--port 18330]
//     [--trace]   (every request after the sign-in click)
// (needs the portal binary: PORTAL_BIN or target/debug/portal, and a build: npm run build)
import path from 'node:path';
import { launch } from '../e2e/browser.mjs';
import { DEMO, startDemoServer } from '../e2e/demo.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const runs = Number(arg('runs', '3'));
const port = Number(arg('port', '18330'));
const dists = process.argv.flatMap((a, i) => (a === '--dist' ? [process.argv[i + 1]] : []));
if (!dists.length) dists.push(undefined); // web/dist

// Chromium DevTools' "Fast 3G" preset (its throughput figures already include the 0.9 factor)
const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.6 * 1000 * 1000 * 0.9) / 8,
  uploadThroughput: (750 * 1000 * 0.9) / 8,
};
const CPU_SLOWDOWN = 4;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

const servers = [];
for (const [i, dist] of dists.entries())
  servers.push(
    await startDemoServer('portal-bench-', {
      historyDays: 2,
      port: port + 2 * i,
      mqttPort: port + 2 * i + 1,
      webDir: dist && path.resolve(dist),
    }),
  );
const browser = await launch();
const results = dists.map(() => []);
try {
  for (let run = 1; run <= runs; run++)
    for (const [i, server] of servers.entries()) {
      const r = await measure(server.url);
      results[i].push(r);
      console.log(
        `${dists[i] ?? 'dist'} run ${run}: login page ${s(r.login)}, sign-in to rows ${s(r.rows)}` +
          ` (antd's table ${s(r.table)}), together ${s(r.login + r.rows)}` +
          ` (${(r.bytes / 1000).toFixed(0)} kB transferred)`,
      );
    }
} finally {
  await browser.close();
  for (const server of servers) await server.stop();
}
for (const [i, list] of results.entries()) {
  const m = (k) => s(median(list.map((r) => r[k])));
  console.log(
    `${dists[i] ?? 'dist'}: median of ${runs}: login page ${m('login')}, sign-in to rows ${m('rows')}` +
      ` (antd's table ${m('table')}), together ${m('total')}`,
  );
}

async function measure(url) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    let bytes = 0;
    cdp.on('Network.loadingFinished', (e) => (bytes += e.encodedDataLength));
    const started = new Map();
    let click = 0;
    if (process.argv.includes('--trace')) {
      cdp.on('Network.requestWillBeSent', (e) =>
        started.set(e.requestId, { url: e.request.url, at: Date.now() }),
      );
      cdp.on('Network.loadingFinished', (e) => {
        const r = started.get(e.requestId);
        if (r && click)
          console.log(
            `  ${((r.at - click) / 1000).toFixed(2)}-${((Date.now() - click) / 1000).toFixed(2)} s` +
              ` ${(e.encodedDataLength / 1000).toFixed(1)} kB ${new URL(r.url).pathname}`,
          );
      });
    }
    const start = Date.now();
    await page.goto(`${url}/plants`, { waitUntil: 'commit', timeout: 120_000 });
    await page.getByTestId('login-submit').waitFor({ timeout: 120_000 });
    const login = Date.now() - start;
    await page.locator('#account').fill(DEMO.account);
    await page.locator('#password').fill(DEMO.password);
    click = Date.now();
    await page.getByTestId('login-submit').click();
    // the rows as drawn first: by the list's stand-in (shared/ui/DeferredTable.tsx) or antd's
    await page
      .locator('[data-testid="plant-table"] tbody tr[data-row-key]')
      .first()
      .waitFor({ timeout: 120_000 });
    const rows = Date.now() - click;
    await page
      .locator('[data-testid="plant-table"] tr.ant-table-row')
      .first()
      .waitFor({ timeout: 120_000 });
    const table = Date.now() - click;
    return { login, rows, table, total: login + rows, bytes };
  } finally {
    await context.close();
  }
}

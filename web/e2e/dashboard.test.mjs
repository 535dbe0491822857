// The fleet dashboard on the demo server (`portal serve --demo`): the installer, the internal
// administrator and the demo owner (who see every demo plant) land on it at `/`; its tiles
// match the server's summary and open the filtered plant list; the period switch asks again;
// at 1440x900 and at 390x844 nothing scrolls sideways. An owner without plants lands on the
// plant list, and with exactly one plant on its overview. Screenshots of both sizes.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { REPO_DIR, USERS } from './server.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || path.join(REPO_DIR, 'docs', 'screenshots');
/** The demo installer company's administrator (crates/portal/src/demo_company.rs). */
const INSTALLER = { account: 'installer@example.com', password: DEMO.password };
const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

async function sideways(page) {
  return page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
}

/** Signs in and waits for the dashboard at `/`. */
async function dashboard(page, url, user) {
  await signIn(page, url, user);
  await page.getByTestId('fleet-title').waitFor({ timeout: 20_000 });
  assert.equal(new URL(page.url()).pathname, '/');
  await page.getByTestId('fleet-status').waitFor();
}

describe('fleet dashboard', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-dashboard-', { historyDays: 2 });
    browser = await launch();
    mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const size of SIZES) {
    it(`${size.name}: the installer lands on the dashboard; tiles open the filtered list`, async () => {
      const { context, page } = await newPage(browser, { viewport: size.viewport });
      await dashboard(page, server.url, INSTALLER);
      const summary = (await api(page, '/api/v1/fleet/summary')).data;
      assert.ok(summary.plants.total > 1, JSON.stringify(summary.plants));
      const tile = (key) => page.getByTestId(`fleet-tile-${key}`);
      await page.waitForFunction(
        (total) =>
          document.querySelector('[data-testid="fleet-tile-total"]')?.textContent?.includes(total),
        String(summary.plants.total),
      );
      // every section is there, each with its content or its empty state
      for (const id of ['fleet-energy', 'fleet-alarms', 'fleet-silent', 'fleet-ranking']) {
        await page.getByTestId(id).waitFor();
      }
      assert.match(await page.getByTestId('fleet-energy-today').innerText(), /\d.* [kM]?Wh/);
      assert.match(await page.getByTestId('fleet-power').innerText(), /\d.* [kM]?W/);
      // the demo's plants all have a capacity: a ranking, best first
      const yields = await page
        .getByTestId('fleet-best')
        .getByTestId('fleet-yield-value')
        .allInnerTexts();
      assert.ok(yields.length > 0, 'ranked plants');
      const numbers = yields.map(Number);
      assert.deepEqual(
        numbers,
        [...numbers].sort((a, b) => b - a),
        'best first',
      );
      assert.equal(await sideways(page), 0, 'no sideways scroll');
      await page.waitForLoadState('networkidle');
      await page.screenshot({
        path: path.join(SHOTS, `${size.name}-dashboard.png`),
        fullPage: true,
      });

      // the period switch asks the server again
      const week = page.waitForResponse(
        (r) => r.url().includes('/api/v1/fleet/summary?') && r.url().includes('period=7d'),
      );
      await page.getByTestId('fleet-period').getByText('7 days').click();
      await week;
      assert.match(page.url(), /period=7d/);

      // a status tile opens the plant list narrowed to it
      await tile('normal').click();
      await page.waitForURL(/\/plants\?status=1$/);
      await page.getByTestId('plants-title').waitFor();
      assert.equal(await sideways(page), 0);
      await context.close();
    });
  }

  it('the administrator and the demo owner land on it; the menu has its home entry', async () => {
    for (const user of [USERS.admin, DEMO]) {
      const { context, page } = await newPage(browser);
      await dashboard(page, server.url, user);
      const plants = (await api(page, '/api/v1/plants?page=1&limit=1')).data.total;
      assert.ok(plants > 1, `${user.account} sees ${plants} plants`);
      const total = (await api(page, '/api/v1/fleet/summary')).data.plants.total;
      assert.equal(total, plants, 'the dashboard counts the plant list');
      const selected = await page
        .locator('[data-testid="side-menu"] .ant-menu-item-selected')
        .getAttribute('data-menu-key');
      assert.equal(selected, '/');
      await context.close();
    }
  });

  it('an owner without plants lands on the plant list, and with one plant on its overview', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner);
    await page.waitForURL(`${server.url}/plants`);
    await page.getByTestId('plants-title').waitFor();

    const made = await api(page, '/api/v1/plant', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Single roof',
        type: 1,
        totalPower: 4,
        timezone: 'Europe/Madrid',
        currency: 'EUR',
        lon: -3.7,
        lat: 40.4,
      }),
    });
    assert.equal(made.code, 0, JSON.stringify(made));
    await page.goto(`${server.url}/`);
    await page.waitForURL(new RegExp(`/plants/overview/${made.data}/1$`));
    await page.getByTestId('overview-name').filter({ hasText: 'Single roof' }).waitFor();
    await context.close();
  });
});

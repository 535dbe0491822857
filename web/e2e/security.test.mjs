// The Content-Security-Policy in the browser (issue 12): signed in as the demo owner, the fleet
// dashboard, the main screens, the plant map (tiles from PORTAL_MAP_TILE_URL), a plant's
// overview with its charts, and the API docs page run without a single violation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { landing, launch, newPage } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';

describe('the content security policy', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-csp-', { historyDays: 2 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lets the app and the docs page run with no violation, and blocks inline script', async () => {
    const { context, page } = await newPage(browser);
    // Every page load records what the policy refused (init scripts are not subject to it).
    await context.addInitScript(() => {
      window.__csp = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    const violations = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text()))
        violations.push(m.text());
    });
    page.on('pageerror', (e) => violations.push(`page error: ${e.message}`));
    const recorded = () => page.evaluate(() => window.__csp ?? []);
    const step = async (what) => {
      for (const v of await recorded()) violations.push(`${what}: ${v}`);
    };

    const login = await page.goto(`${server.url}/login`);
    assert.match(login.headers()['content-security-policy'], /script-src 'self';/);
    assert.equal(login.headers()['x-frame-options'], 'DENY');
    await page.locator('#account').fill(DEMO.account);
    await page.locator('#password').fill(DEMO.password);
    await page.getByTestId('login-submit').click();
    await landing(page).waitFor({ timeout: 15_000 });
    // The demo owner has several plants: the first screen is the fleet dashboard.
    await page.getByTestId('fleet-title').waitFor();
    await page.waitForTimeout(1500);
    await step('fleet dashboard');

    await page.goto(`${server.url}/plants`);
    await page.getByTestId('plant-table').locator('[data-testid="plant-name"]').first().waitFor();
    await step('plant list');

    // The map: Leaflet asks the tile server for images (they fail offline, but a policy
    // refusal would be reported before any network).
    await page.getByTestId('view-toggle').getByText('Map').click();
    await page.getByTestId('plant-map').waitFor();
    await page.locator('.leaflet-tile').first().waitFor({ state: 'attached' });
    await step('plant map');

    await page.getByTestId('view-toggle').getByText('List').click();
    await page.getByTestId('plant-name').first().click();
    await page.getByTestId('overview-name').waitFor();
    await page.locator('.overview canvas, canvas').first().waitFor({ timeout: 15_000 });
    await step('plant overview');

    for (const route of ['/device/inverter', '/device/event', '/edit']) {
      await page.goto(`${server.url}${route}`);
      await page.getByTestId('side-menu').waitFor();
      await page.waitForTimeout(1500);
      await step(route);
    }

    await page.goto(`${server.url}/api/docs`);
    await page.locator('main h2').first().waitFor();
    await step('API docs');
    assert.deepEqual(violations, []);

    // The detector sees what the policy refuses: an inline script is blocked.
    await page.addScriptTag({ content: 'window.__ran = true' }).catch(() => {});
    assert.equal(await page.evaluate(() => window.__ran ?? false), false);
    assert.ok(
      (await recorded()).some((v) => v.startsWith('script-src')),
      'the inline script was reported',
    );
    await context.close();
  });
});

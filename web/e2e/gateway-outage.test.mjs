// A gateway that stops reporting, at real speed (issue 13): the installer restarts a simulated
// gateway from its page (the check before says it is ready, and nothing has succeeded yet);
// the simulator falls silent as a rebooting gateway does, without a goodbye, so the portal
// learns of it only from the missing reports. The gateway's page then shows it offline with
// its devices, within the documented bound (docs/device-protocol.md: three upload cycles, plus
// the page's own refresh), its plant turns offline too, and the last message time stops; after
// the reboot the gateway signs in again (taking over the session the broker still holds) and
// is shown online and reporting.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';

const GATEWAY = 'SIMGW000001';
/** The demo's upload cycle, in seconds. */
const CYCLE = 5;
/** How often screens of live state read again (LIVE_REFRESH_MS, web/src/shared/api/live.ts). */
const PAGE_REFRESH = 10;
/** How long a restarted simulated gateway is away (crates/sim/src/gateway.rs). */
const REBOOT = 30;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function gatewayRow(page) {
  const r = await api(page, `/api/v1/gateways?page=1&limit=10&sn=${GATEWAY}`);
  return r.code === 0 ? r.data.infos.find((g) => g.sn === GATEWAY) : undefined;
}

/** The gateway once online with every device behind it reporting. */
async function live(page) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const g = await gatewayRow(page);
    if (g?.online) {
      const d = await api(page, `/api/v1/gateway/${g.id}`);
      if (d.data.devices.length > 0 && d.data.devices.every((x) => x.online)) return g;
    }
    if (Date.now() > deadline) throw new Error(`${GATEWAY} not live: ${JSON.stringify(g)}`);
    await sleep(1000);
  }
}

async function plantStatus(page, plantId) {
  const r = await api(page, `/api/v1/plants?page=1&limit=50`);
  return r.data.infos.find((p) => p.id === plantId)?.status;
}

describe('a gateway that stops reporting', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-gateway-outage-', { historyDays: 1 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('is shown offline with its devices within the bound, then back online', async (t) => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin);
    const g = await live(page);
    // Online: any status but Offline (a trip may make it Warning or Fault). The status job
    // runs every half cycle, so the plant may follow its devices a moment later.
    const onlineBy = Date.now() + 60_000;
    while ((await plantStatus(page, g.plantId)) === 0) {
      assert.ok(
        Date.now() < onlineBy,
        `its plant is online with its gateway: ${JSON.stringify(g)}`,
      );
      await sleep(500);
    }

    await page.goto(`${server.url}/device/gateway/${g.id}`);
    const info = page.getByTestId('gateway-info');
    await info.getByText('Online').first().waitFor();
    const devices = page.getByTestId('gateway-devices');
    const deviceCount = await devices.locator('tr.ant-table-row').count();
    assert.ok(deviceCount >= 3, `${deviceCount} devices`);

    // Restart: the check first, which says "ready", not "succeeded" (issue 13 item 18).
    await page.getByTestId('gateway-restart').click();
    await page.getByTestId('restart-check').click();
    const totals = page.getByTestId('restart-check-result-totals');
    await totals.waitFor();
    const checked = await totals.innerText();
    assert.match(checked, /Ready\s*1/);
    assert.doesNotMatch(checked, /Succeeded/);
    await page.getByTestId('restart-confirm').click();
    await page.getByTestId('restart-result').waitFor({ timeout: 20_000 });
    assert.match(await page.locator('.ant-modal').innerText(), /1 restarted, 0 failed/);
    await page.getByTestId('restart-done').click();
    const restarted = Date.now();

    // Offline on the page, devices too, within three upload cycles of the last message plus
    // one refresh of the page.
    await info
      .getByText('Offline')
      .first()
      .waitFor({ timeout: (3 * CYCLE + PAGE_REFRESH + 5) * 1000 });
    const shownOffline = Date.now();
    const silent = await gatewayRow(page);
    assert.equal(silent.online, false);
    const lastMessage = Date.parse(silent.lastMessageAt);
    const sinceLast = (shownOffline - lastMessage) / 1000;
    assert.ok(
      sinceLast <= 3 * CYCLE + PAGE_REFRESH + 1,
      `shown offline ${sinceLast} s after the last message`,
    );
    await page.waitForFunction(
      (n) => {
        const rows = document.querySelectorAll('[data-testid="gateway-devices"] tr.ant-table-row');
        return rows.length === n && [...rows].every((r) => r.innerText.includes('Offline'));
      },
      deviceCount,
      { timeout: (PAGE_REFRESH + 2) * 1000 },
    );
    assert.equal(await plantStatus(page, g.plantId), 0, 'its plant is offline');
    // The last message time stays where the gateway fell silent.
    const shown = page.getByTestId('gateway-last-message');
    assert.equal(Date.parse(await shown.getAttribute('data-at')), lastMessage);

    // Back after its reboot: online, reporting, devices following.
    await info
      .getByText('Online')
      .first()
      .waitFor({ timeout: (REBOOT + 10 + PAGE_REFRESH + 5) * 1000 });
    const back = Date.now();
    await page.waitForFunction(
      (n) => {
        const rows = document.querySelectorAll('[data-testid="gateway-devices"] tr.ant-table-row');
        return rows.length === n && [...rows].every((r) => !r.innerText.includes('Offline'));
      },
      deviceCount,
      { timeout: (2 * CYCLE + PAGE_REFRESH + 5) * 1000 },
    );
    const again = await gatewayRow(page);
    assert.ok(Date.parse(again.lastMessageAt) > lastMessage);
    const deadline = Date.now() + 3 * CYCLE * 1000;
    while ((await plantStatus(page, g.plantId)) === 0) {
      assert.ok(Date.now() < deadline, 'the plant stays offline');
      await sleep(1000);
    }
    t.diagnostic(
      `restart to offline shown ${((shownOffline - restarted) / 1000).toFixed(1)} s ` +
        `(${sinceLast.toFixed(1)} s after the last message; bound ${3 * CYCLE} s + page refresh ` +
        `${PAGE_REFRESH} s); back online shown ${((back - restarted) / 1000).toFixed(1)} s after the restart`,
    );
    await context.close();
  });
});

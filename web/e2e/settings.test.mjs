// Parameter settings and power on/off against the demo simulator: change a time-of-use slot on
// an inverter and see the device apply it, switch it off and on again with a confirmation,
// and find every step in the maintenance (audit) log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';

const HYBRIDS = [2, 21, 22, 93, 94];

/** A demo hybrid inverter shown Normal behind an online gateway. */
async function normalHybrid(page) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = await api(page, '/api/v1/gateways?page=1&limit=100&status=1');
    for (const gw of r.code === 0 ? r.data.infos : []) {
      const d = await api(page, `/api/v1/gateway/${gw.id}`);
      const inv = d.data?.devices.find(
        (x) => x.family === 'inverter' && x.online && x.status === 1 && HYBRIDS.includes(x.type),
      );
      if (inv) return inv.sn;
    }
    if (Date.now() > deadline) throw new Error(`no normal hybrid inverter: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

/** Waits for the command progress to end and answers its final status. */
async function finalStatus(page) {
  const progress = page.getByTestId('command-progress');
  await progress.waitFor();
  await page.waitForFunction(
    () => {
      const el = document.querySelector('[data-testid="command-progress"]');
      const s = el?.getAttribute('data-status');
      return s && s !== 'sent' && s !== 'acknowledged';
    },
    null,
    { timeout: 30_000 },
  );
  return progress.getAttribute('data-status');
}

describe('parameter settings and power', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-settings-', { historyDays: 2 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('changes a time-of-use slot, switches the inverter off and on, and logs each step', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin);
    const sn = await normalHybrid(page);

    // Settings: the time-of-use tab, a bad value refused on the spot, then a valid change.
    await page.goto(`${server.url}/device/setting?sn=${encodeURIComponent(sn)}`);
    await page.getByTestId('settings-title').waitFor({ timeout: 30_000 });
    await page.getByTestId('group-timeOfUse').click();
    const time = page.getByTestId('field-sellTime2');
    await time.fill('25:00');
    await page.getByTestId('settings-submit').click();
    await page.getByText('Enter a time as HH:MM').first().waitFor();
    await time.fill('05:30');
    await page.getByTestId('field-cap2').fill('75');
    await page.getByTestId('field-time2on').click();
    await page.getByTestId('settings-submit').click();
    assert.equal(await finalStatus(page), 'succeeded');
    const read = await api(page, `/api/v1/common/setting/${encodeURIComponent(sn)}/read`);
    assert.equal(read.code, 0);
    assert.equal(read.data.sellTime2, '05:30');
    assert.equal(read.data.cap2, '75');
    for (const v of Object.values(read.data)) assert.equal(typeof v, 'string');

    // Power off, then on, each confirmed in a dialog and followed to the device's answer.
    for (const [button, label] of [
      ['power-off', 'Power off'],
      ['power-on', 'Power on'],
    ]) {
      await page.goto(`${server.url}/device/inverter/${encodeURIComponent(sn)}`);
      await page.getByTestId('inverter-title').waitFor({ timeout: 30_000 });
      await page.getByTestId(button).click();
      const dialog = page.locator('.ant-modal').filter({ hasText: label });
      await dialog.waitFor();
      await page.locator('#power-confirm').click();
      assert.equal(await finalStatus(page), 'succeeded', label);
    }

    // The maintenance log, narrowed to this account (the demo's evening energy-hub dispatch
    // writes rows of its own as "system"), lists the three actions, newest first, all succeeded.
    await page.goto(`${server.url}/log/uphold`);
    await page.getByTestId('audit-title').waitFor();
    const account = page.getByRole('searchbox', { name: 'Account' });
    await account.fill(USERS.admin.account);
    const filtered = page.waitForResponse((r) => /\/audit\?.*user=/.test(r.url()));
    await account.press('Enter');
    await filtered;
    const actions = page.getByTestId('audit-action');
    await actions.first().waitFor();
    // The answer has arrived; give the table the render that shows it.
    await page.waitForFunction(
      () =>
        ![...document.querySelectorAll('[data-testid="audit-action"]')].some((e) =>
          e.textContent?.startsWith('energyhub'),
        ),
    );
    const texts = await actions.allInnerTexts();
    assert.deepEqual(texts.slice(0, 3), ['Power on', 'Power off', 'Parameter settings']);
    const results = await page.getByTestId('audit-result').allInnerTexts();
    assert.deepEqual(results.slice(0, 3), ['Succeeded', 'Succeeded', 'Succeeded']);
    await context.close();
  });

  it('an inverter the user cannot see reads as missing on the settings screen', async () => {
    const { context, page } = await newPage(browser);
    // The plain owner of the demo server has no plant: the demo inverters are not theirs.
    await signIn(page, server.url, USERS.owner, { to: '/device/setting?sn=NOPE-0000' });
    await page.getByTestId('settings-refused').waitFor({ timeout: 30_000 });
    assert.match(await page.getByTestId('settings-refused').innerText(), /does not exist/);
    await context.close();
  });
});

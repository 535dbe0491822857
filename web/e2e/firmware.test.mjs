// The firmware catalogue as an internal administrator uses it: a secondary label for a demo
// inverter's type code (added through the tree when the demo has none), a real-size firmware file
// (300 KB .bin made here) uploaded through the screen, enabled with a notice to the owners, then
// offered by the inverter list's upgrade dialog for that inverter, where the upgrade starts and
// shows its progress. Gateway software has its own screen; an owner has no firmware menu.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, choose, launch, menuKeys, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';

/** An inverter reporting through an online gateway (not upgrading), waiting for the demo. */
async function liveInverter(page) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const gws = await api(page, '/api/v1/gateways?page=1&limit=100&status=1');
    const online = new Set(gws.code === 0 ? gws.data.infos.map((g) => g.sn) : []);
    const r = await api(page, '/api/v1/inverters?page=1&limit=100&status=-1');
    const live =
      r.code === 0
        ? r.data.infos.filter(
            // the simulator's gateways flash firmware; the demo's gateway agent does not
            (i) =>
              i.status !== 0 && i.status !== 4 && online.has(i.gsn) && i.gsn.startsWith('SIMGW'),
          )
        : [];
    if (live.length > 0) return live[0];
    if (Date.now() > deadline) throw new Error(`no live inverter: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

/** The secondary label holding an inverter type code, or null. */
async function labelOf(page, code) {
  const tree = await api(page, '/api/v1/firmware/inverterTypes');
  assert.equal(tree.code, 0, JSON.stringify(tree));
  for (const primary of tree.data)
    for (const label of primary.children) if (label.codes.includes(code)) return label;
  return null;
}

describe('firmware catalogue', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-firmware-', { historyDays: 2 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('uploads, enables and upgrades an inverter with new firmware through the screens', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin);
    const inverter = await liveInverter(page);

    // /firmware opens the inverter firmware beside the type tree
    await page.goto(`${server.url}/firmware`);
    await page.waitForURL(/\/firmware\/inv/);
    await page.getByTestId('firmware-title').waitFor();
    await page.getByTestId('type-tree').locator('[data-testid="type-node"]').first().waitFor();

    let label = await labelOf(page, inverter.type);
    if (!label) {
      // no label for this type code yet: add one under the first primary title
      const primary = page.locator('[data-testid="type-node"]').first();
      await primary.getByTestId('row-actions-menu').click();
      await page.getByTestId('action-type-add-label').click();
      await page.getByTestId('type-name').fill(`E2E type ${inverter.type}`);
      await page.getByTestId('type-codes').click();
      await page.keyboard.type(String(inverter.type));
      await page.keyboard.press('Enter');
      await page.getByTestId('type-name').click();
      await page.getByTestId('type-save').click();
      await page
        .locator(`[data-testid="type-node"][data-name="E2E type ${inverter.type}"]`)
        .waitFor();
      label = await labelOf(page, inverter.type);
      assert.ok(label, 'the new label holds the code');
    }

    // a version above the label's latest one
    const versions = await api(
      page,
      `/api/v1/firmware/versions?typeId=${label.id}&target=inverter`,
    );
    assert.equal(versions.code, 0, JSON.stringify(versions));
    const latest = versions.data.infos
      .map((v) => v.version)
      .sort()
      .pop();
    const version = latest ? `${latest}_9` : 'E2E_1_0';
    const fileName = `e2e_inv_${inverter.type}.bin`;
    const bytes = Buffer.alloc(300 * 1024);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 31 + 7) & 0xff;

    await page.getByTestId('firmware-upload').click();
    await page
      .getByTestId('firmware-file')
      .locator('input[type="file"]')
      .setInputFiles({ name: fileName, mimeType: 'application/octet-stream', buffer: bytes });
    await page.getByTestId('firmware-file-name').filter({ hasText: fileName }).waitFor();
    await page.getByTestId('firmware-name').fill(`E2E firmware ${inverter.type}`);
    await page.getByTestId('firmware-version').fill(version);
    await choose(page, page.getByTestId('firmware-label'), label.name);
    await page.getByTestId('firmware-save').click();
    await page.getByTestId('firmware-form').waitFor({ state: 'detached', timeout: 15_000 });

    // the new row, found by its version, is not enabled yet
    await page.getByTestId('firmware-search').locator('input').fill(version);
    await page.getByTestId('firmware-search').locator('input').press('Enter');
    const row = page.locator('[data-testid="firmware-table"] tr', { hasText: version });
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(fileName.replace(/\./g, '\\.')));
    const toggle = row.getByTestId('firmware-enabled-switch');
    assert.equal(await toggle.getAttribute('data-enabled'), 'false');
    await toggle.click();
    await page.getByTestId('firmware-notify').click();
    await page.getByTestId('firmware-toggle-ok').click();
    await page
      .locator('[data-testid="firmware-table"] tr', { hasText: version })
      .locator('[data-testid="firmware-enabled-switch"][data-enabled="true"]')
      .waitFor();
    // the server agrees: the file kept its size, and the firmware is offered for the inverter
    const offered = await api(page, `/api/v1/firmware?sn=${inverter.sn}`);
    const mine = offered.data.infos.find((f) => f.version === version);
    assert.ok(mine, JSON.stringify(offered));
    assert.equal(mine.size, bytes.length);

    // the inverter list's upgrade dialog offers it, and the upgrade starts
    await page.goto(`${server.url}/device/inverter`);
    await page.getByTestId('inverters-title').waitFor();
    await page.locator('.ant-pagination-options .ant-select').first().click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: '50' })
      .first()
      .click();
    const table = page.getByTestId('inverter-table');
    await table.locator('tr', { hasText: inverter.sn }).locator('input[type="checkbox"]').check();
    await page.getByTestId('upgrade-batch').click();
    await page.getByTestId('upgrade-sns').fill(inverter.sn);
    await choose(page, page.getByTestId('upgrade-firmware'), version);
    await page.getByTestId('upgrade-start').click();
    await page.getByTestId('upgrade-progress').waitFor();
    await page
      .getByTestId('upgrade-state')
      .filter({ hasText: /Sending file|Upgrading|Successful/ })
      .first()
      .waitFor({ timeout: 30_000 });
    const progress = await api(page, `/api/v1/inverter/${inverter.sn}/upgrade/progress`);
    assert.equal(progress.data.version, version, JSON.stringify(progress));
    await page.getByTestId('upgrade-close').click();
    await context.close();
  });

  it('lists gateway software on its own screen', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin, { to: '/firmware/gate' });
    await page.getByTestId('firmware-title').waitFor();
    assert.equal(await page.getByTestId('type-tree').count(), 0);
    await page.getByTestId('firmware-row-name').first().waitFor();
    assert.ok(await page.getByTestId('firmware-upload').isVisible());
    await context.close();
  });

  it('shows the owner the notice of the enabled firmware, and no firmware menu', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const keys = await menuKeys(page);
    assert.ok(!keys.some((k) => k.startsWith('/firmware')), keys.join(','));
    // the first journey enabled firmware for one of the demo owner's inverters with a notice
    await page.getByTestId('message-bell').click();
    const notice = page.locator('[data-testid="message-item"][data-source="notice"]').first();
    await notice.waitFor();
    assert.match(await notice.innerText(), /Notice/);
    assert.equal(await notice.getAttribute('data-unread'), 'true');
    await notice.click();
    await page
      .locator('[data-testid="message-item"][data-source="notice"][data-unread="false"]')
      .first()
      .waitFor();
    await context.close();
  });
});

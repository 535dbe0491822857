// Firmware upgrades against the demo simulator: the administrator uploads firmware through the
// API, batch-upgrades several inverters selected in the inverter list (one of the firmware's type, two
// of other types that are refused with their reason) and watches the live progress to the end
// (the simulated upgrade takes 10-20 s and fails one time in ten); the audit log records the
// start and the refusals. An owner without the upgrade key sees no upgrade button.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, choose, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';

/** Inverters reporting through an online gateway (not upgrading), waiting for the demo. */
async function liveInverters(page) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    // the demo's live gateways connect once its history is written
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
    const types = new Set(live.map((i) => i.type));
    if (types.size >= 3) return live;
    if (Date.now() > deadline) throw new Error(`no live inverters: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

/** Uploads a small firmware file for an inverter type as the signed-in user. */
function uploadFirmware(page, type, version) {
  return page.evaluate(
    async ({ type, version }) => {
      const { access_token } = JSON.parse(localStorage.getItem('portal.auth'));
      const form = new FormData();
      form.append('version', version);
      form.append('type', String(type));
      // Names are unique in the catalogue: the duplicate-version check below must not meet 4000.
      form.append('name', `e2e ${version} ${Date.now()}`);
      form.append('changeLog', 'e2e');
      form.append('file', new Blob([new Uint8Array([1, 2, 3, 4])]), `e2e_${version}.bin`);
      const res = await fetch('/api/v1/firmware/save', {
        method: 'POST',
        headers: { Authorization: `Bearer ${access_token}` },
        body: form,
      });
      return res.json();
    },
    { type, version },
  );
}

describe('firmware upgrades', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-upgrades-', { historyDays: 1, upgradeSecs: 6 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('batch-upgrades inverters from the list and follows the progress to the end', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin);
    const live = await liveInverters(page);
    const target = live[0];
    const others = live.filter((i) => i.type !== target.type).slice(0, 2);
    assert.equal(others.length, 2);

    const saved = await uploadFirmware(page, target.type, 'V9_2_0');
    assert.equal(saved.code, 0, JSON.stringify(saved));
    assert.equal(saved.data.version, 'V9_2_0');
    // the spec's rules: the same version again is refused with 4002
    const again = await uploadFirmware(page, target.type, 'v9_2_0');
    assert.equal(again.code, 4002);

    await page.goto(`${server.url}/device/inverter`);
    await page.getByTestId('inverters-title').waitFor();
    // select the rows, then the batch upgrade starts from them
    const table = page.getByTestId('inverter-table');
    // The demo has more inverters than one page of 10 (the commercial roof alone has ten).
    await page.locator('.ant-pagination-options .ant-select').first().click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: '50' })
      .first()
      .click();
    await table.locator('tr', { hasText: others[1].sn }).waitFor();
    for (const inv of [target, ...others]) {
      await table.locator('tr', { hasText: inv.sn }).locator('input[type="checkbox"]').check();
    }
    await page.getByTestId('upgrade-batch').click();
    const sns = page.getByTestId('upgrade-sns');
    const typed = (await sns.inputValue()).split('\n').sort();
    assert.deepEqual(typed, [target.sn, ...others.map((o) => o.sn)].sort());
    // the firmware offered follows the first SN's type: put the target first
    await sns.fill([target.sn, ...others.map((o) => o.sn)].join('\n'));
    await choose(page, page.getByTestId('upgrade-firmware'), 'V9_2_0');
    await page.getByTestId('upgrade-start').click();

    const progress = page.getByTestId('upgrade-progress');
    await progress.waitFor();
    // the refused ones say why at once; the started one shows its live state
    await progress.getByText('Parameter validation error').first().waitFor();
    await page
      .getByTestId('upgrade-state')
      .filter({ hasText: /Sending file|Upgrading|Successful|Failed/ })
      .first()
      .waitFor();
    await page.locator('[data-testid="upgrade-totals"][data-done="yes"]').waitFor({
      timeout: 90_000,
    });
    const text = await page.locator('.ant-modal').innerText();
    assert.match(text, /Total\s*3/);
    const state = await page.getByTestId('upgrade-state').first().innerText();
    assert.match(state, /Successful|Failed/);
    if (state.includes('Successful')) {
      assert.match(text, /Succeeded\s*1/);
      assert.match(text, /Failed\s*2/);
    } else {
      assert.match(text, /Failed\s*3/);
    }
    await page.getByTestId('upgrade-close').click();

    // the server agrees: the upgrade ended, the inverter left Upgrading, the audit log has it all
    const p = await api(page, `/api/v1/inverter/${target.sn}/upgrade/progress`);
    assert.ok(['successful', 'failed'].includes(p.data.state), JSON.stringify(p));
    assert.equal(p.data.version, 'V9_2_0');
    const audit = await api(page, '/api/v1/audit?action=inverter.upgrade&limit=50');
    const results = audit.data.infos.map((a) => `${a.target}:${a.result}`).sort();
    assert.deepEqual(
      results,
      [`${target.sn}:sent`, ...others.map((o) => `${o.sn}:refused`)].sort(),
    );
    await context.close();
  });

  it('shows no upgrade button to an owner without the permission', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO, { to: '/device/inverter' });
    await page.getByTestId('inverters-title').waitFor();
    assert.equal(await page.getByTestId('upgrade-batch').count(), 0);
    await context.close();
  });
});

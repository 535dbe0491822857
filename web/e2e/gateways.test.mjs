// Gateways against the demo server: the list with its counts, signal bars and SN filter, one
// gateway's detail with the devices behind it (links to their screens), the xlsx download for
// those who may export (an owner sees no button), and another owner seeing none of them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';

/** Polls the API until every demo gateway has reported once (last online set). */
async function waitForGateways(page) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = await api(page, '/api/v1/gateways?page=1&limit=100&status=-1');
    if (r.code === 0 && r.data.total > 0 && r.data.infos.every((g) => g.lldt)) return r.data;
    if (Date.now() > deadline) throw new Error(`no gateway data: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

const selectedMenu = (page) =>
  page.locator('[data-testid="side-menu"] .ant-menu-item-selected').getAttribute('data-menu-key');

describe('gateways', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-gateways-', { historyDays: 2 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the demo gateways with counts and signal, and opens one with its devices', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const list = await waitForGateways(page);

    // /device opens the gateway list (the first screen of the group)
    await page.goto(`${server.url}/device`);
    await page.waitForURL(/\/device\/gateway$/);
    await page.getByTestId('gateways-title').waitFor();
    assert.equal(await selectedMenu(page), '/device/gateway');
    await page
      .getByTestId('gateway-status')
      .getByText(new RegExp(`All ${list.total}$`))
      .waitFor();
    const rows = page.locator('[data-testid="gateway-table"] tr.ant-table-row');
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('[data-testid="gateway-table"] tr.ant-table-row').length === n,
      Math.min(list.total, 10),
    );
    assert.equal(await rows.count(), Math.min(list.total, 10));
    // the simulator reports its RSSI (-61 dBm): four bars on its rows (the demo's gateway
    // agent is on a LAN and reports none)
    const first = list.infos.find((g) => g.sn.startsWith('SIMGW'));
    assert.equal(first?.signal, -61, 'the simulated signal');
    const firstRow = page.locator('tr.ant-table-row', { hasText: first.sn });
    await firstRow.getByTestId('signal-bars').waitFor();
    assert.equal(await firstRow.getByTestId('signal-bars').getAttribute('data-bars'), '4');
    // an owner has no export permission: no download button
    assert.equal(await page.getByTestId('gateways-download').count(), 0);

    // the SN filter narrows to one gateway
    const target = list.infos.find((g) => g.sn === 'SIMGW000001') ?? list.infos[0];
    await page.getByTestId('gateway-search').locator('input').fill(target.sn.toLowerCase());
    await page.getByTestId('gateway-search').locator('input').press('Enter');
    await page.waitForFunction((sn) => {
      const cells = [...document.querySelectorAll('[data-testid="gateway-sn"]')];
      return cells.length === 1 && cells[0].textContent === sn;
    }, target.sn);
    await page.locator('tr.ant-table-row').getByText('Demo owner').first().waitFor();

    // the detail: versions and state, the devices behind it linking to their screens
    await page.getByTestId('gateway-sn').click();
    await page.waitForURL(new RegExp(`/device/gateway/${target.id}$`));
    await page.getByTestId('gateway-title').filter({ hasText: target.sn }).waitFor();
    assert.equal(await selectedMenu(page), '/device/gateway');
    const detail = await api(page, `/api/v1/gateway/${target.id}`);
    assert.equal(detail.code, 0);
    const deviceRows = page.locator('[data-testid="gateway-devices"] tr.ant-table-row');
    await deviceRows.first().waitFor();
    assert.equal(await deviceRows.count(), detail.data.devices.length);
    const inverter = detail.data.devices.find((d) => d.family === 'inverter');
    assert.ok(inverter, 'the demo gateway has an inverter');
    assert.equal(
      await page.getByTestId('device-link').filter({ hasText: inverter.sn }).getAttribute('href'),
      `/device/inverter/${inverter.sn}`,
    );
    await page.getByTestId('gateway-info').getByText(detail.data.softVer).first().waitFor();
    await page.getByTestId('gateway-back').click();
    await page.getByTestId('gateways-title').waitFor();

    // a gateway the user cannot see answers like a missing one
    await page.goto(`${server.url}/device/gateway/999999`);
    await page.getByText('This gateway does not exist or is not yours').waitFor();
    await context.close();
  });

  it('shows the key only to those who may edit the gateway, and rotates it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const list = await waitForGateways(page);
    assert.ok(
      list.infos.every((g) => g.key === null),
      'a list never carries a key',
    );
    const target = list.infos.find((g) => g.sn === 'SIMGW000003') ?? list.infos[0];
    const before = await api(page, `/api/v1/gateway/${target.id}`);
    const oldKey = before.data.key;
    assert.ok(oldKey, 'the owner may edit the gateway');

    await page.goto(`${server.url}/device/gateway/${target.id}`);
    const value = page.getByTestId('gateway-key-value');
    await value.waitFor();
    assert.ok(!(await value.innerText()).includes(oldKey), 'hidden until asked');
    await page.getByTestId('gateway-key-toggle').click();
    await value.filter({ hasText: oldKey }).waitFor();

    const rotatedAt = Date.now();
    await page.getByTestId('gateway-key-rotate').click();
    await page.locator('#gateway-key-rotate-ok').click();
    await page.getByText('The gateway has taken its new key').waitFor({ timeout: 20_000 });
    const after = await api(page, `/api/v1/gateway/${target.id}`);
    assert.equal(after.data.key.length, 16);
    assert.notEqual(after.data.key, oldKey);
    await value.filter({ hasText: after.data.key }).waitFor();

    // the simulated gateway signs in again with its new key and keeps reporting
    const deadline = Date.now() + 30_000;
    for (;;) {
      const g = await api(page, `/api/v1/gateway/${target.id}`);
      const seen = g.data.devices.map((d) => Date.parse(d.lastSeen ?? 0));
      if (g.data.status === 1 && seen.some((t) => t > rotatedAt)) break;
      assert.ok(Date.now() < deadline, `the gateway did not report after rotation: ${g.data}`);
      await new Promise((res) => setTimeout(res, 1000));
    }
    await context.close();

    // another owner learns nothing: the gateway answers like a missing one
    const other = await newPage(browser);
    await signIn(other.page, server.url, USERS.owner);
    const r = await api(other.page, `/api/v1/gateway/${target.id}`);
    assert.equal(r.code, 305);
    await other.context.close();
  });

  it('lets the administrator download the list and shows another owner nothing', async () => {
    const admin = await newPage(browser);
    await signIn(admin.page, server.url, USERS.admin, { to: '/device/gateway' });
    await admin.page.getByTestId('gateways-title').waitFor();
    const [download] = await Promise.all([
      admin.page.waitForEvent('download'),
      admin.page.getByTestId('gateways-download').click(),
    ]);
    assert.equal(download.suggestedFilename(), 'gateways.xlsx');
    const file = readFileSync(await download.path());
    assert.equal(file.subarray(0, 2).toString(), 'PK', 'an xlsx (zip) file');
    await admin.context.close();

    const other = await newPage(browser);
    await signIn(other.page, server.url, USERS.owner, { to: '/device/gateway' });
    await other.page.getByTestId('gateways-title').waitFor();
    await other.page.getByText('No gateways yet').waitFor();
    const r = await api(other.page, '/api/v1/gateways');
    assert.equal(r.data.total, 0);
    await other.context.close();
  });
});

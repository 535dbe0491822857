// System gateways (management/gateway) against the demo server: the internal administrator
// registers a gateway through the dialog, imports a sheet of five rows with one bad row (the
// dry run and the import both show every row: 4 created, 1 invalid with its reason), deletes
// the registered one; the demo owner then binds one of the imported gateways to a demo plant on
// the plant's edit screen, and the administrator sees it on that plant (delete refused).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';
import { xlsx } from './xlsx.mjs';

const REGISTERED = { sn: 'GW-E2E-REG-001', key: 'reg-key-001' };
const IMPORTED = [1, 2, 3, 4].map((i) => ({ sn: `GW-E2E-IMP-00${i}`, key: `imp-key-00${i}` }));
const BAD_ROW = ['GW-E2E-IMP-BAD', 'k1']; // a key of two characters: refused

async function search(page, keyword) {
  const input = page.getByTestId('sys-gateway-search').locator('input');
  await input.fill(keyword);
  await input.press('Enter');
}

const rowOf = (page, sn) =>
  page.locator('[data-testid="sys-gateway-table"] tr.ant-table-row').filter({ hasText: sn });

describe('system gateways', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-sysgw-', { historyDays: 2 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('registers, imports a sheet with a bad row, and the owner binds an imported gateway', async () => {
    const admin = await newPage(browser);
    const page = admin.page;
    await signIn(page, server.url, USERS.admin);

    // ---- /management opens the system gateways
    await page.goto(`${server.url}/management`);
    await page.waitForURL(/\/management\/gateway$/);
    await page.getByTestId('sys-gateways-title').waitFor();
    await page.getByTestId('sys-gateway-table').waitFor();

    // ---- register one gateway: a bad SN is refused in the form first
    await page.getByTestId('sys-gateway-register').click();
    const register = page.locator('.ant-modal').filter({ has: page.getByTestId('register-form') });
    await register.locator('#sn').fill('GW_BAD');
    await register.locator('#key').fill(REGISTERED.key);
    await page.getByTestId('register-ok').click();
    await register
      .locator('.ant-form-item-explain-error')
      .getByText('Letters, digits and -, 6 to 32 characters')
      .waitFor();
    await register.locator('#sn').fill(REGISTERED.sn);
    await register.locator('#model').fill('GW-200');
    await register.locator('#commType').fill('wifi');
    await register.locator('#commType').press('Escape');
    await page.getByTestId('register-ok').click();
    await page.getByText('The gateway was registered').waitFor();
    await search(page, REGISTERED.sn);
    await rowOf(page, REGISTERED.sn).waitFor();
    await rowOf(page, REGISTERED.sn).getByText('In stock').waitFor();
    await rowOf(page, REGISTERED.sn).getByText('GW-200').waitFor();

    // ---- import a sheet of five rows, one of them bad
    const sheet = xlsx([
      ['SN', 'Key', 'Model', 'Communication type', 'Protocol'],
      ...IMPORTED.slice(0, 2).map((g) => [g.sn, g.key, 'GW-300', '4g', '']),
      BAD_ROW,
      ...IMPORTED.slice(2).map((g) => [g.sn, g.key, 'GW-300', 'ethernet', '']),
    ]);
    await page.getByTestId('sys-gateway-import').click();
    const dialog = page.getByTestId('import-dialog');
    await dialog.waitFor();
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'gateways.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: sheet,
    });
    await dialog.getByTestId('import-file').getByText('gateways.xlsx').waitFor();
    await page.getByTestId('import-check').click();
    await dialog.getByTestId('import-preview').waitFor();
    assert.equal(await dialog.getByTestId('count-created').innerText(), 'Created: 4');
    assert.equal(await dialog.getByTestId('count-duplicate').innerText(), 'Duplicate: 0');
    assert.equal(await dialog.getByTestId('count-invalid').innerText(), 'Invalid: 1');
    const bad = dialog.locator('tr.ant-table-row').filter({ hasText: BAD_ROW[0] });
    assert.equal(await bad.getByTestId('row-result').getAttribute('data-result'), 'invalid');
    assert.match(await bad.getByTestId('row-reason').innerText(), /key/i);
    // nothing is written by the check
    const before = await api(page, '/api/v1/gateways?page=1&limit=10&keyword=GW-E2E-IMP');
    assert.equal(before.data.total, 0, JSON.stringify(before));

    await page.getByTestId('import-run').click();
    await dialog.getByTestId('import-result').waitFor();
    assert.equal(await dialog.getByTestId('count-created').innerText(), 'Created: 4');
    assert.equal(await dialog.getByTestId('count-invalid').innerText(), 'Invalid: 1');
    const results = await dialog
      .locator('[data-testid="result-table"] [data-testid="row-result"]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-result')));
    assert.deepEqual(results, ['created', 'created', 'invalid', 'created', 'created']);
    // rows are numbered as in the sheet: the header is row 1
    const table = dialog.getByTestId('result-table');
    const numbers = await table.locator('tr.ant-table-row td:first-child').allInnerTexts();
    assert.deepEqual(numbers, ['2', '3', '4', '5', '6']);
    const sns = await table.getByTestId('row-sn').allInnerTexts();
    assert.deepEqual(sns, [
      IMPORTED[0].sn,
      IMPORTED[1].sn,
      BAD_ROW[0],
      IMPORTED[2].sn,
      IMPORTED[3].sn,
    ]);
    const done = table.locator('tr.ant-table-row').filter({ hasText: BAD_ROW[0] });
    assert.match(await done.getByTestId('row-reason').innerText(), /key/i);
    await page.getByTestId('import-close').click();

    await search(page, 'GW-E2E-IMP');
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid="sys-gateway-table"] tr.ant-table-row').length ===
        4,
    );

    // ---- the registered gateway can be deleted (it is on no plant)
    await search(page, REGISTERED.sn);
    await rowOf(page, REGISTERED.sn).getByTestId('action-delete').click();
    await page.locator('.ant-modal-confirm-title').getByText(REGISTERED.sn).waitFor();
    await page.getByTestId('delete-ok').click();
    // the list is the lasting proof; the toast is brief and can pass unseen on a busy machine
    await page.getByText('No gateway matches these filters').waitFor();
    const gone = await api(page, `/api/v1/gateways?page=1&limit=10&keyword=${REGISTERED.sn}`);
    assert.equal(gone.data.total, 0, JSON.stringify(gone));

    // ---- the demo owner binds an imported gateway to one of their plants
    const target = IMPORTED[0];
    const owner = await newPage(browser);
    await signIn(owner.page, server.url, DEMO);
    const plants = await api(owner.page, '/api/v1/plants?page=1&limit=10');
    assert.equal(plants.code, 0, JSON.stringify(plants));
    const plant = plants.data.infos[0];
    await owner.page.goto(`${server.url}/plants/edit/${plant.id}`);
    const section = owner.page.getByTestId('section-gateways');
    await section.waitFor();
    await owner.page.getByTestId('gateway-add').click();
    const add = owner.page.locator('.ant-modal').filter({ has: owner.page.locator('#gatewaySn') });
    await add.locator('#gatewaySn').fill(target.sn);
    await add.locator('#gatewayKey').fill(target.key);
    await owner.page.getByTestId('gateway-add-ok').click();
    await section.getByTestId('gateway-sn').filter({ hasText: target.sn }).waitFor();
    await owner.context.close();

    // ---- the administrator sees it on that plant; it cannot be deleted while there
    await page.getByTestId('sys-gateway-place').getByText('On a plant').click();
    await search(page, target.sn);
    const row = rowOf(page, target.sn);
    await row.getByTestId('gateway-plant').getByText(plant.name).waitFor();
    assert.equal(await row.getByTestId('action-delete').isDisabled(), true);
    await admin.context.close();
  });
});

// Gateways of a plant: the wizard's gateway step (check answers 300 next to the fields, then
// OK; the plant is created with the gateway), and the edit screen's Gateways section (add a
// second gateway, both listed, unbind one); screenshot of the section.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, choose, launch, newPage, signIn } from './browser.mjs';
import { REPO_DIR, startServer, USERS } from './server.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || path.join(REPO_DIR, 'docs', 'screenshots');
const NAME = 'Gateway Test Plant';
const GW1 = { sn: 'GW-E2E-0001', key: 'k3y-one-1' };
const GW2 = { sn: 'GW-E2E-0002', key: 'k3y-two-2' };

/** The error message shown under the form item of `id`. */
function fieldError(page, id) {
  return page
    .locator('.ant-form-item')
    .filter({ has: page.locator(`#${id}`) })
    .locator('.ant-form-item-explain-error');
}

describe('plant gateways', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer();
    browser = await launch();
    mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('binds a gateway in the wizard, adds and unbinds gateways on the edit screen', async () => {
    // ---- the internal admin registers two gateways
    {
      const { context, page } = await newPage(browser);
      await signIn(page, server.url, USERS.admin);
      for (const gw of [GW1, GW2]) {
        const r = await api(page, '/api/v1/gateway/create', {
          method: 'POST',
          body: JSON.stringify(gw),
        });
        assert.equal(r.code, 0, JSON.stringify(r));
      }
      await context.close();
    }

    const { context, page } = await newPage(browser);
    await context.route(/tile\.openstreetmap\.org|\/\d+\/\d+\/\d+\.png$/, (r) => r.abort());
    await signIn(page, server.url, USERS.owner);
    await page.getByTestId('add-plant').click();
    await page.getByTestId('wizard-title').waitFor();

    // ---- basic, location, picture, contact, income
    await page.locator('#name').fill(NAME);
    await page.locator('#totalPower').fill('20');
    await choose(
      page,
      page.locator('.ant-form-item').filter({ hasText: 'Time zone' }).locator('.ant-select'),
      'Europe/Madrid',
    );
    await page.getByTestId('wizard-next').click();
    await page.locator('#address').fill('Gran Vía 1, Madrid');
    await page.locator('#lon').fill('-3.70');
    await page.locator('#lat').fill('40.42');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    await page.locator('#principal').waitFor();
    await page.getByTestId('wizard-next').click();
    await page.locator('#price').fill('0.2');
    await page.getByTestId('wizard-next').click();

    // ---- gateway: one field filled makes the other one required
    await page.getByTestId('gateway-step-hint').waitFor();
    await page.locator('#gatewaySn').fill(GW1.sn);
    await page.getByTestId('gateway-check').click();
    await fieldError(page, 'gatewayKey').getByText('Please enter the registration key').waitFor();
    await page.locator('#gatewaySn').fill('');
    await page.locator('#gatewayKey').fill('nope');
    await page.getByTestId('gateway-check').click();
    await fieldError(page, 'gatewaySn').getByText('Please enter the serial number').waitFor();

    // a wrong key: 300 next to the fields, no toast
    await page.locator('#gatewaySn').fill(GW1.sn);
    await page.locator('#gatewayKey').fill('wrong-key');
    await page.getByTestId('gateway-check').click();
    await fieldError(page, 'gatewayKey').getByText('Gateway SN or key incorrect').waitFor();
    assert.equal(await page.locator('.ant-message-notice').count(), 0);

    // the right key: OK, then the plant is created with the gateway
    await page.locator('#gatewayKey').fill(GW1.key);
    await page.getByTestId('gateway-check').click();
    await page.getByTestId('gateway-check-ok').waitFor();
    await page.getByTestId('wizard-next').click();
    await page.waitForURL(`${server.url}/plants`);
    await page.getByText('The plant was created').waitFor();
    const row = page
      .locator('[data-testid="plant-table"] tr.ant-table-row')
      .filter({ hasText: NAME });
    await row.waitFor();

    // ---- the edit screen lists the first gateway
    const list = await api(page, '/api/v1/plants?page=1&limit=10&name=Gateway');
    const plantId = list.data.infos.find((p) => p.name === NAME).id;
    await page.goto(`${server.url}/plants/edit/${plantId}`);
    const section = page.getByTestId('section-gateways');
    await section.waitFor();
    const sns = section.getByTestId('gateway-sn');
    await sns.filter({ hasText: GW1.sn }).waitFor();
    assert.equal(await sns.count(), 1);
    await section.getByText('Offline').first().waitFor();

    // ---- add the second gateway: a wrong key first, then the right one
    await page.getByTestId('gateway-add').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.locator('#gatewaySn') });
    await dialog.locator('#gatewaySn').fill(GW1.sn);
    await dialog.locator('#gatewayKey').fill(GW1.key);
    await page.getByTestId('gateway-add-ok').click();
    // already on this plant: the server answers 0, so the list still holds one row of it
    await page.getByText('The gateway was added').first().waitFor();
    await page.getByTestId('gateway-add').click();
    await dialog.locator('#gatewaySn').fill(GW2.sn);
    await dialog.locator('#gatewayKey').fill('wrong-key');
    await page.getByTestId('gateway-add-ok').click();
    await fieldError(page, 'gatewayKey').getByText('Gateway SN or key incorrect').waitFor();
    await dialog.locator('#gatewayKey').fill(GW2.key);
    await page.getByTestId('gateway-add-ok').click();
    await sns.filter({ hasText: GW2.sn }).waitFor();
    assert.deepEqual((await sns.allInnerTexts()).sort(), [GW1.sn, GW2.sn]);

    // ---- expanding a row shows its devices
    await section.locator('.ant-table-row-expand-icon').first().click();
    await section.getByTestId('gateway-devices').getByText('Devices:').waitFor();
    await page.waitForTimeout(500);
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: path.join(SHOTS, 'plant-gateways.png') });

    // ---- unbind the first gateway (confirm dialog)
    await section
      .locator('tr.ant-table-row')
      .filter({ hasText: GW1.sn })
      .getByTestId('gateway-unbind')
      .click();
    await page.locator('.ant-modal-confirm-title').getByText(`Unbind gateway ${GW1.sn}?`).waitFor();
    await page.getByTestId('gateway-unbind-ok').click();
    await page.getByText('The gateway was unbound').waitFor();
    await page.waitForFunction(
      (sn) =>
        ![...document.querySelectorAll('[data-testid="gateway-sn"]')].some((el) =>
          el.textContent.includes(sn),
        ),
      GW1.sn,
    );
    assert.deepEqual(await sns.allInnerTexts(), [GW2.sn]);

    // ---- the freed gateway can be checked again (it is free once more)
    const check = await api(page, '/api/v1/gateway/import/one/check', {
      method: 'POST',
      body: JSON.stringify(GW1),
    });
    assert.equal(check.code, 0, JSON.stringify(check));
    await context.close();
  });

  it('keeps the plant when binding the gateway fails after creation', async () => {
    const gw = { sn: 'GW-E2E-0003', key: 'k3y-three' };
    {
      const { context, page } = await newPage(browser);
      await signIn(page, server.url, USERS.admin);
      const r = await api(page, '/api/v1/gateway/create', {
        method: 'POST',
        body: JSON.stringify(gw),
      });
      assert.equal(r.code, 0, JSON.stringify(r));
      await context.close();
    }
    const { context, page } = await newPage(browser);
    await context.route(/tile\.openstreetmap\.org|\/\d+\/\d+\/\d+\.png$/, (r) => r.abort());
    // the check passes, but someone takes the gateway before the bind
    await context.route(/\/api\/v1\/plant\/\d+\/gateway(\?|$)/, (r) =>
      r.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ code: 301, msg: 'Gateway already used', success: false }),
      }),
    );
    await signIn(page, server.url, USERS.owner);
    // the owner has a plant by now: / opens its overview
    await page.goto(`${server.url}/plants`);
    await page.getByTestId('add-plant').click();
    await page.locator('#name').fill('Race Condition Plant');
    await page.locator('#totalPower').fill('8');
    await choose(
      page,
      page.locator('.ant-form-item').filter({ hasText: 'Time zone' }).locator('.ant-select'),
      'Europe/Madrid',
    );
    await page.getByTestId('wizard-next').click();
    await page.locator('#address').fill('Plaza Mayor 1, Madrid');
    await page.locator('#lon').fill('-3.71');
    await page.locator('#lat').fill('40.41');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    await page.locator('#principal').waitFor();
    await page.getByTestId('wizard-next').click();
    await page.locator('#price').fill('0.2');
    await page.getByTestId('wizard-next').click();
    await page.locator('#gatewaySn').fill(gw.sn);
    await page.locator('#gatewayKey').fill(gw.key);
    await page.getByTestId('wizard-next').click();
    await page
      .locator('.ant-modal-confirm-title')
      .getByText('The plant was created, but the gateway was not added')
      .waitFor();
    await page
      .getByText("Gateway already used. You can add the gateway from the plant's edit screen.")
      .waitFor();
    await page.getByTestId('gateway-open-edit').click();
    await page.waitForURL(/\/plants\/edit\/\d+$/);
    await page.getByTestId('gateways-empty').waitFor();
    await context.close();
  });

  it('shows the empty state on a plant without gateways', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner);
    const r = await api(page, '/api/v1/plant', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Empty Gateway Plant',
        totalPower: 5,
        joinDate: '2025-03-01',
        type: 1,
        currency: 'EUR',
        timezone: 'Europe/Madrid',
        address: 'Sevilla centre',
        lon: -5.98,
        lat: 37.39,
        charges: [{ type: 1, price: 0.2 }],
      }),
    });
    assert.equal(r.code, 0, JSON.stringify(r));
    await page.goto(`${server.url}/plants/edit/${r.data}`);
    await page.getByTestId('gateways-empty').waitFor();
    await page.getByText('No gateways on this plant yet').waitFor();

    // the list cannot be loaded: a warning with a retry that recovers
    let fail = true;
    await context.route(/\/api\/v1\/gateways\?/, (r) => (fail ? r.abort() : r.continue()));
    await page.reload();
    await page.getByTestId('gateways-error').waitFor();
    await page.getByText('The gateways could not be loaded').waitFor();
    fail = false;
    await page.getByTestId('gateways-error').getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('gateways-empty').waitFor();
    await context.close();
  });
});

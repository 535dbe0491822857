// Plants: the create wizard (TOU tariff + picture), list and map, edit, share, transfer,
// delete; the list and wizard in zh and es; screenshots of the list, the map and the wizard.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { api, choose, launch, newPage, signIn } from './browser.mjs';
import { REPO_DIR, startServer, USERS } from './server.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || path.join(REPO_DIR, 'docs', 'screenshots');
const SECOND = {
  account: 'second@example.com',
  password: 'Second12345',
  role: 'owner',
  nickname: 'Sam',
};
const NAME = 'Sunny Roof Madrid';
const RENAMED = 'Sunny Roof Madrid II';

/** A generated PNG (RGB gradient) of w x h pixels. */
function makePng(w, h) {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const o = y * (w * 3 + 1) + 1 + x * 3;
      raw[o] = 20 + (x * 200) / w;
      raw[o + 1] = 120 + (y * 100) / h;
      raw[o + 2] = 60;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PNG = makePng(64, 40);

/** A page whose map tiles never load (the tests run offline). */
async function offlinePage(browser) {
  const { context, page } = await newPage(browser);
  await context.route(/tile\.openstreetmap\.org|\{s\}|\/\d+\/\d+\/\d+\.png$/, (r) => r.abort());
  return { context, page };
}

function row(page, name) {
  return page.locator('[data-testid="plant-table"] tr.ant-table-row').filter({ hasText: name });
}

describe('plants', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer({ users: [SECOND] });
    browser = await launch();
    mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('creates, finds, edits, shares, transfers and deletes a plant', async () => {
    const { context, page } = await offlinePage(browser);
    await signIn(page, server.url, USERS.owner);
    await page.waitForURL(`${server.url}/plants`);
    await page.getByText('No plants yet').waitFor();
    assert.equal(
      await page
        .locator('[data-testid="side-menu"] .ant-menu-item-selected')
        .getAttribute('data-menu-key'),
      '/plants',
    );

    // ---- the wizard: basic
    await page.getByTestId('add-plant').click();
    await page.waitForURL(/\/plant-add$/);
    await page.getByTestId('wizard-title').waitFor();
    await page.getByTestId('wizard-next').click();
    await page
      .getByText('Please enter 5 to 32 characters')
      .or(page.getByText('This field is required').first())
      .first()
      .waitFor();
    await page.locator('#name').fill('Roof');
    await page.locator('#totalPower').fill('60000');
    await page.getByText('Please enter 5 to 32 characters').waitFor();
    await page.getByText('Please input 0 ~ 50000').waitFor();
    await page.locator('#name').fill(NAME);
    await page.locator('#totalPower').fill('12.5');
    await page.getByText('Energy storage (AC coupled)').click();
    await choose(
      page,
      page.locator('.ant-form-item').filter({ hasText: 'Time zone' }).locator('.ant-select'),
      'Europe/Madrid',
    );
    await page.getByTestId('wizard-next').click();

    // ---- location: typed, checked, and picked on the map
    await page.locator('#address').waitFor();
    await page.locator('#address').fill('Calle de Alcalá 1, Madrid');
    await page.locator('#lon').fill('abc');
    await page.locator('#lat').fill('95');
    await page.getByText('Enter a number between -180 and 180').waitFor();
    await page.getByText('Enter a number between -90 and 90').waitFor();
    await page.getByTestId('location-picker').click({ position: { x: 300, y: 150 } });
    await page.waitForFunction(() => document.querySelector('#lat')?.value !== '95');
    assert.match(await page.locator('#lon').inputValue(), /^-?\d+(\.\d+)?$/);
    await page.locator('#lon').fill('-3.7038');
    await page.locator('#lat').fill('40.4168');
    await page.getByTestId('wizard-next').click();

    // ---- picture: the type is checked on the client, then a PNG is uploaded
    const file = page.locator('input[type="file"]');
    await file.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('x'),
    });
    await page.getByText('Only JPG, JPEG, PNG images are allowed').waitFor();
    await file.setInputFiles({ name: 'roof.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('picture-preview').waitFor();
    await page.getByTestId('wizard-next').click();

    // ---- contact (an owner is not offered the owner field)
    await page.locator('#principal').fill('Ana Ruiz');
    assert.equal(await page.locator('#owner').count(), 0);
    await page.locator('#phone').fill('+34600111222');
    await page.locator('#email').fill('ana@example.com');
    await page.getByTestId('wizard-next').click();

    // ---- income: a time-of-use tariff
    await page.getByText('Time-of-use price').click();
    const editor = page.getByTestId('tou-editor');
    await editor.waitFor();
    const rows = editor.getByTestId('tou-row');
    assert.equal(await rows.count(), 2);
    // prices are per kWh in the plant's currency, and say so
    await editor.getByText(/^Price \(.+\/kWh\)$/).waitFor();
    // the first period up to 24:00 leaves the second one empty: a clear message
    await choose(page, rows.nth(0).locator('.ant-select').nth(1), '24:00');
    await page.getByTestId('tou-price-0').fill('0.10');
    await page.getByTestId('tou-price-1').fill('0.30');
    await page.getByTestId('wizard-next').click();
    await page.getByText('Row 2: Each time period must end after it starts').waitFor();
    await choose(page, rows.nth(0).locator('.ant-select').nth(1), '08:00');
    await editor.getByRole('button', { name: /Add a row/ }).click();
    assert.equal(await rows.count(), 3);
    await page.getByTestId('tou-price-2').fill('0.155');
    await page.getByTestId('wizard-next').click();
    await page.getByText('Row 3: At most 2 decimal places').waitFor();
    await page.getByTestId('tou-price-2').fill('0.15');
    await page.locator('#invest').fill('15000');
    await page.getByTestId('wizard-next').click();

    // ---- gateway: optional, skipped with both fields empty
    await page.getByTestId('gateway-step-hint').waitFor();
    await page.getByTestId('wizard-next').click();

    // ---- back on the list, the new plant first and highlighted
    await page.waitForURL(`${server.url}/plants`);
    await row(page, NAME).waitFor();
    assert.equal(await page.locator('tr.plant-row-new').filter({ hasText: NAME }).count(), 1);
    const list = await api(page, '/api/v1/plants?page=1&limit=10');
    const id = list.data.infos[0].id;
    const plant = (await api(page, `/api/v1/plant/${id}`)).data;
    assert.equal(plant.name, NAME);
    assert.equal(plant.totalPower, 12.5);
    assert.equal(plant.type, 2);
    assert.equal(plant.timezone.code, 'Europe/Madrid');
    assert.equal(plant.lat, 40.4168);
    assert.ok(plant.imageUrl && plant.thumbUrl, 'picture stored');
    assert.deepEqual(
      plant.charges.map((c) => [c.type, c.startRange, c.endRange, c.price]),
      [
        [2, '00:00', '08:00', 0.1],
        [2, '08:00', '16:00', 0.3],
        [2, '16:00', '24:00', 0.15],
      ],
    );
    // search and filters
    await page.getByTestId('plant-search').locator('input').fill('nothing like it');
    await page.keyboard.press('Enter');
    await page.getByText('No plant matches the search').waitFor();
    await page.getByTestId('plant-search').locator('input').fill('Sunny');
    await page.keyboard.press('Enter');
    await row(page, NAME).waitFor();
    // the name opens the plant's overview (monitoring), for the owner too
    await row(page, NAME).getByTestId('plant-name').click();
    await page.waitForURL(`${server.url}/plants/overview/${id}/${plant.type}`);
    // no device yet: the device card offers to add a gateway, on the edit screen's dialog
    await page.getByTestId('overview-add-gateway').click();
    await page.waitForURL(`${server.url}/plants/edit/${id}?addGateway=1`);
    await page.getByTestId('gateway-add-form').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL(`${server.url}/plants/edit/${id}`);
    await page.goto(`${server.url}/plants`);
    await page.getByTestId('plant-search').locator('input').fill('Sunny');
    await page.keyboard.press('Enter');
    await row(page, NAME).waitFor();

    // ---- the map: a marker with no tiles, its popup
    await page.getByTestId('view-toggle').getByText('Map').click();
    const marker = page.locator(`[data-testid="plant-marker"][data-plant-id="${id}"]`);
    await marker.waitFor({ state: 'visible' });
    // no tile server reachable (tiles refused above): the map says so and keeps its markers
    await page.getByTestId('map-tiles-failed').waitFor();
    await marker.click();
    const popup = page.getByTestId('map-popup');
    await popup.getByText(NAME).waitFor();
    await popup.getByText('12.5 kWp').waitFor();
    await popup.getByTestId('map-open').click();
    await page.waitForURL(`${server.url}/plants/edit/${id}`);

    // ---- edit: name (basic info) and income, each with its own endpoint
    await page.getByTestId('edit-title').waitFor();
    await page.locator('#name').fill(RENAMED);
    await page.getByTestId('section-basic-save').click();
    await page.getByText('Saved').first().waitFor();
    const income = page.getByTestId('section-income');
    await income.getByTestId('tou-price-1').fill('0.35');
    await income.getByTestId('section-income-save').click();
    await page.waitForFunction(
      async (pid) => {
        const { access_token } = JSON.parse(localStorage.getItem('portal.auth'));
        const r = await fetch(`/api/v1/plant/${pid}`, {
          headers: { Authorization: `Bearer ${access_token}` },
        });
        const { data } = await r.json();
        return data.name === 'Sunny Roof Madrid II' && data.charges.some((c) => c.price === 0.35);
      },
      id,
      { polling: 300, timeout: 10_000 },
    );
    // an unknown plant: not found with a way back
    await page.goto(`${server.url}/plants/edit/999999`);
    await page.getByText('Plant does not exist or is not visible to you').waitFor();
    await page.getByText('Back to the plant list').click();
    await page.waitForURL(`${server.url}/plants`);

    // ---- share: to oneself refused (701), then to the second account as visitor
    await page.getByTestId('view-toggle').getByText('List').click();
    await row(page, RENAMED).getByTestId('action-share').click();
    const share = page.locator('.ant-modal').filter({ hasText: 'Share' });
    await share.locator('#account').fill(USERS.owner.account);
    await share.getByTestId('share-submit').click();
    await share.getByText('You cannot share with yourself').waitFor();
    await share.locator('#account').fill(SECOND.account);
    await share.getByTestId('share-submit').click();
    await share.getByTestId('share-list').getByText(SECOND.account).waitFor();
    await share.getByTestId('share-list').getByText('Visitor').waitFor();
    await page.keyboard.press('Escape');

    // ---- the second account sees it, marked shared, read-only
    {
      const second = await offlinePage(browser);
      await signIn(second.page, server.url, SECOND);
      // their one plant: / opens its overview; the list is one click away
      await second.page.goto(`${server.url}/plants`);
      const r = row(second.page, RENAMED);
      await r.getByTestId('shared-tag').waitFor();
      assert.equal(await r.getByTestId('action-edit').count(), 0);
      assert.equal(await r.getByTestId('action-delete').count(), 0);
      assert.equal(await r.getByTestId('action-share').count(), 0);
      assert.equal(await r.getByTestId('action-leave').count(), 1);
      await r.getByTestId('action-details').click();
      const drawer = second.page.locator('.ant-drawer');
      await drawer.getByText('Ana Ruiz').waitFor();
      await drawer.getByText('Time-of-use price').waitFor();
      await drawer.locator('.ant-drawer-close').click();
      // a visitor's click on the name opens the overview as well
      await r.getByTestId('plant-name').click();
      await second.page.waitForURL(/\/plants\/overview\/\d+\/\d+$/);
      await second.context.close();
    }

    // ---- transfer with a typed confirmation: the first account loses the plant
    await row(page, RENAMED).getByTestId('action-transfer').click();
    const transfer = page.locator('.ant-modal').filter({ hasText: 'New owner account' });
    await transfer.locator('#account').fill(SECOND.account);
    const submit = transfer.getByRole('button', { name: 'Transfer' });
    assert.equal(await submit.isDisabled(), true);
    await transfer.getByTestId('confirm-name').fill('Sunny Roof');
    assert.equal(await submit.isDisabled(), true);
    await transfer.getByTestId('confirm-name').fill(RENAMED);
    assert.equal(await submit.isDisabled(), false);
    await submit.click();
    await page.getByText('The plant was transferred').waitFor();
    await page.getByText('No plants yet').waitFor();
    await context.close();

    // ---- the second account now owns it and deletes it (typed confirmation)
    const second = await offlinePage(browser);
    await signIn(second.page, server.url, SECOND, { to: '/plants' });
    const r = row(second.page, RENAMED);
    await r.waitFor();
    assert.equal(await r.getByTestId('shared-tag').count(), 0);
    await r.getByTestId('action-delete').click();
    const del = second.page.locator('.ant-modal').filter({ hasText: 'cannot be undone' });
    const remove = del.getByRole('button', { name: 'Delete' });
    assert.equal(await remove.isDisabled(), true);
    await del.getByTestId('confirm-name').fill(RENAMED);
    await remove.click();
    await second.page.getByText('The plant was deleted').waitFor();
    await second.page.getByText('No plants yet').waitFor();
    const after = await api(second.page, '/api/v1/plants?page=1&limit=10');
    assert.equal(after.data.total, 0);
    await second.context.close();
  });

  it('shows the list and the wizard translated in zh and es', async () => {
    for (const [lang, title, wizard, step] of [
      ['zh', '电站列表', '新建电站', '基本信息'],
      ['es', 'Lista de plantas', 'Crear una planta', 'Información básica'],
    ]) {
      const { context, page } = await offlinePage(browser);
      await page.addInitScript((l) => localStorage.setItem('portal.lang', l), lang);
      await signIn(page, server.url, USERS.owner);
      assert.equal(await page.getByTestId('plants-title').innerText(), title);
      await page.getByTestId('add-plant').click();
      assert.equal(await page.getByTestId('wizard-title').innerText(), wizard);
      await page.locator('.ant-steps').getByText(step).waitFor();
      await context.close();
    }
  });

  it('takes the screenshots of the list, the map and the wizard (dark theme)', async () => {
    const { context, page } = await offlinePage(browser);
    await signIn(page, server.url, USERS.owner);
    const plants = [
      ['Lisbon Harbour Roof', -9.14, 38.72, 1, 48.2],
      ['Madrid Warehouse', -3.7, 40.42, 2, 120],
      ['Madrid Office Park', -3.68, 40.45, 1, 36.5],
      ['Paris Depot Storage', 2.35, 48.86, 3, 250],
      ['Berlin School Roof', 13.4, 52.52, 1, 19.8],
      ['Milan Factory East', 9.19, 45.46, 2, 410],
    ];
    for (const [name, lon, lat, type, totalPower] of plants) {
      const r = await api(page, '/api/v1/plant', {
        method: 'POST',
        body: JSON.stringify({
          name,
          totalPower,
          joinDate: '2025-03-01',
          type,
          currency: 'EUR',
          timezone: 'Europe/Madrid',
          address: `${name.split(' ')[0]} centre`,
          lon,
          lat,
          charges: [{ type: 1, price: 0.2 }],
        }),
      });
      assert.equal(r.code, 0, JSON.stringify(r));
    }
    await page.reload();
    await row(page, 'Milan Factory East').waitFor();
    await page.waitForTimeout(800);
    await page.screenshot({ path: path.join(SHOTS, 'plants-list.png') });
    await page.getByTestId('view-toggle').getByText('Map').click();
    await page.locator('[data-testid="plant-marker"]').first().waitFor({ state: 'visible' });
    await page.waitForTimeout(1200);
    await page.screenshot({ path: path.join(SHOTS, 'plants-map.png') });
    await page.getByTestId('add-plant').click();
    await page.getByTestId('wizard-title').waitFor();
    await page.locator('#name').fill('Valencia Greenhouse');
    await page.locator('#totalPower').fill('85');
    await page.getByTestId('wizard-next').click();
    await page.locator('#address').fill('Avinguda del Port 10, Valencia');
    await page.locator('#lon').fill('-0.3763');
    await page.locator('#lat').fill('39.4699');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    await page.locator('#principal').waitFor();
    await page.getByTestId('wizard-next').click();
    await page.getByText('Time-of-use price').click();
    const tou = page.getByTestId('tou-editor');
    await tou.getByRole('button', { name: /Add a row/ }).click();
    for (const [i, p] of ['0.08', '0.21', '0.14'].entries()) {
      await page.getByTestId(`tou-price-${i}`).fill(p);
    }
    await page.locator('#invest').fill('64000');
    await page.waitForTimeout(800);
    await page.screenshot({ path: path.join(SHOTS, 'plant-wizard.png') });
    await context.close();
  });
});

// Batteries, meters and weather stations against the demo server (`portal serve --demo`:
// simulated plants reporting live, with history): the battery list and one stack's detail with
// its cell grid (highest and lowest cell marked), packs and day chart, temperatures in the
// user's unit; a meter's phases, history, rename and master flag; a weather station's values
// and day chart; another owner seeing none of them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';

const RENAMED = 'E2E grid meter';

/** Polls `url` until `ready(data)` holds (the demo's devices report within seconds). */
async function waitFor(page, url, ready) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = await api(page, url);
    if (r.code === 0 && ready(r.data)) return r.data;
    if (Date.now() > deadline) throw new Error(`${url} never got ready: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

const selectedMenu = (page) =>
  page.locator('[data-testid="side-menu"] .ant-menu-item-selected').getAttribute('data-menu-key');

describe('batteries, meters and weather stations', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-bms-', { historyDays: 2 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a battery stack with its cells, packs and day curve', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const list = await waitFor(page, '/api/v1/batteries?page=1&limit=100', (d) =>
      d.infos.some((b) => b.packCount > 1 && b.soc !== null),
    );
    const target = list.infos.find((b) => b.packCount > 1 && b.soc !== null);

    await page.goto(`${server.url}/device/battery`);
    const rows = page.locator('[data-testid="battery-table"] tr.ant-table-row');
    await rows.first().waitFor();
    assert.ok((await rows.count()) >= 1);
    assert.equal(await selectedMenu(page), '/device/battery');
    await page
      .getByTestId('battery-count-total')
      .locator('.ant-statistic-content-value')
      .filter({ hasText: /^[1-9]\d*$/ })
      .waitFor();

    await page.getByPlaceholder('Search SN').fill(target.sn);
    await page.getByPlaceholder('Search SN').press('Enter');
    await page.waitForFunction((sn) => {
      const cells = [...document.querySelectorAll('[data-testid="battery-sn"]')];
      return cells.length === 1 && cells[0].textContent === sn;
    }, target.sn);
    await page.getByTestId('battery-sn').click();
    await page.waitForURL(new RegExp(`/device/battery/${target.sn}$`));
    await page.getByTestId('battery-title').filter({ hasText: target.sn }).waitFor();
    assert.equal(await selectedMenu(page), '/device/battery', 'the detail highlights the list');

    // SOC as a percentage, temperatures in the user's unit (°C by default)
    await page
      .getByTestId('battery-soc')
      .getByText(/^\d+(\.\d+)? %$/)
      .waitFor();
    await page.getByTestId('battery-temp-max').filter({ hasText: /°C$/ }).waitFor();

    // the cell grid: every cell the BMS lists (16 per pack), the stack's extremes marked once
    const realtime = await api(page, `/api/v1/battery/${target.sn}/realtime`);
    assert.equal(realtime.code, 0);
    assert.equal(realtime.data.cells.length, realtime.data.packs.length * 16);
    const tiles = page.getByTestId('cell-tile');
    await tiles.first().waitFor();
    assert.equal(await tiles.count(), realtime.data.cells.length);
    assert.equal(await page.locator('[data-testid="cell-tile"][data-extreme="max"]').count(), 1);
    assert.equal(await page.locator('[data-testid="cell-tile"][data-extreme="min"]').count(), 1);
    const maxTile = page.locator('[data-testid="cell-tile"][data-extreme="max"]');
    assert.match(await maxTile.textContent(), /\d\.\d{3} V/);

    // the packs of the stack, as the API lists them
    const packs = await api(page, `/api/v1/batteries/${target.sn}/slave`);
    assert.equal(packs.code, 0);
    const packRows = page.locator('[data-testid="battery-packs"] tr.ant-table-row');
    await packRows.first().waitFor();
    assert.equal(await packRows.count(), packs.data.total);
    assert.ok(packs.data.total >= 2);
    await page.getByTestId('battery-packs').getByText(packs.data.infos[0].sn).waitFor();

    // the day curve draws once today's history is written (the demo writes it at start)
    await waitFor(page, `/api/v1/battery/${target.sn}/day`, (d) => d.infos[0].records.length > 1);
    await page.reload();
    await page.getByTestId('battery-day').locator('canvas').first().waitFor();
    await page.getByTestId('battery-relays').getByText('Closed').first().waitFor();
    // owners hold no battery.delete: no delete button
    assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0);

    // in °F the same temperatures follow the user's unit
    const saved = await api(page, '/api/v1/user/personalized', {
      method: 'POST',
      body: JSON.stringify({ tempUnit: 'F' }),
    });
    assert.equal(saved.code, 0);
    await page.reload();
    await page.getByTestId('battery-temp-max').filter({ hasText: /°F$/ }).waitFor();
    await api(page, '/api/v1/user/personalized', {
      method: 'POST',
      body: JSON.stringify({ tempUnit: 'C' }),
    });
    await context.close();
  });

  it('shows a meter per phase with history, renames it and makes it master', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const list = await waitFor(page, '/api/v1/meters?page=1&limit=100', (d) =>
      d.infos.some((m) => m.power !== null),
    );
    const target = list.infos.find((m) => m.power !== null);

    await page.goto(`${server.url}/device/meter`);
    await page.locator('[data-testid="meter-table"] tr.ant-table-row').first().waitFor();
    await page.goto(`${server.url}/device/meter/${target.sn}`);
    await page.getByTestId('meter-title').filter({ hasText: target.sn }).waitFor();
    assert.equal(await selectedMenu(page), '/device/meter');
    const phases = page.locator('[data-testid="meter-phases"] tr.ant-table-row');
    await phases.first().waitFor();
    assert.equal(await phases.count(), 3);
    await page.getByTestId('meter-power').filter({ hasText: /W$/ }).waitFor();
    await waitFor(page, `/api/v1/meter/${target.sn}/day`, (d) => d.infos[0].records.length > 1);
    await page.reload();
    await page.getByTestId('meter-history').locator('canvas').first().waitFor();
    await page.getByTestId('meter-history').getByText('Year').click();
    await page.getByTestId('meter-history').locator('canvas, .ant-empty').first().waitFor();

    // rename, then the list shows the new name
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByTestId('meter-alias').fill(RENAMED);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('meter-title').locator('..').getByText(RENAMED).waitFor();
    const renamed = await api(page, `/api/v1/meter/${target.sn}/realtime`);
    assert.equal(renamed.data.alias, RENAMED);

    // master meter of its plant
    await page.getByRole('button', { name: 'Set as master' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('meter-master').waitFor();
    const master = await api(page, `/api/v1/meter/${target.sn}/realtime`);
    assert.equal(master.data.master, true);
    await context.close();
  });

  it('shows a weather station with its values and day curve', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const list = await waitFor(page, '/api/v1/weatherStations?page=1&limit=100', (d) =>
      d.infos.some((w) => w.ambientTemp !== null),
    );
    const target = list.infos.find((w) => w.ambientTemp !== null);

    await page.goto(`${server.url}/device/weather`);
    await page.locator('[data-testid="weather-table"] tr.ant-table-row').first().waitFor();
    await page.locator('[data-testid="weather-sn"]', { hasText: target.sn }).click();
    await page.waitForURL(new RegExp(`/device/weather/${target.sn}$`));
    await page.getByTestId('weather-title').filter({ hasText: target.sn }).waitFor();
    assert.equal(await selectedMenu(page), '/device/weather');
    await page
      .getByTestId('weather-irradiance')
      .filter({ hasText: /W\/m²$|^--$/ })
      .waitFor();
    await page.getByTestId('weather-ambientTemp').filter({ hasText: /°C$/ }).waitFor();
    await waitFor(page, `/api/v1/weatherStation/${target.sn}/day`, (d) =>
      d.infos.some((s) => s.label === 'ambientTemp' && s.records.length > 1),
    );
    await page.reload();
    await page.getByTestId('weather-day').getByText('Temperatures').click();
    await page.getByTestId('weather-day').locator('canvas').first().waitFor();
    await context.close();
  });

  it("answers another owner's requests as if the devices did not exist", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner);
    for (const url of ['/api/v1/batteries', '/api/v1/meters', '/api/v1/weatherStations']) {
      const r = await api(page, url);
      assert.equal(r.code, 0);
      assert.equal(r.data.total, 0, url);
    }
    assert.equal((await api(page, '/api/v1/battery/SIMBAT000001/realtime')).code, 600);
    await page.goto(`${server.url}/device/battery/SIMBAT000001`);
    await page.getByText('This battery does not exist or is not visible to you.').waitFor();
    await context.close();
  });
});

// The plant overview against the demo server (`portal serve --demo`: simulated plants reporting
// live, with history): opened from the plant list, the energy flow drawn from the flow answer
// the page itself received, today's figures, the day curve and the energy bars as canvases,
// the device list from the plant's devices, events and weather; another owner gets "not found".
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';

/** The compact display of web/src/shared/format/number.ts, for W. */
function compactW(n) {
  const digits = String(Math.trunc(Math.abs(n))).length;
  const one = (x) => String(Math.round(x * 10) / 10);
  if (digits >= 6) return `${one(n / 1_000_000)} MW`;
  if (digits >= 3) return `${one(n / 1_000)} kW`;
  return `${one(n)} W`;
}

/** A plant figure as the Performance card shows it (web/src/features/overview/figures.ts). */
function shownFigure(key, value) {
  if (value === null) return '--';
  const grouped = (n, d) => n.toFixed(d).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  switch (key) {
    case 'specificYield':
      return `${grouped(value, 2)} kWh/kWp`;
    case 'referenceYield':
      return `${grouped(value, 2)} h`;
    case 'co2Avoided':
      return value >= 1000 ? `${grouped(value / 1000, 2)} t` : `${grouped(value, 1)} kg`;
    default:
      return `${grouped(value, 1)} %`;
  }
}

const FIGURES = [
  'specificYield',
  'referenceYield',
  'performanceRatio',
  'availability',
  'selfConsumption',
  'selfSufficiency',
  'co2Avoided',
];

/** Polls the plant list until a storage plant of the demo has reported energy. */
async function waitForStoragePlant(page) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = await api(page, '/api/v1/plants?page=1&limit=100');
    const plant = r.data?.infos?.find((p) => p.type !== 1 && (p.etotal > 0 || p.pac > 0));
    if (plant) return plant;
    if (Date.now() > deadline) throw new Error(`no storage plant with data: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

describe('plant overview', () => {
  let server;
  let browser;
  before(async () => {
    // four days: the closed day two before the plant's today, and its month and year bars (45
    // days cost a debug server about 25 s more of CPU, taken from the journeys beside it)
    server = await startDemoServer('portal-e2e-overview-', { historyDays: 4 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a storage plant: live flow, figures, charts, devices, events and weather', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const plant = await waitForStoragePlant(page);

    // ---- opened from the plant list's overview action
    await page.goto(`${server.url}/plants`);
    const row = page.locator('tr.ant-table-row').filter({ hasText: plant.name });
    const flowAnswer = page.waitForResponse((r) =>
      r.url().includes(`/api/v1/plant/energy/${plant.id}/flow`),
    );
    // the list row carries the plant's live figures
    assert.match(await row.getByTestId('plant-pac').textContent(), /\d.* [kM]?W$/);
    assert.match(await row.getByTestId('plant-etoday').textContent(), /\d.* [kM]?Wh$/);
    await row.getByTestId('plant-name').click();
    await page.waitForURL(new RegExp(`/plants/overview/${plant.id}/${plant.type}$`));
    await page.getByTestId('overview-name').filter({ hasText: plant.name }).waitFor();

    // ---- the flow diagram shows exactly what the page's own flow answer said
    const flow = (await (await flowAnswer).json()).data;
    await page.getByTestId('flow-diagram').waitFor();
    const power = async (node) =>
      (await page.getByTestId(`flow-${node}-power`).textContent()).trim();
    // the diagram may already show a newer answer (30 s refresh): compare against that one
    assert.equal(await power('pv'), compactW(flow.pvPower));
    assert.equal(await power('load'), compactW(flow.loadOrEpsPower));
    assert.equal(await power('battery'), compactW(flow.battPower));
    assert.equal(await power('grid'), compactW(flow.gridOrMeterPower));
    const soc = (await page.getByTestId('flow-soc').textContent()).trim();
    assert.match(soc, new RegExp(`${Math.round(flow.soc)}%$`));
    const batteryLine = page.getByTestId('flow-line-battery');
    const expectedBattery = flow.batTo ? 'toHub' : flow.toBat ? 'fromHub' : 'idle';
    assert.equal(
      await batteryLine.getAttribute('data-direction'),
      flow.battPower > 0 ? expectedBattery : 'idle',
    );
    if (flow.pvPower > 0)
      assert.equal(await page.getByTestId('flow-line-pv').getAttribute('data-direction'), 'toHub');

    // ---- today's figures come from the realtime answer (energy is never missing here)
    await page.getByTestId('today-etoday').waitFor();
    // a storage plant says what its battery gave back, and current power over capacity is
    // called what it is
    await page.getByTestId('use-discharge').waitFor();
    await page.getByText('Power ratio').waitFor();
    assert.notEqual((await page.getByTestId('today-etoday').textContent()).trim(), '--');
    assert.notEqual((await page.getByTestId('today-etotal').textContent()).trim(), '--');
    assert.match((await page.getByTestId('today-income').textContent()).trim(), /\d/);

    // ---- the day curve, then month and year bars, are drawn (history exists)
    // (the day of the newest report: the demo fleet's clock may be behind the server's today)
    const picker = page.getByTestId('energy-chart').locator('.ant-picker input');
    await picker.waitFor();
    const lastDay = flow.time ? flow.time.slice(0, 10) : await picker.inputValue();
    if ((await picker.inputValue()) !== lastDay) {
      await picker.click();
      await picker.fill(lastDay);
      await picker.press('Enter');
    }
    await page.getByTestId('chart-day').locator('canvas').first().waitFor();
    if (process.env.DEBUG_OVERVIEW)
      await page.screenshot({ path: '/tmp/a/overview.png', fullPage: true });
    const chart = page.getByTestId('energy-chart');
    await chart.getByText('Month', { exact: true }).click();
    await chart
      .locator('[data-testid="chart-month"] canvas, [data-testid="chart-empty"]')
      .first()
      .waitFor();
    // the month's daily energy downloads as a spreadsheet
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('chart-download').click(),
    ]);
    assert.match(file.suggestedFilename(), /\.xlsx$/);
    await chart.getByText('Year', { exact: true }).click();
    await page.getByTestId('chart-year').locator('canvas').first().waitFor();
    const year = await api(page, `/api/v1/plant/energy/${plant.id}/year`);
    assert.ok(year.data.infos.some((s) => s.label === 'pv' && s.records.length > 0));

    // ---- the device list is the plant's devices, each with its status
    const devices = await api(page, `/api/v1/plant/${plant.id}/devices`);
    assert.equal(devices.code, 0);
    assert.ok(devices.data.length > 0);
    const rows = page.getByTestId('device-row');
    await rows.first().waitFor();
    assert.equal(await rows.count(), devices.data.length);
    const inverter = devices.data.find((d) => d.family === 'inverter');
    assert.ok(inverter, 'the storage plant has an inverter');
    await page.locator(`[data-testid="device-row"][data-sn="${inverter.sn}"]`).waitFor();
    assert.equal(await page.getByTestId('device-status').count(), devices.data.length);

    // ---- events (rows or the empty state) and the weather with its sunrise
    await page
      .locator(
        '[data-testid="event-row"], [data-testid="events-empty"], [data-testid="events-error"]',
      )
      .first()
      .waitFor();
    await page
      .getByTestId('weather-sunrise')
      .filter({ hasText: /^\d\d:\d\d$/ })
      .waitFor();

    // ---- the map popup opens the overview too
    await page.goto(`${server.url}/plants`);
    // searched by name, the map holds this plant alone (no cluster around it)
    await page.getByTestId('plant-search').locator('input').fill(plant.name);
    await page.keyboard.press('Enter');
    await page.getByTestId('view-toggle').getByText('Map').click();
    const marker = page.locator(`[data-testid="plant-marker"][data-plant-id="${plant.id}"]`);
    await marker.waitFor({ state: 'visible' });
    await marker.click();
    await page.getByTestId('map-popup').getByTestId('map-overview').click();
    await page.waitForURL(new RegExp(`/plants/overview/${plant.id}/${plant.type}$`));
    await page.getByTestId('flow-diagram').waitFor();
    await context.close();
  });

  it('shows the plant figures of the chosen day and month as the API answers them', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    await waitForStoragePlant(page);
    // The Sydney warehouse: a weather station, and a battery it charges from the grid at night.
    const plants = await api(page, '/api/v1/plants?page=1&limit=100');
    const plant = plants.data.infos.find((p) => p.name.startsWith('Sydney warehouse'));
    assert.ok(plant, 'the demo has the Sydney warehouse');
    await page.goto(`${server.url}/plants/overview/${plant.id}/${plant.type}`);
    const picker = page.getByTestId('energy-chart').locator('.ant-picker input');
    await picker.waitFor();
    // a closed day (two before the plant's today), whose figures no new report changes
    const today = await picker.inputValue();
    const day = new Date(Date.parse(`${today}T00:00:00Z`) - 2 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    await picker.click();
    await picker.fill(day);
    await picker.press('Enter');
    const card = page.locator(`[data-testid="performance-figures"][data-from="${day}"]`);
    await card.waitFor();
    const answer = await api(page, `/api/v1/plant/${plant.id}/figures?date=${day}`);
    assert.equal(answer.code, 0);
    for (const key of FIGURES) {
      const f = answer.data[key];
      const tile = card.getByTestId(`figure-${key}`);
      assert.equal(await tile.getAttribute('data-value'), f.value === null ? '' : String(f.value));
      assert.equal(await tile.getAttribute('data-basis'), f.basis, key);
      const text = (await card.getByTestId(`figure-${key}-value`).textContent()).trim();
      assert.equal(text, shownFigure(key, f.value), key);
    }
    // a station day: the ratio against measured irradiance, and the grid charge measured
    assert.equal(answer.data.performanceRatio.basis, 'station');
    assert.ok(answer.data.performanceRatio.value > 50, JSON.stringify(answer.data));
    assert.notEqual(answer.data.gridCharge, null);
    await card.getByTestId('figure-performanceRatio').getByText('Weather station').waitFor();
    // the month follows the chart's switch; all time asks for a day, month or year
    const chart = page.getByTestId('energy-chart');
    await chart.getByText('Month', { exact: true }).click();
    await page
      .locator(`[data-testid="performance-figures"][data-from="${day.slice(0, 7)}-01"]`)
      .waitFor();
    await chart.getByText('Total', { exact: true }).click();
    await page.getByTestId('performance-total').waitFor();
    await context.close();
  });

  it('draws a grid-tied plant without a battery node or battery figures', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    await waitForStoragePlant(page);
    const plants = await api(page, '/api/v1/plants?page=1&limit=100');
    const gridTied = plants.data.infos.find((p) => p.type === 1);
    assert.ok(gridTied, 'the demo fleet has a grid-tied plant');
    const flowAnswer = page.waitForResponse((r) =>
      r.url().includes(`/api/v1/plant/energy/${gridTied.id}/flow`),
    );
    await page.goto(`${server.url}/plants/overview/${gridTied.id}/1`);
    const flow = (await (await flowAnswer).json()).data;
    await page.getByTestId('flow-diagram').waitFor();
    await page.getByTestId('flow-pv').waitFor();
    await page.getByTestId('flow-load').waitFor();
    // a grid-tied inverter's battery registers (its protocol is a hybrid's) are no battery
    assert.equal(flow.existsBattery, false);
    assert.equal(await page.getByTestId('flow-battery').count(), 0);
    assert.equal(await page.getByTestId('flow-soc').count(), 0);
    await page.getByTestId('use-load').waitFor();
    assert.equal(await page.getByTestId('use-charge').count(), 0);
    assert.equal(await page.getByTestId('use-discharge').count(), 0);
    // nor a flat SOC line on the day chart
    const day = await api(page, `/api/v1/plant/energy/${gridTied.id}/day`);
    assert.deepEqual(
      day.data.infos.map((s) => s.label).filter((l) => l === 'battery' || l === 'soc'),
      [],
    );
    await context.close();
  });

  it('answers "not found" for a plant the user cannot see', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const plant = await waitForStoragePlant(page);
    const other = await newPage(browser);
    await signIn(other.page, server.url, USERS.owner, {
      to: `/plants/overview/${plant.id}/${plant.type}`,
    });
    await other.page.getByTestId('overview-not-found').waitFor();
    await other.context.close();
    await context.close();
  });
});

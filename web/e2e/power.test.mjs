// Power off and on as an installer does it, against the demo simulator at its real pace (a
// report every five seconds): switch a producing hybrid off from its screen, then its PV, AC
// output and battery read 0 and the screen (and its plant's device list, overview and its line
// in the plant list) shows it Off within a few upload cycles; switch it on and its output
// returns and the screen shows On.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';

const HYBRIDS = [2, 21, 22, 93, 94];
/** The demo's upload cycle, seconds. */
const CYCLE = 5;

/** An inverter's output now: PV, AC output and battery power (W), as the API reports them. */
async function output(page, sn) {
  const s = encodeURIComponent(sn);
  const [input, out, battery] = await Promise.all([
    api(page, `/api/v1/inverter/${s}/realtime/input`),
    api(page, `/api/v1/inverter/${s}/realtime/output`),
    api(page, `/api/v1/inverter/battery/${s}/realtime`),
  ]);
  const n = (v) => (v === null || v === undefined ? 0 : Number(v));
  return { pv: n(input.data?.pac), ac: n(out.data?.pac), battery: n(battery.data?.power) };
}

/** Whether an inverter's realtime values are its present ones (not a past reading). */
async function live(page, sn) {
  const s = encodeURIComponent(sn);
  const r = await api(page, `/api/v1/inverter/${s}/realtime/input`);
  return r.code === 0 && r.data.stale === false;
}

/**
 * The demo hybrid putting out the most right now (some site has sun at any hour). Stale values
 * do not count: while the demo replays a gateway's history at start, its devices' newest
 * reading is from that history (a summer noon at the site's night) and marked stale.
 */
async function producingHybrid(page) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = await api(page, '/api/v1/inverters?page=1&limit=100');
    const candidates = (r.code === 0 ? r.data.infos : []).filter(
      (i) => i.online && i.status === 1 && HYBRIDS.includes(i.type) && i.opened === 1,
    );
    let best = null;
    for (const inv of candidates) {
      if (!(await live(page, inv.sn))) continue;
      const o = await output(page, inv.sn);
      const total = Math.abs(o.pv) + Math.abs(o.ac) + Math.abs(o.battery);
      if (total > 0 && (!best || total > best.total)) best = { inv, o, total };
    }
    if (best) return best;
    if (Date.now() > deadline) throw new Error(`no producing hybrid: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 2000));
  }
}

/** Waits for the command progress to end and answers its final status. */
async function finalStatus(page) {
  await page.getByTestId('command-progress').waitFor();
  await page.waitForFunction(
    () => {
      const s = document
        .querySelector('[data-testid="command-progress"]')
        ?.getAttribute('data-status');
      return s && s !== 'sent' && s !== 'acknowledged';
    },
    null,
    { timeout: 30_000 },
  );
  return page.getByTestId('command-progress').getAttribute('data-status');
}

/** A number shown on a port tab ("1,234 W", "1.2 kW", "0 W") in watts. */
function watts(text) {
  const m = text.replace(/,/g, '').match(/(-?\d+(?:\.\d+)?)\s*(k?W)/);
  assert.ok(m, `a power reading: ${text}`);
  return Number(m[1]) * (m[2] === 'kW' ? 1000 : 1);
}

/** Opens a port tab and waits until `field` satisfies `ok` (the tab refreshes on opening). */
async function tabValue(page, tab, field, ok) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await page.getByTestId(`tab-${tab}`).click();
    const el = page.getByTestId(`value-${field}`);
    await el.waitFor();
    const v = watts(await el.innerText());
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${field} stayed at ${v}`);
    await page.getByRole('tab', { name: 'Basic information' }).click();
    await page.getByTestId('info-power').waitFor();
    await new Promise((res) => setTimeout(res, 2000));
  }
}

/** Switches the inverter on the open screen on or off through the confirmation dialog. */
async function switchTo(page, on) {
  const button = page.getByTestId(on ? 'power-on' : 'power-off');
  await button.click();
  await page
    .locator('.ant-modal')
    .filter({ hasText: on ? 'Power on' : 'Power off' })
    .waitFor();
  await page.locator('#power-confirm').click();
  assert.equal(await finalStatus(page), 'succeeded');
}

/** Waits until the screen's Power field shows `on`; answers how long it took (ms). */
async function shows(page, on, since) {
  await page.locator(`[data-testid="info-power"][data-on="${on}"]`).waitFor({ timeout: 60_000 });
  return Date.now() - since;
}

describe('inverter power off and on', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-power-', { historyDays: 1 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('an inverter switched off reads 0 and shows Off; switched on it produces and shows On', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const { inv, o: before } = await producingHybrid(page);
    const sn = inv.sn;

    await page.goto(`${server.url}/device/inverter/${encodeURIComponent(sn)}`);
    await page.getByTestId('inverter-title').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="info-power"][data-on="true"]').waitFor();
    assert.equal(await page.getByTestId('info-power').innerText(), 'On');
    assert.ok(await page.getByTestId('power-on').isDisabled(), 'already on');
    assert.ok(await page.getByTestId('power-off').isEnabled());

    // Off: the device reports it, the screen follows within a few upload cycles.
    const offAt = Date.now();
    await switchTo(page, false);
    const offAfter = await shows(page, false, offAt);
    assert.equal(await page.getByTestId('info-power').innerText(), 'Off');
    assert.ok(offAfter < 6 * CYCLE * 1000, `Off shown after ${offAfter} ms`);
    assert.ok(await page.getByTestId('power-on').isEnabled());
    assert.ok(await page.getByTestId('power-off').isDisabled(), 'already off');
    const detail = await api(page, `/api/v1/inverter/${encodeURIComponent(sn)}`);
    assert.equal(detail.data.values.power_on, false, 'the reported switch is stored');
    assert.equal(detail.data.opened, 0);
    assert.deepEqual(await output(page, sn), { pv: 0, ac: 0, battery: 0 });
    assert.equal(await tabValue(page, 'input', 'pvPower', (v) => v === 0), 0);
    assert.equal(await tabValue(page, 'output', 'acPower', (v) => v === 0), 0);
    assert.equal(await tabValue(page, 'battery', 'batteryPower', (v) => v === 0), 0);
    // Its header reads Off, never a green Normal.
    assert.equal((await page.getByTestId('inverter-status').innerText()).trim(), 'Off');

    // Its plant lists it as off; a plant whose only inverter is off reads Off itself.
    await page.goto(`${server.url}/plants/overview/${inv.plant.id}/${inv.plant.type}`);
    await page
      .locator(`[data-testid="device-row"][data-sn="${sn}"] [data-testid="device-status"]`)
      .filter({ hasText: 'Off' })
      .waitFor({ timeout: 30_000 });
    const devices = await api(page, `/api/v1/plant/${inv.plant.id}/devices`);
    const inverters = devices.data.filter((d) => d.family === 'inverter');
    if (inverters.length === 1) {
      await page.locator('[data-testid="overview-status"][data-state="off"]').waitFor();
    }

    // The plant list reads it the same way (the server's one rule, `switchedOff`): Off when
    // its only inverter is off; a plant with others still on stays as it was.
    const alone = inverters.length === 1;
    const plantOff = async () => {
      const r = await api(page, `/api/v1/plants?page=1&limit=100`);
      return r.data.infos.find((p) => p.id === inv.plant.id)?.switchedOff;
    };
    assert.equal(await plantOff(), alone, 'the list item says whether the plant is off');
    await page.goto(`${server.url}/plants?name=${encodeURIComponent(inv.plant.name)}`);
    const listed = page.locator(
      `tr:has(a[href^="/plants/overview/${inv.plant.id}/"]) [data-testid="plant-status"]`,
    );
    await listed.waitFor({ timeout: 30_000 });
    if (alone) {
      await page
        .locator(
          `tr:has(a[href^="/plants/overview/${inv.plant.id}/"]) [data-testid="plant-status"][data-state="off"]`,
        )
        .waitFor();
      assert.equal((await listed.innerText()).trim(), 'Off');
    } else {
      assert.notEqual(await listed.getAttribute('data-state'), 'off');
    }

    // On: the output returns and the screen shows On.
    await page.goto(`${server.url}/device/inverter/${encodeURIComponent(sn)}`);
    await page.getByTestId('inverter-title').waitFor({ timeout: 30_000 });
    const onAt = Date.now();
    await switchTo(page, true);
    const onAfter = await shows(page, true, onAt);
    assert.ok(onAfter < 6 * CYCLE * 1000, `On shown after ${onAfter} ms`);
    assert.equal(await page.getByTestId('info-power').innerText(), 'On');
    if (before.pv > 0) {
      assert.ok((await tabValue(page, 'input', 'pvPower', (v) => v > 0)) > 0);
    }
    const deadline = Date.now() + 60_000;
    let now = await output(page, sn);
    while (Math.abs(now.pv) + Math.abs(now.ac) + Math.abs(now.battery) === 0) {
      assert.ok(Date.now() < deadline, `no output after power on: ${JSON.stringify(now)}`);
      await new Promise((res) => setTimeout(res, 1000));
      now = await output(page, sn);
    }
    if (before.ac !== 0) assert.notEqual(now.ac, 0, 'AC output returns');
    // switched on, the plant no longer reads Off in the list either
    const listedBy = Date.now() + 60_000;
    while ((await plantOff()) !== false) {
      assert.ok(Date.now() < listedBy, 'the plant list still says Off after power on');
      await new Promise((res) => setTimeout(res, 1000));
    }
    console.log(
      `# ${sn}: before ${JSON.stringify(before)}, Off shown after ${offAfter} ms, ` +
        `On after ${onAfter} ms, then ${JSON.stringify(now)}`,
    );
    await context.close();
  });
});

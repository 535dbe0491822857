// Live or stale, and where a day chart puts its points, against `portal serve --demo` with a
// plant whose data the test controls: its own gateway publishes (over the real MQTT broker)
// four minutes of readings that end 25 minutes ago, past the offline bound of a gateway that
// uploads every 5 minutes (docs/device-protocol.md). The overview, the inverter and the
// battery screens then say "Offline · last data <time> (<zone>)", grey the values, stop the
// flow and show the devices offline; the day chart places the four minutes on 4/1440 of its
// time axis; on a phone the overview keeps to the screen. A fresh reading makes it live again.
// Screenshots of the stale overview (desktop and phone) go to docs/screenshots.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { startDemoServer } from './demo.mjs';
import { publishAsGateway } from './mqtt.mjs';
import { REPO_DIR, USERS } from './server.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || path.join(REPO_DIR, 'docs', 'screenshots');

const GW = { sn: 'GW-E2E-LIVE', key: 'k3y-live' };
const INV = 'E2E-LIVE-INV';
const BMS = 'E2E-LIVE-BMS';
const MIN = 60_000;

/** `YYYY-MM-DD HH:MM:SS` of `ms` in `zone` (what web/src/shared/format/time.ts shows). */
function wallTime(ms, zone) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** A zone where the last 40 minutes and the next 20 fall on one day, away from midnight. */
function dayZone(now) {
  const zones = ['Europe/Madrid', 'Asia/Shanghai', 'America/Los_Angeles', 'Australia/Sydney'];
  return zones.find((z) => {
    const hour = Number(wallTime(now, z).slice(11, 13));
    return hour >= 2 && hour <= 22;
  });
}

/** A zone whose date at `now` is not the date in `zone` (one of the two always qualifies). */
function otherDateZone(now, zone) {
  const date = wallTime(now, zone).slice(0, 10);
  return ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find(
    (z) => wallTime(now, z).slice(0, 10) !== date,
  );
}

async function until(what, probe, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 500));
  }
}

/**
 * Where a chart (the ECharts instance on its element) draws the points of a series (`name`,
 * or the first): their times, their pixels, and the pixels of the axis ends.
 */
async function placement(card, name) {
  const canvas = card.locator('canvas').first();
  await canvas.waitFor();
  return canvas.evaluate((el, name) => {
    const c = el.closest('[role="img"]').chart;
    const o = c.getOption();
    const x = o.xAxis[0];
    const series = name ? o.series.find((s) => s.name === name) : o.series[0];
    const px = (t) => c.convertToPixel({ xAxisIndex: 0 }, t);
    return {
      animation: o.animation,
      type: x.type,
      min: x.min,
      max: x.max,
      xs: series.data.map((d) => d[0]),
      pxs: series.data.map((d) => px(d[0])),
      left: px(x.min),
      right: px(x.max),
    };
  }, name);
}

/** Every point sits where its time falls: pixel offsets proportional to time offsets. */
function assertProportional(p) {
  const width = p.right - p.left;
  assert.ok(width > 200, `axis ${width}px wide`);
  p.xs.forEach((t, i) => {
    const expected = p.left + ((t - p.min) / (p.max - p.min)) * width;
    assert.ok(Math.abs(p.pxs[i] - expected) < 0.5, `point ${i} at ${p.pxs[i]}, not ${expected}`);
  });
}

describe('live and stale values, day charts on a time axis', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-live-', { historyDays: 1 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** One reading of the inverter and its battery stack at `ts`, as the gateway sends it. */
  const publish = (ts, pv) =>
    publishAsGateway({
      host: '127.0.0.1',
      port: server.mqttPort,
      ...GW,
      topic: `portal/v1/${GW.sn}/telemetry`,
      payload: {
        v: 1,
        ts,
        devices: [
          {
            sn: INV,
            family: 'inverter',
            type: 2,
            protocol: 'deye-hybrid-1ph',
            model: 'SIM-2-8K',
            values: {
              pv1_power: pv,
              battery_power: 1500,
              battery_soc: 64,
              grid_power: -800,
              load_power: pv + 1500 - 800,
            },
          },
          {
            sn: BMS,
            family: 'battery',
            protocol: 'bms-lv-stack',
            parent: INV,
            values: {
              soc: 64,
              power: 1500,
              voltage: 52.1,
              current: 28.8,
              cell1_voltage: 3.301,
              cell1_temperature: 24.5,
              cell2_voltage: 3.312,
              cell2_temperature: 25,
            },
          },
        ],
      },
    });

  it('shows a silent plant as offline with its last data, then live again', async () => {
    const now = Date.now();
    const zone = dayZone(now);
    // The browser sits where today is another date than at the plant: the day charts must
    // still open on the plant's today.
    const { context, page } = await newPage(browser, { timezoneId: otherDateZone(now, zone) });

    // ---- the admin registers the gateway; the owner makes a plant and binds it
    await signIn(page, server.url, USERS.admin);
    const created = await api(page, '/api/v1/gateway/create', {
      method: 'POST',
      body: JSON.stringify(GW),
    });
    assert.equal(created.code, 0, JSON.stringify(created));
    await page.evaluate(() => localStorage.clear());
    await signIn(page, server.url, USERS.owner);
    const made = await api(page, '/api/v1/plant', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Silent roof',
        totalPower: 8,
        type: 3,
        currency: 'EUR',
        timezone: zone,
        address: 'Calle Mayor 1',
        lon: -3.7,
        lat: 40.4,
        charges: [{ type: 1, price: 0.2 }],
      }),
    });
    assert.equal(made.code, 0, JSON.stringify(made));
    const plant = made.data;
    const bound = await api(page, `/api/v1/plant/${plant}/gateway`, {
      method: 'POST',
      body: JSON.stringify(GW),
    });
    assert.equal(bound.code, 0, JSON.stringify(bound));
    await publishAsGateway({
      host: '127.0.0.1',
      port: server.mqttPort,
      ...GW,
      topic: `portal/v1/${GW.sn}/status`,
      payload: { v: 1, online: true, uploadCycle: 300 },
    });

    // ---- four minutes of readings, a minute apart, ending 25 minutes ago
    const times = [29, 28, 27, 26, 25].map((m) => now - m * MIN);
    for (const [i, ts] of times.entries()) await publish(ts, 3000 + 100 * i);
    const last = times[times.length - 1];
    await until('the devices', async () => {
      const r = await api(page, `/api/v1/plant/${plant}/devices`);
      return r.data?.length === 2 && r.data.every((d) => d.updateAt) && r.data;
    });

    // ---- the overview: offline, last data in the plant's zone, greyed, nothing moving
    await page.goto(`${server.url}/plants/overview/${plant}/3`);
    const notice = page.getByTestId('stale-notice');
    await notice.waitFor();
    const lastText = `${wallTime(last, zone)} (${zone})`;
    assert.match(
      await notice.textContent(),
      new RegExp(`Offline · last data ${lastText.replace(/[()]/g, '\\$&')}`),
    );
    await page.getByTestId('flow-diagram').waitFor();
    assert.equal(await page.getByTestId('flow-diagram').getAttribute('data-stale'), 'true');
    await page.getByTestId('chart-day').locator('canvas').waitFor();
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'overview-stale.png'), fullPage: true });
    assert.equal(await page.locator('.flow-line.is-active').count(), 0, 'no flow animation');
    const pac = page.getByTestId('today-pac');
    assert.equal(await pac.locator('xpath=..').getAttribute('data-stale'), 'true');
    assert.equal(
      await pac.locator('xpath=..').evaluate((el) => getComputedStyle(el).opacity),
      '0.5',
      'greyed',
    );
    assert.equal((await page.getByTestId('overview-status').textContent()).trim(), 'Offline');
    const statuses = await page.getByTestId('device-status').allTextContents();
    assert.deepEqual(
      statuses.map((s) => s.trim()),
      ['Offline', 'Offline'],
    );
    assert.match(
      await page.getByTestId('device-last').first().textContent(),
      new RegExp(`\\(${zone}\\)`),
    );

    // ---- the plant's day chart puts its 5-minute points at their plant-local times
    const first = wallTime(times[0], zone);
    const minuteOfDay = Number(first.slice(11, 13)) * 60 + Number(first.slice(14, 16));
    const overview = await placement(page.getByTestId('chart-day'), 'PV');
    assert.equal(overview.type, 'time');
    assert.notEqual(overview.animation, false, 'the series grow in');
    assert.equal(overview.max - overview.min, 24 * 3600 * 1000, 'the axis spans the whole day');
    assert.equal(
      Math.round((overview.xs[0] - overview.min) / MIN),
      minuteOfDay - (minuteOfDay % 5),
      'the first point sits at its 5-minute mark of the plant day',
    );
    assertProportional(overview);
    // with the system's "reduce motion" setting the chart draws its series at once
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await until('a chart without animation', async () => {
      const p = await placement(page.getByTestId('chart-day'), 'PV');
      return p.animation === false;
    });
    await page.emulateMedia({ reducedMotion: 'no-preference' });

    // ---- on a phone the overview keeps to its column and the flow stays readable (the app
    // shell around it is tested with every route)
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(500);
    await page.getByTestId('flow-diagram').waitFor();
    const phone = await page.evaluate(() => {
      const root = document.querySelector('[data-testid="plant-overview"]');
      const edge = root.getBoundingClientRect().right;
      let widest = { by: 0, what: '' };
      for (const el of root.querySelectorAll('*')) {
        const b = el.getBoundingClientRect();
        // the grid's gutter lets rows reach 8 px past the column
        if (b.width > 0 && b.right - edge > Math.max(8.5, widest.by))
          widest = { by: b.right - edge, what: `${el.tagName}.${el.className}` };
      }
      const flow = document.querySelector('[data-testid="flow-diagram"]').getBoundingClientRect();
      const titles = [...root.querySelectorAll('.ant-card-head-title')]
        .filter((t) => t.scrollWidth > t.clientWidth + 1)
        .map((t) => t.textContent);
      // a word drawn on two lines ("Generat|ion", "16|.8 °C") has two client rects
      const labels = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of node.textContent.matchAll(/\S{2,}/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1) labels.push(m[0]);
        }
      }
      return { widest, flow: flow.width, column: root.clientWidth, titles, labels };
    });
    assert.deepEqual(phone.widest, { by: 0, what: '' }, 'nothing sticks out of the overview');
    assert.ok(
      phone.flow >= phone.column - 60,
      `flow diagram ${phone.flow}px wide in a ${phone.column}px column`,
    );
    await page.screenshot({ path: path.join(SHOTS, 'overview-stale-phone.png'), fullPage: true });
    assert.deepEqual(phone.titles, [], 'no card title cut to "E..."');
    assert.deepEqual(phone.labels, [], 'no label broken inside a word');
    await page.setViewportSize({ width: 1440, height: 900 });

    // ---- the inverter and the battery say so too
    await page.goto(`${server.url}/device/inverter/${INV}`);
    await page.getByTestId('stale-notice').waitFor();
    assert.match(
      await page.getByTestId('info-last-data').textContent(),
      new RegExp(`\\(${zone}\\)$`),
    );
    await page.getByTestId('tab-input').click();
    await page.getByTestId('stale-input').waitFor();
    // the inverter's day chart: four minutes of readings take 4/1440 of the day, not most of it
    const input = await placement(page.getByTestId('series-input'));
    assert.equal(input.type, 'time');
    assert.equal(input.max - input.min, 24 * 3600 * 1000);
    assert.equal(input.xs.length, 5);
    const share = (input.pxs[4] - input.pxs[0]) / (input.right - input.left);
    assert.ok(Math.abs(share - 4 / 1440) < 0.0005, `four minutes take ${share} of the day`);
    assert.equal(Math.floor((input.xs[0] - input.min) / MIN), minuteOfDay);
    assertProportional(input);
    await page.goto(`${server.url}/device/battery/${BMS}`);
    await page.getByTestId('stale-notice').waitFor();
    assert.equal(await page.getByTestId('battery-realtime').getAttribute('data-stale'), 'true');
    assert.deepEqual(await page.getByTestId('cell-voltage').allTextContents(), [
      '3.301 V',
      '3.312 V',
    ]);
    assert.deepEqual(await page.getByTestId('cell-temp').allTextContents(), ['24.5 °C', '25 °C']);
    // the battery's day chart: the same four minutes on a time axis of the whole day
    const soc = await placement(page.getByTestId('battery-day'));
    assert.equal(soc.type, 'time');
    assert.equal(soc.xs.length, 5);
    const socShare = (soc.pxs[4] - soc.pxs[0]) / (soc.right - soc.left);
    assert.ok(Math.abs(socShare - 4 / 1440) < 0.0005, `four minutes take ${socShare} of the day`);
    assertProportional(soc);

    // ---- a reading now: live again
    await publish(Date.now(), 4200);
    await until('fresh data', async () => {
      const r = await api(page, `/api/v1/plant/${plant}/realtime`);
      return r.data?.stale === false;
    });
    await page.goto(`${server.url}/plants/overview/${plant}/3`);
    await page.getByTestId('flow-diagram').waitFor();
    await page.locator('[data-testid="flow-diagram"][data-stale="false"]').waitFor();
    assert.equal(await page.getByTestId('stale-notice').count(), 0);
    assert.equal(await page.getByTestId('flow-line-pv').getAttribute('data-direction'), 'toHub');
    assert.equal((await page.getByTestId('today-pac').textContent()).trim(), '4.2 kW');
    await context.close();
  });
});

// The screens used on the move, on a phone (390x844 and 360x740, touch): the fleet dashboard,
// the plant list, a plant's overview with its energy flow, notifications, events and alarms,
// an inverter's detail with its power on/off confirmation, and its settings. On each: every
// visible tappable control has a hit area of at least 44x44 CSS px (what a finger hits there,
// probed with elementFromPoint, so a hit area enlarged by a pseudo-element counts), the page
// does not scroll sideways, each chart shows its tooltip after a tap on it and an axis chart's
// tooltip follows a sideways drag; the date picker, the power confirmation and a dialog with a
// text field (its confirm button above the keyboard) are checked too.
//
// Against a running portal instead of one of its own: BASE=http://127.0.0.1:18299.
// PHONE_SHOTS=<dir> saves a full-page PNG per screen and width; PHONE_DEBUG=1 prints each
// chart's tooltip before and after the drag.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, newContext, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 360, height: 740 },
];
/** Apple's and WCAG 2.5.5's smallest target, CSS px. */
const MIN = 44;

const TAPPABLE = [
  'button',
  'a[href]',
  '[role="button"]',
  '[role="tab"]',
  '[role="switch"]',
  '[role="menuitem"]',
  '[role="radio"]',
  '[role="checkbox"]',
  'input[type="checkbox"]',
  'input[type="radio"]',
  '.ant-segmented-item',
  '.ant-pagination-item',
  '.ant-pagination-prev',
  '.ant-pagination-next',
  '.ant-select-selector',
  '.ant-picker',
  '.ant-tabs-tab',
  '.ant-picker-cell-in-view',
].join(',');

/**
 * The visible tappable controls whose hit area is smaller than MIN: those whose box is smaller
 * and where a point MIN/2 from their centre (up, down, left, right) hits something else. A
 * control inside another one (an icon in a button, a checkbox's input in its label) counts as
 * its outer control.
 */
function smallTargets(page, within = 'body') {
  return page.evaluate(
    ({ selector, min, within }) => {
      const root = [...document.querySelectorAll(within)].pop() ?? document.body;
      const all = [...root.querySelectorAll(selector)];
      const outer = all.filter((el) => !all.some((o) => o !== el && o.contains(el)));
      const visible = (el) => {
        if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0;
      };
      const label = (el) =>
        el.getAttribute('data-testid') ||
        el.closest('[data-testid]')?.getAttribute('data-testid') + ' > ' + el.className ||
        '';
      const hits = (el, x, y) => {
        const at = document.elementFromPoint(x, y);
        return !!at && (el.contains(at) || at.contains(el) || el.closest('label')?.contains(at));
      };
      const offenders = [];
      for (const el of outer.filter(visible)) {
        // aria-hidden copies (antd's measuring nodes) and inputs under their own wrapper
        if (el.closest('[aria-hidden="true"]')) continue;
        if (el.matches('input') && el.closest('.ant-checkbox-wrapper, .ant-radio-wrapper'))
          continue;
        let r = el.getBoundingClientRect();
        if (r.width >= min - 0.5 && r.height >= min - 0.5) continue;
        el.scrollIntoView({ block: 'center', inline: 'center' });
        r = el.getBoundingClientRect();
        const cx = r.left + r.width / 2;
        const cy = r.top + r.height / 2;
        const h = min / 2 - 1;
        const ok = [
          [cx, cy - h],
          [cx, cy + h],
          [cx - h, cy],
          [cx + h, cy],
        ].every(([x, y]) => hits(el, x, y));
        if (!ok) {
          const text = (el.innerText || el.getAttribute('aria-label') || el.title || '')
            .trim()
            .slice(0, 30);
          offenders.push(
            `${el.tagName.toLowerCase()} "${text}" [${label(el)}] ${Math.round(r.width)}x${Math.round(r.height)}`,
          );
        }
      }
      window.scrollTo(0, 0);
      return offenders;
    },
    { selector: TAPPABLE, min: MIN, within },
  );
}

/** How far the page scrolls sideways, px. */
function sideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** The text of a chart's tooltip while it shows, '' while it does not. */
function tooltipText(chart) {
  return chart.evaluate((el) => {
    const tip = [...el.querySelectorAll('div')].find((d) => {
      const s = getComputedStyle(d);
      return (
        d.style.position === 'absolute' &&
        s.display !== 'none' &&
        s.visibility !== 'hidden' &&
        Number(s.opacity) > 0
      );
    });
    return tip?.innerText.trim() ?? '';
  });
}

/** A finger drag from one point to another through the browser's touch events. */
async function drag(cdp, from, to) {
  const point = ([x, y]) => [{ x, y, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(from) });
  for (let k = 1; k <= 5; k++) {
    const at = [from[0] + ((to[0] - from[0]) * k) / 5, from[1] + ((to[1] - from[1]) * k) / 5];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(at) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/**
 * Taps each visible chart: its tooltip must show. On a chart whose tooltip follows the axis, a
 * sideways drag must then move the tooltip to another point (its text changes). Answers the
 * charts that failed and how many were tried.
 */
async function chartsWithoutTooltip(page, cdp) {
  const charts = page.locator('[role="img"]').filter({ has: page.locator('canvas') });
  const n = await charts.count();
  const missing = [];
  let tried = 0;
  for (let i = 0; i < n; i++) {
    const chart = charts.nth(i);
    if (!(await chart.isVisible())) continue;
    await chart.scrollIntoViewIfNeeded();
    const box = await chart.boundingBox();
    if (!box || box.height < 40) continue;
    tried++;
    const name = `${(await chart.getAttribute('aria-label')) ?? 'chart'} #${i}`;
    // Two points of the first series, a quarter and three quarters into its data (a day's
    // chart may have data in the morning only), where the chart draws them; the plot's middle
    // height otherwise (a pie, or no series on an axis).
    const points = await chart.evaluate((el) => {
      const c = el.chart;
      const data = c?.getOption().series?.[0]?.data;
      if (!Array.isArray(data) || data.length < 4) return null;
      const at = (k) => {
        const d = data[Math.floor(data.length * k)];
        const v = Array.isArray(d) ? d : (d?.value ?? d);
        const p = c.convertToPixel(
          { seriesIndex: 0 },
          Array.isArray(v) ? v : [Math.floor(data.length * k), v],
        );
        return Array.isArray(p) ? p[0] : null;
      };
      return [at(0.25), at(0.75)];
    });
    const y = box.y + box.height * 0.6;
    const [x1, x2] =
      points && points.every((p) => Number.isFinite(p))
        ? points.map((p) => box.x + p)
        : [box.x + box.width * 0.3, box.x + box.width * 0.75];
    await page.touchscreen.tap(x1, y);
    // shown on the chart's next frame, as after the drag below: later on a busy machine
    let shown = false;
    for (let k = 0; k < 30 && !shown; k++) {
      shown = Boolean(await tooltipText(chart));
      if (!shown) await page.waitForTimeout(100);
    }
    if (!shown) {
      missing.push(`${name}: no tooltip after a tap`);
      continue;
    }
    const axis = await chart.evaluate((el) => el.chart?.getOption().tooltip?.[0]?.trigger);
    if (axis !== 'axis') continue;
    const before = await tooltipText(chart);
    await drag(cdp, [x1, y], [x2, y]);
    // the tooltip moves on the chart's next frame, later on a busy machine
    let afterDrag = await tooltipText(chart);
    for (let waited = 0; (!afterDrag || afterDrag === before) && waited < 3_000; waited += 100) {
      await page.waitForTimeout(100);
      afterDrag = await tooltipText(chart);
    }
    if (process.env.PHONE_DEBUG) console.log(name, JSON.stringify([before, afterDrag]));
    if (!afterDrag || afterDrag === before)
      missing.push(
        `${name}: the tooltip does not follow a sideways drag of ${Math.round(x2 - x1)} px`,
      );
  }
  return { missing, tried };
}

/**
 * The online inverter (of a type with PV inputs) whose PV input readings today (in its plant's
 * zone) cover the most ten-minute slots, so that its history chart has points far enough apart
 * to scrub between. Not the most readings: a gateway that reports every few seconds has many
 * within the minutes since the server started. The demo's gateways come online and its history
 * is written some seconds after the server answers, so this waits (up to 30 s) for an hour of
 * slots.
 */
async function inverterToScrub(page) {
  let best = null;
  let most = -1;
  for (const deadline = Date.now() + 30_000; most < 6 && Date.now() < deadline;) {
    if (most >= 0) await page.waitForTimeout(1000);
    const inverters = await api(page, '/api/v1/inverters?page=1&limit=100');
    best ??= inverters.data.infos[0];
    const candidates = inverters.data.infos.filter(
      (i) => i.online && [2, 21, 22, 93, 94].includes(i.type),
    );
    for (const inverter of candidates) {
      const day = await api(page, `/api/v1/inverter/${encodeURIComponent(inverter.sn)}/input/day`);
      const slots = new Set(
        (day.data.infos[0]?.records ?? []).map((r) =>
          /(\d\d):(\d)\d/.exec(r.time)?.slice(1).join(''),
        ),
      ).size;
      if (slots > most) [best, most] = [inverter, slots];
    }
    most = Math.max(most, 0);
  }
  return best;
}

describe('on a phone', { timeout: 240_000, concurrency: 2 }, () => {
  let server;
  let browser;
  let base;
  before(async () => {
    if (process.env.BASE) base = process.env.BASE;
    else {
      server = await startDemoServer('portal-e2e-phone-', { historyDays: 2 });
      base = server.url;
    }
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of VIEWPORTS) {
    it(`the screens used on the move at ${viewport.width}x${viewport.height}`, async () => {
      const context = await newContext(browser, {
        viewport,
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 2,
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const problems = [];
      let charts = 0;
      try {
        await signIn(page, base, DEMO);
        const plants = await api(page, '/api/v1/plants?page=1&limit=100');
        const inverter = await inverterToScrub(page);
        // the inverter's plant: its day so far has the most to scrub too (the demo's plants
        // are in eight zones; minutes after a plant's midnight its day has one point or two)
        const plant =
          plants.data.infos.find((p) => p.id === inverter.plantId) ?? plants.data.infos[0];
        const sn = encodeURIComponent(inverter.sn);
        const screens = [
          ['/', 'fleet-title'],
          ['/plants', 'plants-title'],
          [`/plants/overview/${plant.id}/${plant.type}`, 'overview-name'],
          ['/notification', null],
          ['/device/event', null],
          ['/alarms', null],
          [`/device/inverter/${sn}`, 'inverter-title'],
          [`/device/setting?sn=${sn}`, 'settings-title'],
        ];
        for (const [route, testId] of screens) {
          await page.goto(`${base}${route}`);
          if (testId) await page.getByTestId(testId).waitFor({ timeout: 30_000 });
          // the data arrives and the charts animate in
          await page.waitForTimeout(1000);
          const where = `${viewport.width}px ${route}`;
          if (process.env.PHONE_SHOTS)
            await page.screenshot({
              path: `${process.env.PHONE_SHOTS}/${viewport.width}${route.replace(/[^a-zA-Z0-9]+/g, '_')}.png`,
              fullPage: true,
            });
          const over = await sideways(page);
          if (over > 1) problems.push(`${where}: scrolls sideways by ${over} px`);
          for (const o of await smallTargets(page)) problems.push(`${where}: small target ${o}`);
          const tried = await chartsWithoutTooltip(page, cdp);
          charts += tried.tried;
          for (const c of tried.missing) problems.push(`${where}: ${c}`);
          if (route.startsWith('/plants/overview/')) {
            // the day chart's date picker: its arrows and days
            await page.locator('.ant-picker').first().click();
            const panel = page.locator('.ant-picker-dropdown:visible');
            await panel.waitFor({ timeout: 5000 });
            await page.waitForTimeout(300);
            const box = await panel.boundingBox();
            if (box.x < 0 || box.x + box.width > viewport.width + 0.5)
              problems.push(`${where}: the date picker leaves the viewport`);
            for (const o of await smallTargets(
              page,
              '.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)',
            ))
              problems.push(`${where} date picker: small target ${o}`);
            await page.keyboard.press('Escape');
            await panel.waitFor({ state: 'hidden' });
          }
          if (route.startsWith('/device/inverter/')) {
            // the power confirmation: its buttons and the dialog within the viewport
            const button = page.locator(
              '[data-testid="power-off"]:enabled, [data-testid="power-on"]:enabled',
            );
            if (await button.count()) {
              await button.first().click();
              const dialog = page.getByRole('dialog');
              await dialog.waitFor({ timeout: 5000 });
              await page.waitForTimeout(400);
              const box = await dialog.boundingBox();
              if (box.x < 0 || box.x + box.width > viewport.width + 0.5 || box.y < 0)
                problems.push(`${where}: the power confirmation leaves the viewport`);
              for (const o of await smallTargets(page, '.ant-modal-wrap'))
                problems.push(`${where} power confirmation: small target ${o}`);
              await dialog.locator('.ant-modal-footer button').first().click();
              await dialog.waitFor({ state: 'hidden' });
            } else problems.push(`${where}: no power button to confirm`);
            // a port's tab: its realtime figures and its history chart
            await page.getByTestId('tab-input').click();
            await page.locator('[role="img"] canvas').first().waitFor({ timeout: 15_000 });
            await page.waitForTimeout(1000);
            const port = `${where} PV input`;
            const over = await sideways(page);
            if (over > 1) problems.push(`${port}: scrolls sideways by ${over} px`);
            for (const o of await smallTargets(page)) problems.push(`${port}: small target ${o}`);
            const tried = await chartsWithoutTooltip(page, cdp);
            charts += tried.tried;
            for (const c of tried.missing) problems.push(`${port}: ${c}`);
          }
        }
        // the settings' dialog with a text field (save as profile): its targets, and its confirm
        // button above the keyboard (the viewport shrinks to what the keyboard leaves)
        const saveAs = page.locator('[data-testid="profile-new"]:enabled');
        if (await saveAs.count()) {
          const where = `${viewport.width}px save as profile`;
          await saveAs.click();
          const dialog = page.getByRole('dialog');
          await dialog.waitFor({ timeout: 5000 });
          await page.waitForTimeout(400);
          for (const o of await smallTargets(page, '.ant-modal-wrap'))
            problems.push(`${where}: small target ${o}`);
          await dialog.locator('input[type="text"], input:not([type])').first().focus();
          const keyboard = { width: viewport.width, height: viewport.height - 300 };
          await page.setViewportSize(keyboard);
          await page.waitForTimeout(300);
          const ok = await dialog.locator('.ant-modal-footer .ant-btn-primary').boundingBox();
          if (!ok || ok.y < 0 || ok.y + ok.height > keyboard.height + 0.5)
            problems.push(
              `${where}: the keyboard hides the confirm button (${JSON.stringify(ok)})`,
            );
          await page.setViewportSize(viewport);
          await dialog.locator('.ant-modal-footer button').first().click();
          await dialog.waitFor({ state: 'hidden' });
        } else problems.push(`${viewport.width}px: no settings dialog to look at`);

        // the side menu (a drawer on a phone)
        const opener = page.getByTestId('menu-toggle');
        if (await opener.count()) {
          await opener.click();
          await page.locator('.ant-drawer [data-testid="side-menu"]').waitFor();
          await page.waitForTimeout(400);
          for (const o of await smallTargets(page, '.ant-drawer'))
            problems.push(`${viewport.width}px menu: small target ${o}`);
        }
      } finally {
        await context.close();
      }
      assert.deepEqual(problems, [], problems.join('\n'));
      assert.ok(charts > 0, 'no chart was tried');
    });
  }
});

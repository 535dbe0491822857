// Events against the demo server: a simulated meter raises a fault and a warning the way a real
// gateway does (an MQTT event message); the message bell counts them and marks them read; the
// events screen lists them with filters, opens one with its meaning and solution, downloads
// inverter events; another owner sees none of them. Then what the demo's own history looks
// like to a user: events in their categories (a working mode change is a notice, not a
// fault), one row for a trip of the ten inverters of the commercial roof with its devices
// listed, no duplicate rows, an unread count of what is still open; and a settings change
// read back in the maintenance log as the setting's name with its old and new value.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, choose, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { publishAsGateway } from './mqtt.mjs';
import { REPO_DIR, USERS } from './server.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || path.join(REPO_DIR, 'docs', 'screenshots');

async function until(what, probe, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

describe('events', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-events-');
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows raised events in the bell and the events screen, with meaning and solution', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const gateways = await until('gateways online', async () => {
      const r = await api(page, '/api/v1/gateways?page=1&limit=100');
      return r.code === 0 && r.data.total > 0 && r.data.infos.every((g) => g.lldt) && r.data;
    });
    // two gateways with a meter each: a fault (M03) on one, a warning (M01) on the other
    const raised = [];
    for (const [code, severity] of [
      ['M03', 'fault'],
      ['M01', 'warning'],
    ]) {
      const gw = gateways.infos[raised.length];
      const detail = await api(page, `/api/v1/gateway/${gw.id}`);
      const meter = detail.data.devices.find((d) => d.family === 'meter');
      assert.ok(meter, `${gw.sn} has a meter`);
      await publishAsGateway({
        host: '127.0.0.1',
        port: server.mqttPort,
        sn: gw.sn,
        // lists never carry a key: the detail gives it to those who may edit the gateway
        key: detail.data.key,
        topic: `portal/v1/${gw.sn}/event`,
        payload: { v: 1, ts: Date.now(), sn: meter.sn, code, action: 'open' },
      });
      raised.push({ sn: meter.sn, code, severity });
    }
    const events = await until('the raised events', async () => {
      const r = await api(page, '/api/v1/events?type=1&page=1&limit=50&lan=en');
      const found = raised.every((e) =>
        r.data.record.some((x) => x.sn === e.sn && x.code === e.code),
      );
      return found && r.data;
    });
    assert.ok(events.total >= 2);

    // ---- the bell counts unread messages; "mark all as read" clears it
    const count = (await api(page, '/api/v1/message/count')).data;
    assert.ok(count >= 2, `unread ${count}`);
    await page.reload();
    await page
      .getByTestId('message-count')
      .locator('.ant-scroll-number')
      .filter({ hasText: String(Math.min(count, 99)) })
      .first()
      .waitFor();
    await page.getByTestId('message-bell').click();
    await page.getByTestId('message-list').waitFor();
    await page.getByTestId('message-item').first().waitFor();
    await page
      .getByTestId('message-list')
      .getByText(`${raised[0].code} `, { exact: false })
      .first()
      .waitFor();
    await page.getByTestId('messages-read-all').click();
    await until(
      'messages read',
      async () => (await api(page, '/api/v1/message/count')).data === 0,
      15_000,
    );
    await page.waitForFunction(
      () => !document.querySelector('[data-testid="message-count"] .ant-scroll-number'),
    );

    // ---- the events screen: rows, a severity filter, the detail drawer
    await page.goto(`${server.url}/device/event`);
    await page.getByTestId('events-title').waitFor();
    assert.equal(
      await page
        .locator('[data-testid="side-menu"] .ant-menu-item-selected')
        .getAttribute('data-menu-key'),
      '/device/event',
    );
    const rows = page.locator('[data-testid="event-table"] tr.ant-table-row');
    await rows.first().waitFor();
    // a live simulated trip may add an event meanwhile: at least what the API listed, one page
    const shown = await rows.count();
    assert.ok(shown >= Math.min(events.total, 20) && shown <= 20, `rows ${shown}`);

    await choose(page, page.getByTestId('event-severity'), 'Fault');
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-testid="event-table"] tr.ant-table-row')];
      return rows.length > 0 && rows.every((r) => r.textContent.includes('Fault'));
    });
    await page.getByTestId('event-sn').locator('input').fill(raised[0].sn);
    await page.getByTestId('event-sn').locator('input').press('Enter');
    await page.waitForFunction(() => {
      const codes = [...document.querySelectorAll('[data-testid="event-code"]')];
      return codes.length === 1 && codes[0].textContent === 'M03';
    });
    const fault = events.record.find((e) => e.sn === raised[0].sn && e.code === 'M03');
    await page.getByTestId('event-code').click();
    await page.getByTestId('event-drawer').waitFor();
    await page.getByTestId('event-meaning').filter({ hasText: fault.meaning }).waitFor();
    await page.getByTestId('event-solution').filter({ hasText: fault.solution }).waitFor();
    await page.keyboard.press('Escape');

    // ---- a download of inverter events (the owner may export events)
    await page.getByTestId('events-download').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByText('Inverter events (.xlsx)').click(),
    ]);
    assert.equal(download.suggestedFilename(), 'inverter-events.xlsx');
    assert.equal(
      readFileSync(await download.path())
        .subarray(0, 2)
        .toString(),
      'PK',
    );
    await context.close();

    // ---- another owner sees no events and no messages
    const other = await newPage(browser);
    await signIn(other.page, server.url, USERS.owner, { to: '/device/event' });
    await other.page.getByTestId('events-title').waitFor();
    await other.page
      .getByText('No events: every device is running without warnings or faults')
      .waitFor();
    assert.equal((await api(other.page, '/api/v1/events')).data.total, 0);
    assert.equal((await api(other.page, '/api/v1/message/count')).data, 0);
    await other.context.close();
  });

  it('shows the demo history by category, one row per occurrence, and a sane unread count', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const all = [];
    for (let p = 1; ; p++) {
      const r = await api(page, `/api/v1/events?type=1&page=${p}&limit=200&lan=en`);
      all.push(...r.data.record);
      if (!r.data.nextToken) break;
    }
    // no two rows for one occurrence: the same code on the same plant at the same time
    const keys = all.map((e) => `${e.plantId} ${e.code} ${e.occurTime}`);
    assert.equal(new Set(keys).size, keys.length, 'duplicate rows');
    // the commercial roof's trips are one row with its ten inverters
    const roof = all.find((e) => e.deviceCount === 10);
    assert.ok(roof, 'a trip of the ten inverters behind one gateway');
    assert.equal(new Set(roof.devices.map((d) => d.sn)).size, 10);
    // categories: a working mode change is a notice; nothing else is called a fault wrongly
    const byCode = (code) => all.filter((e) => e.code === code);
    assert.ok(byCode('F13').length > 0, 'the demo has working mode changes');
    assert.ok(byCode('F13').every((e) => e.severity === 'info' && e.level === 1));
    assert.ok(byCode('F35').every((e) => e.severity === 'warning'));
    assert.ok(new Set(all.map((e) => e.severity)).size >= 2, 'more than one category');
    const perDevice = (await api(page, '/api/v1/events?group=0&limit=1')).data.total;
    assert.ok(perDevice > all.length, `${perDevice} device events in ${all.length} rows`);

    // unread: only open warnings and faults, never more than the open occurrences
    const unread = (await api(page, '/api/v1/message/count')).data;
    const open = (await api(page, '/api/v1/overview/eventCount')).data;
    assert.ok(unread <= open.total, `unread ${unread} > open ${open.total}`);
    const unreadList = await api(page, '/api/v1/messages?status=0&pageSize=100');
    assert.equal(unreadList.data.total, unread);
    const messages = (await api(page, '/api/v1/messages?status=-1&pageSize=100')).data;
    assert.ok(
      messages.infos.every((m) => m.type !== 'info'),
      'notices are not messages',
    );
    assert.ok(messages.infos.filter((m) => m.resolved).every((m) => m.status === 1));
    assert.ok(messages.total > unread, 'recovered messages do not count as unread');

    // ---- the screen: the roof's trip is one row with "+9 more"; its devices in the drawer
    await page.goto(`${server.url}/device/event`);
    await page.getByTestId('events-title').waitFor();
    await choose(page, page.getByTestId('event-plant'), roof.plantName);
    await choose(
      page,
      page.getByTestId('event-severity'),
      roof.severity === 'info' ? 'Notice' : roof.severity === 'fault' ? 'Fault' : 'Warning',
    );
    const rows = page.locator('[data-testid="event-table"] tr.ant-table-row');
    const row = rows.filter({ hasText: roof.occurTime }).filter({ hasText: roof.code });
    await row.first().waitFor();
    assert.equal(await row.count(), 1, 'one row for the trip');
    await row.getByText('+9 more').click();
    await page.getByTestId('event-devices').waitFor();
    assert.equal(await page.locator('[data-testid="event-devices"] tr.ant-table-row').count(), 10);
    mkdirSync(SHOTS, { recursive: true });
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(SHOTS, 'events-occurrence.png') });
    await page.keyboard.press('Escape');
    // the notices are called notices
    await choose(page, page.getByTestId('event-severity'), 'Notice');
    await page.waitForFunction(() => {
      const cells = [...document.querySelectorAll('[data-testid="event-severity-cell"]')];
      return cells.length > 0 && cells.every((c) => c.dataset.severity === 'info');
    });
    const shownRows = await rows.count();
    const shownText = await page.getByTestId('event-table').innerText();
    assert.ok(shownRows > 0 && !shownText.includes('Fault'), 'a notice is not a fault');

    // the bell shows the unread count (nothing when nothing is open and unread)
    await page.reload();
    await page.getByTestId('message-bell').waitFor();
    const badge = page.getByTestId('message-count').locator('.ant-scroll-number');
    if (unread > 0)
      await badge
        .filter({ hasText: String(Math.min(unread, 99)) })
        .first()
        .waitFor();
    else assert.equal(await badge.count(), 0);
    await context.close();

    // on a phone: one stacked cell per occurrence, no column to scroll to
    const phone = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await signIn(phone.page, server.url, DEMO, { to: '/device/event' });
    await phone.page.getByTestId('event-card').first().waitFor();
    const card = await phone.page.getByTestId('event-card').first().innerText();
    assert.match(card, /Notice|Warning|Fault/);
    await phone.page.screenshot({ path: path.join(SHOTS, 'events-phone.png') });
    await phone.context.close();
  });

  it('reads a settings change back as the setting’s name with its old and new value', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    // an online inverter whose settings the owner may change
    const inverters = (await api(page, '/api/v1/inverters?page=1&limit=100')).data.infos;
    let sn = null;
    let field = null;
    for (const inv of inverters.filter((i) => i.status === 1)) {
      const support = await api(page, `/api/v1/inverter/setting/${inv.sn}/support`);
      if (support.code !== 0 || !support.data.editable) continue;
      field = support.data.groups
        .flatMap((g) => g.fields)
        .find((f) => f.key === 'batteryMaxCurrentCharge');
      if (field) {
        sn = inv.sn;
        break;
      }
    }
    assert.ok(sn, 'a hybrid inverter online');
    const before = (await api(page, `/api/v1/common/setting/${sn}/read`)).data
      .batteryMaxCurrentCharge;
    const after = String(Number(before) === field.min ? field.min + 1 : field.min);
    const set = await api(page, `/api/v1/common/setting/${sn}/set`, {
      method: 'POST',
      body: JSON.stringify({ batteryMaxCurrentCharge: after }),
    });
    assert.equal(set.code, 0, JSON.stringify(set));
    await until(
      'the device applied it',
      async () =>
        (await api(page, `/api/v1/command/${set.data.commandId}`)).data.status === 'succeeded',
      60_000,
    );
    await context.close();

    // the administrator reads the maintenance log: the setting's name, old -> new, the unit
    const admin = await newPage(browser);
    await signIn(admin.page, server.url, USERS.admin, { to: '/log/uphold' });
    await admin.page.getByTestId('audit-title').waitFor();
    const entry = admin.page
      .locator('[data-testid="audit-table"] tr.ant-table-row')
      .filter({ hasText: sn });
    await entry.first().waitFor();
    const detail = await entry.first().getByTestId('audit-detail').innerText();
    assert.equal(detail.trim(), `Max charge current: ${before} A → ${after} A`);
    assert.ok(!(await entry.first().innerText()).includes('batteryMaxCurrentCharge'));
    await entry.first().getByText('Succeeded').waitFor();
    await admin.page.screenshot({ path: path.join(SHOTS, 'maintenance-log.png') });
    await admin.context.close();
  });
});

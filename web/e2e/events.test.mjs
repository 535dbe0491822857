// Events against the demo server: a simulated meter raises a fault and a warning the way a real
// gateway does (an MQTT event message); the message bell counts them and marks them read; the
// events screen lists them with filters, opens one with its meaning and solution, downloads
// inverter events; another owner sees none of them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { api, choose, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { publishAsGateway } from './mqtt.mjs';
import { USERS } from './server.mjs';

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
    await signIn(other.page, server.url, USERS.owner);
    await other.page.goto(`${server.url}/device/event`);
    await other.page.getByTestId('events-title').waitFor();
    await other.page
      .getByText('No events: every device is running without warnings or faults')
      .waitFor();
    assert.equal((await api(other.page, '/api/v1/events')).data.total, 0);
    assert.equal((await api(other.page, '/api/v1/message/count')).data, 0);
    await other.context.close();
  });
});

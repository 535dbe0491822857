// The Notification screen against the demo server: a simulated meter raises a fault and a
// warning; the bell's "View all" opens every message of the user, the unread count matches the
// bell's, filters by read state and kind narrow the list, one message is marked read, then all,
// and the bell's count goes with them. It fits a phone.
//
// The alarm screens on the same server (docs/alarms.md, docs/webhooks.md): the installer's
// company administrator tunes a rule (a value out of range is refused by the form), finds the
// case a meter's fault opened on /alarms, acknowledges it with a comment (who and when in its
// history), and adds a webhook pointing at a receiver on loopback whose secret is shown once
// and signs the test delivery. /alarms fits a phone.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, choose, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { publishAsGateway } from './mqtt.mjs';
import { REPO_DIR } from './server.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || path.join(REPO_DIR, 'docs', 'screenshots');
/** The alarm screens' pictures are for looking at, not for docs/ (unless SCREENSHOT_DIR says). */
const ALARM_SHOTS = process.env.SCREENSHOT_DIR || path.join(os.tmpdir(), 'portal-e2e-alarms');
/** The demo installer's company administrator (crates/portal/src/demo_company.rs). */
const INSTALLER = { account: 'installer@example.com', password: DEMO.password };

async function until(what, probe, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

const rows = (page) => page.locator('[data-testid="notifications-table"] tr.ant-table-row');
const unreadCount = async (page) => (await api(page, '/api/v1/message/count')).data;

describe('notifications', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-notifications-', {
      historyDays: 2,
      // the webhook journey's receiver listens on loopback
      env: { PORTAL_WEBHOOK_ALLOW_PRIVATE: '1' },
    });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists, filters and marks messages read, with the bell following', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const gateways = await until('gateways online', async () => {
      const r = await api(page, '/api/v1/gateways?page=1&limit=100');
      return r.code === 0 && r.data.total > 1 && r.data.infos.every((g) => g.lldt) && r.data;
    });
    // a fault (M03) and a warning (M01) on two meters, as a gateway reports them
    const raised = [];
    for (const code of ['M03', 'M01']) {
      const gw = gateways.infos[raised.length];
      const detail = await api(page, `/api/v1/gateway/${gw.id}`);
      const meter = detail.data.devices.find((d) => d.family === 'meter');
      assert.ok(meter, `${gw.sn} has a meter`);
      await publishAsGateway({
        host: '127.0.0.1',
        port: server.mqttPort,
        sn: gw.sn,
        key: detail.data.key,
        topic: `portal/v1/${gw.sn}/event`,
        payload: { v: 1, ts: Date.now(), sn: meter.sn, code, action: 'open' },
      });
      raised.push({ sn: meter.sn, code });
    }
    await until('the raised messages', async () => {
      const r = await api(page, '/api/v1/messages?status=0&pageSize=100&pageNumber=1');
      return raised.every((e) => r.data.infos.some((m) => m.content.startsWith(e.code)));
    });

    // ---- the bell's "View all"
    await page.reload();
    await page.getByTestId('message-bell').click();
    await page.getByTestId('messages-view-all').click();
    await page.waitForURL(/\/notification$/);
    await page.getByTestId('notifications-title').waitFor();
    await rows(page).first().waitFor();
    const all = (await api(page, '/api/v1/messages?status=-1&pageSize=20&pageNumber=1')).data;
    assert.equal(await rows(page).count(), all.infos.length);
    const unread = await unreadCount(page);
    assert.ok(unread >= 2, `unread ${unread}`);
    await page
      .getByTestId('notifications-unread')
      .filter({ hasText: `Unread: ${unread}` })
      .waitFor();

    // ---- unread only, then faults only
    await page.getByTestId('notifications-read-filter').getByText('Unread').click();
    await page.waitForURL(/read=unread/);
    await page.waitForFunction(() => {
      const r = [
        ...document.querySelectorAll('[data-testid="notifications-table"] tr.ant-table-row'),
      ];
      return r.length > 0 && r.every((x) => x.getAttribute('data-unread') === 'true');
    });
    await choose(page, page.getByTestId('notifications-kind-filter'), 'Fault');
    await page.waitForURL(/kind=fault/);
    await page.waitForFunction(() => {
      const kinds = [...document.querySelectorAll('[data-testid="notification-kind"]')];
      return kinds.length > 0 && kinds.every((k) => k.textContent === 'Fault');
    });
    const fault = rows(page).filter({ hasText: 'M03' }).first();
    await fault.waitFor();
    // the kind list fades out before the picture
    await page.locator('.ant-select-dropdown').waitFor({ state: 'hidden' });
    await page.waitForTimeout(300);
    await page.screenshot({ path: shot('notifications.png') });

    // ---- one read: the bell counts one less
    await fault.getByTestId('notification-read').click();
    await until('one message read', async () => (await unreadCount(page)) === unread - 1, 15_000);
    await rows(page).filter({ hasText: 'M03' }).first().waitFor({ state: 'detached' });

    // ---- all read: the bell's count goes away, nothing is unread
    await page.getByTestId('notifications-read-all').click();
    await until('all read', async () => (await unreadCount(page)) === 0, 15_000);
    await page.waitForFunction(
      () => !document.querySelector('[data-testid="message-count"] .ant-scroll-number'),
    );
    await page.getByText('No message matches these filters').waitFor();
    assert.equal(await page.getByTestId('notifications-read-all').isDisabled(), true);

    // every message is still listed, read
    await page.goto(`${server.url}/notification`);
    await rows(page).first().waitFor();
    await page.waitForFunction(() => {
      const r = [
        ...document.querySelectorAll('[data-testid="notifications-table"] tr.ant-table-row'),
      ];
      return r.length > 0 && r.every((x) => x.getAttribute('data-unread') === 'false');
    });
    await context.close();
  });

  it('fits a phone without sideways scrolling', async () => {
    const { context, page } = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await signIn(page, server.url, DEMO, { to: '/notification' });
    await page.getByTestId('notifications-title').waitFor();
    await rows(page).first().waitFor();
    await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
    const wide = await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    );
    assert.equal(wide, false, 'scrolls sideways');
    await page.screenshot({ path: shot('notifications-phone.png') });
    await context.close();
  });

  describe('alarms', () => {
    // The webhook's receiver: records each POST (headers and raw body) and answers 200.
    const received = [];
    let receiver;
    before(async () => {
      receiver = http.createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          received.push({ headers: req.headers, body: Buffer.concat(chunks) });
          res.end('ok');
        });
      });
      await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
    });
    after(() => new Promise((r) => receiver.close(r)));

    it('tunes a rule, acknowledges a case and adds a webhook', async () => {
      // ---- a fault on a meter (as its gateway reports it): the company's default event_code
      // rule (every fault) opens a case on its next tick (30 s)
      const owner = await newPage(browser);
      await signIn(owner.page, server.url, DEMO);
      const gateways = await until('gateways online', async () => {
        const r = await api(owner.page, '/api/v1/gateways?page=1&limit=100');
        return (
          r.code === 0 && r.data.infos.length > 0 && r.data.infos.every((g) => g.lldt) && r.data
        );
      });
      const gw = gateways.infos[0];
      const detail = await api(owner.page, `/api/v1/gateway/${gw.id}`);
      const meter = detail.data.devices.find((d) => d.family === 'meter');
      assert.ok(meter, `${gw.sn} has a meter`);
      await publishAsGateway({
        host: '127.0.0.1',
        port: server.mqttPort,
        sn: gw.sn,
        key: detail.data.key,
        topic: `portal/v1/${gw.sn}/event`,
        payload: { v: 1, ts: Date.now(), sn: meter.sn, code: 'M03', action: 'open' },
      });
      await owner.context.close();

      const { context, page } = await newPage(browser);
      await signIn(page, server.url, INSTALLER);

      // ---- Company > Alarm rules: a rule's parameter changed and saved
      await page.goto(`${server.url}/enterprise/alarmRules`);
      const ruleRow = (kind) =>
        page.locator('[data-testid="rules-table"] tr.ant-table-row').filter({ hasText: kind });
      await ruleRow('Weak string').waitFor();
      const param = (key) =>
        page
          .locator(
            `[data-testid="rule-param-${key}"] input, input[data-testid="rule-param-${key}"]`,
          )
          .first();
      await ruleRow('Weak string').getByTestId('action-edit').click();
      await param('percent').fill('35');
      await page.getByTestId('rule-submit').click();
      await page.getByText('Rule saved').waitFor();
      await ruleRow('Weak string').filter({ hasText: 'Below the median by (%) 35' }).waitFor();
      const rules = async () => (await api(page, '/api/v1/alarm/rules')).data;
      assert.equal((await rules()).find((r) => r.kind === 'string_low').params.percent, 35);

      // ...and a value out of range refused by the form's message, nothing sent
      await ruleRow('Device not reporting').getByTestId('action-edit').click();
      await param('warningCycles').fill('10');
      await page.getByTestId('rule-submit').click();
      await page
        .locator('.ant-form-item-explain-error')
        .filter({ hasText: 'Out of range: Alarm after missed cycles' })
        .waitFor();
      await page.locator('.ant-modal').getByRole('button', { name: 'Cancel' }).click();
      await page.locator('.ant-modal').waitFor({ state: 'hidden' });
      const silent = (await rules()).find((r) => r.kind === 'device_silent');
      assert.equal(silent.params.warningCycles, 3, 'unchanged');

      // ---- /alarms: the meter's case, acknowledged with a comment
      await until('the fault case', async () => {
        const r = await api(page, '/api/v1/alarm/cases?state=open&kind=event_code&limit=100');
        return r.data.infos.some((c) => c.subject === `${meter.sn}/M03`);
      });
      await page.goto(`${server.url}/alarms?kind=event_code`);
      const caseRow = page
        .locator('[data-testid="alarm-table"] tr.ant-table-row')
        .filter({ hasText: meter.sn })
        .filter({ hasText: 'M03' })
        .first();
      await caseRow.getByTestId('alarm-ack').click();
      await page.getByTestId('alarm-ack-comment').fill('Meter checked on site tomorrow');
      await page.getByTestId('alarm-ack-submit').click();
      await caseRow.filter({ hasText: 'Acknowledged' }).waitFor();
      await caseRow.getByTestId('alarm-open').click();
      const acked = page
        .getByTestId('alarm-history-item')
        .filter({ hasText: 'Acknowledged' })
        .filter({ hasText: INSTALLER.account });
      await acked.filter({ hasText: 'Meter checked on site tomorrow' }).waitFor();
      assert.match(await acked.innerText(), /\d{4}-\d{2}-\d{2} \d{2}:\d{2}/, 'when');
      await page.waitForTimeout(400); // the drawer slides in
      await page.screenshot({ path: alarmShot('alarms-acknowledged.png') });
      await page.keyboard.press('Escape');

      // ---- Settings > Webhooks: an endpoint on the loopback receiver, its secret shown once
      const url = `http://127.0.0.1:${receiver.address().port}/alarms`;
      await page.goto(`${server.url}/edit`);
      await page.getByRole('tab', { name: 'Webhooks' }).click();
      await page.getByRole('button', { name: 'Add webhook' }).click();
      await page.getByTestId('webhook-form').getByLabel('URL').fill(url);
      await page.locator('.ant-modal').getByRole('button', { name: 'Save' }).click();
      const secret = (await page.getByTestId('webhook-secret').innerText()).trim();
      assert.match(secret, /^whsec_[0-9a-f]{64}$/);
      await page.getByRole('button', { name: 'Done' }).click();
      const card = page.getByTestId('webhook-card').filter({ hasText: url });
      await card.filter({ hasText: `…${secret.slice(-4)}` }).waitFor();
      assert.ok(!(await page.content()).includes(secret.slice(6)), 'shown once');
      const listed = await page.evaluate(async () => {
        const { access_token } = JSON.parse(localStorage.getItem('portal.auth'));
        const r = await fetch('/api/v1/user/webhooks', {
          headers: { Authorization: `Bearer ${access_token}` },
        });
        return r.text();
      });
      assert.ok(!listed.includes(secret.slice(6)), 'not in the list');

      // the test delivery reaches the receiver, signed with that secret
      await card.getByRole('button', { name: 'Send test' }).click();
      await page.getByText('Test delivered (HTTP 200)').waitFor();
      const got = received.at(-1);
      const ts = got.headers['x-portal-timestamp'];
      const mac = createHmac('sha256', secret).update(`${ts}.`).update(got.body).digest('hex');
      assert.equal(got.headers['x-portal-signature'], `sha256=${mac}`);
      assert.equal(JSON.parse(got.body.toString()).event, 'test');
      await context.close();
    });

    it('shows /alarms as cards on a phone', async () => {
      const { context, page } = await newPage(browser, { viewport: { width: 390, height: 844 } });
      await signIn(page, server.url, INSTALLER, { to: '/alarms' });
      await page.getByTestId('alarm-card').first().waitFor();
      await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
      const wide = await page.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      );
      assert.equal(wide, false, 'scrolls sideways');
      await page.screenshot({ path: alarmShot('alarms-phone.png') });
      await context.close();
    });
  });
});

function shot(name) {
  mkdirSync(SHOTS, { recursive: true });
  return path.join(SHOTS, name);
}

function alarmShot(name) {
  mkdirSync(ALARM_SHOTS, { recursive: true });
  return path.join(ALARM_SHOTS, name);
}

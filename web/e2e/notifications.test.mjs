// The Notification screen against the demo server: a simulated meter raises a fault and a
// warning; the bell's "View all" opens every message of the user, the unread count matches the
// bell's, filters by read state and kind narrow the list, one message is marked read, then all,
// and the bell's count goes with them. It fits a phone.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, choose, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { publishAsGateway } from './mqtt.mjs';
import { REPO_DIR } from './server.mjs';

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

const rows = (page) => page.locator('[data-testid="notifications-table"] tr.ant-table-row');
const unreadCount = async (page) => (await api(page, '/api/v1/message/count')).data;

describe('notifications', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-notifications-', { historyDays: 2 });
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
    await signIn(page, server.url, DEMO);
    await page.goto(`${server.url}/notification`);
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
});

function shot(name) {
  mkdirSync(SHOTS, { recursive: true });
  return path.join(SHOTS, name);
}

// Gateway actions against the demo simulator: restart a gateway from its detail page (the
// batch check first, then the restart and its totals), a batch restart from the list with an
// unknown SN among them (totals with the reason), and the audit log recording each; an owner
// sees no restart buttons.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';

async function onlineGateways(page) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = await api(page, '/api/v1/gateways?page=1&limit=100&status=1');
    if (r.code === 0 && r.data.infos.length >= 3) return r.data.infos;
    if (Date.now() > deadline) throw new Error(`no online gateways: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

describe('gateway actions', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-gwactions-');
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('restarts one gateway after the check and a batch with totals and reasons', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin);
    const [first, second, third] = await onlineGateways(page);

    await page.goto(`${server.url}/device/gateway/${first.id}`);
    await page.getByTestId('gateway-title').filter({ hasText: first.sn }).waitFor();
    await page.getByTestId('gateway-restart').click();
    await page.getByTestId('restart-check').click();
    const check = page.getByTestId('restart-check-result');
    await check.getByTestId('batch-item-status').filter({ hasText: 'Ready' }).waitFor();
    // the check counts what is ready; nothing has succeeded yet (issue 13)
    const checked = await page.getByTestId('restart-check-result-totals').innerText();
    assert.match(checked, /Ready\s*1/);
    assert.doesNotMatch(checked, /Succeeded/);
    await page.getByTestId('restart-confirm').click();
    const result = page.getByTestId('restart-result');
    await result.getByTestId('batch-item-status').filter({ hasText: 'Done' }).waitFor({
      timeout: 20_000,
    });
    assert.match(await page.locator('.ant-modal').innerText(), /1 restarted, 0 failed/);
    await page.getByTestId('restart-done').click();

    // the list's batch restart: two other demo gateways (the first is away while it restarts)
    // and one that does not exist
    await page.goto(`${server.url}/device/gateway`);
    await page.getByTestId('batch-restart').click();
    await page.getByTestId('restart-sns').fill(`${second.sn}\n${third.sn}, NOPE-000001`);
    await page.getByTestId('restart-check').click();
    await page.getByTestId('restart-check-result').getByText('Gateway does not exist').waitFor();
    assert.match(await page.locator('.ant-modal').innerText(), /2 of 3 can be restarted/);
    await page.getByTestId('restart-confirm').click();
    await page.getByTestId('restart-result').waitFor({ timeout: 20_000 });
    assert.match(await page.locator('.ant-modal').innerText(), /2 restarted, 0 failed/);

    // every restart is in the audit log: three sent (one, then two) and none refused
    const audit = await api(page, '/api/v1/audit?action=gateway.restart&limit=50');
    const sent = audit.data.infos.filter((a) => a.result === 'sent').map((a) => a.target);
    assert.deepEqual(sent.sort(), [first.sn, second.sn, third.sn].sort());
    assert.ok(audit.data.infos.every((a) => a.commandStatus === 'succeeded'));
    await context.close();
  });

  it('shows no restart to an owner without the permission', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const [gw] = await onlineGateways(page);
    await page.goto(`${server.url}/device/gateway/${gw.id}`);
    await page.getByTestId('gateway-title').filter({ hasText: gw.sn }).waitFor();
    assert.equal(await page.getByTestId('gateway-restart').count(), 0);
    await page.goto(`${server.url}/device/gateway`);
    await page.getByTestId('gateways-title').waitFor();
    assert.equal(await page.getByTestId('batch-restart').count(), 0);
    const r = await api(page, `/api/v1/gateway/${gw.sn}/restart`, { method: 'POST', body: '{}' });
    assert.equal(r.data.items[0].code, 2);
    await context.close();
  });
});

// The remote debug toolbox against the demo simulator: build a Modbus read of an inverter's
// registers, send it through its gateway, see the reply decoded (registers and values), find
// the exchange in the Debug Log; the offline checks of the toolbox (CRC, LRC) work without
// a device.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';

/** A demo inverter behind an online gateway, with its gateway's protocol. */
async function onlineInverter(page) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = await api(page, '/api/v1/gateways?page=1&limit=100&status=1');
    const gw = r.code === 0 ? r.data.infos.find((g) => g.proto.startsWith('deye-')) : null;
    if (gw) {
      const d = await api(page, `/api/v1/gateway/${gw.id}`);
      const inv = d.data?.devices.find((x) => x.family === 'inverter' && x.online);
      if (inv) return { sn: inv.sn, protocol: gw.proto };
    }
    if (Date.now() > deadline) throw new Error(`no online inverter: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

/** Register values of a read response frame (spaced hex), as the test reads them itself. */
function registers(hex) {
  const b = hex.split(' ').map((x) => parseInt(x, 16));
  const n = b[2] / 2;
  return Array.from({ length: n }, (_, i) => (b[3 + 2 * i] << 8) | b[4 + 2 * i]);
}

describe('remote debug toolbox', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-debug-', { historyDays: 2 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('reads registers of an inverter through the simulator and shows them decoded', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin);
    const inverter = await onlineInverter(page);
    // rated power: a u32 at 16 (single phase) or 20 (three phase), never zero
    const address = inverter.protocol === 'deye-hybrid-1ph' ? 16 : 20;

    await page.goto(`${server.url}/debug?kind=inverter&sn=${encodeURIComponent(inverter.sn)}`);
    await page.getByTestId('debug-title').waitFor();
    await page.getByTestId('rtu-address').fill(String(address));
    await page.getByTestId('rtu-count').fill('2');
    await page.getByTestId('rtu-slave').click();
    const frame = (await page.getByTestId('rtu-frame').innerText()).trim();
    assert.match(
      frame,
      new RegExp(
        `^01 03 00 ${address.toString(16).toUpperCase().padStart(2, '0')} 00 02 [0-9A-F]{2} [0-9A-F]{2}$`,
      ),
    );
    assert.equal(await page.getByTestId('debug-sn').inputValue(), inverter.sn);
    await page.getByTestId('debug-send').click();

    // sent, then answered by the simulated inverter
    await page
      .getByTestId('debug-status')
      .filter({ hasText: 'Answered' })
      .waitFor({ timeout: 30_000 });
    const reply = (await page.getByTestId('debug-reply').innerText()).trim();
    assert.match(reply, /^01 03 04( [0-9A-F]{2}){6}$/);
    const values = registers(reply);
    assert.ok(
      values.some((v) => v !== 0),
      `rated power registers ${values}`,
    );
    const view = page.getByTestId('reply-view');
    await view.getByTestId('reply-view-crc').filter({ hasText: 'valid' }).waitFor();
    const shown = await view
      .getByTestId('register-value')
      .evaluateAll((els) => els.map((el) => Number(el.textContent)));
    assert.deepEqual(shown, values);
    assert.match(
      await view.getByTestId('reply-view-registers').innerText(),
      new RegExp(`${address} \\(0x`),
    );

    // the exchange is in the Debug Log, with its reply
    await page.goto(`${server.url}/log/debug`);
    await page.getByTestId('debug-log-title').waitFor();
    const row = page.locator('[data-testid="debug-log-table"] tr.ant-table-row').first();
    await row.filter({ hasText: inverter.sn }).waitFor();
    assert.match(await row.innerText(), new RegExp(reply.slice(0, 11)));
    assert.match(await row.innerText(), /Answered/);
    const log = await api(page, `/api/v1/logger/debug?sn=${encodeURIComponent(inverter.sn)}`);
    assert.equal(log.data.total, 1);
    assert.equal(log.data.infos[0].request, frame);
    const audit = await api(page, '/api/v1/audit?action=inverter.debug');
    assert.equal(audit.data.infos[0].target, inverter.sn);
    await context.close();
  });

  it('computes CRC and LRC of published examples without a device', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner, { to: '/debug' });
    await page.getByTestId('debug-title').waitFor();
    // an owner may build frames but not send them
    assert.equal(await page.getByTestId('debug-send').count(), 0);
    await page.getByRole('tab', { name: 'CRC / LRC' }).click();
    await page.getByTestId('checksum-input').fill('11 03 00 6B 00 03');
    await page.getByTestId('checksum-crc').filter({ hasText: '76 87' }).waitFor();
    await page.getByTestId('checksum-input').fill('F7 03 13 89 00 0A');
    assert.equal(await page.getByTestId('checksum-lrc').innerText(), '0x60');
    await page.getByRole('tab', { name: 'Frame parser' }).click();
    await page.getByTestId('parse-input').fill('01 83 02 C0 F1');
    await page
      .getByTestId('parse-view-exception')
      .filter({ hasText: 'Illegal data address' })
      .waitFor();
    await context.close();
  });
});

// Inverters against the demo server (`portal serve --demo`: simulated plants reporting live,
// with history): the list with its counts and filters, one inverter's detail with real
// readings and charts, renaming with the 32-byte rule, and another owner seeing none of them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';

const RENAMED = 'E2E roof inverter';

/** Polls the API until the demo's inverters have reported (the first history batches). */
async function waitForInverters(page) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = await api(page, '/api/v1/inverters?page=1&limit=100&status=-1&type=-2');
    if (r.code === 0 && r.data.total > 0 && r.data.infos.some((i) => i.pac > 0 || i.etotal > 0))
      return r.data;
    if (Date.now() > deadline) throw new Error(`no inverter data: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

describe('inverters', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-inverters-', { historyDays: 2 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the demo inverters, opens one with real readings and renames it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const list = await waitForInverters(page);

    // ---- /device redirects into the group; the inverter list with counts and rows
    await page.goto(`${server.url}/device/inverter`);
    await page.getByTestId('inverters-title').waitFor();
    // the demo keeps registering devices while its history is written: the card shows a
    // positive count no larger than what the API answers afterwards
    const shown = page.getByTestId('count-total').locator('.ant-statistic-content-value');
    await shown.filter({ hasText: /^[1-9]\d*$/ }).waitFor();
    const counts = await api(page, '/api/v1/inverters/count');
    assert.equal(counts.code, 0);
    assert.ok(Number(await shown.textContent()) <= counts.data.total);
    const rows = page.locator('[data-testid="inverter-table"] tr.ant-table-row');
    await rows.first().waitFor();
    assert.ok((await rows.count()) >= 1);
    assert.equal(
      await page
        .locator('[data-testid="side-menu"] .ant-menu-item-selected')
        .getAttribute('data-menu-key'),
      '/device/inverter',
    );

    // the SN filter narrows the list to one inverter
    // a hybrid (it has battery, EPS and generator tabs) that has produced energy
    const hybrid = (i) => [2, 21, 22, 93, 94].includes(i.type);
    const target = list.infos.find((i) => hybrid(i) && i.etotal > 0) ?? list.infos.find(hybrid);
    assert.ok(target, 'the demo fleet has a hybrid inverter');
    await page.getByTestId('filter-sn').locator('input').fill(target.sn);
    await page.getByTestId('filter-sn').locator('input').press('Enter');
    await page.waitForFunction((sn) => {
      const cells = [...document.querySelectorAll('[data-testid="inverter-sn"]')];
      return cells.length === 1 && cells[0].textContent === sn;
    }, target.sn);

    // ---- the detail: basic information, then the PV input with values and the day curve
    await page.getByTestId('inverter-sn').first().click();
    await page.waitForURL(new RegExp(`/device/inverter/${target.sn}$`));
    await page.getByTestId('inverter-title').waitFor();
    await page.getByTestId('inverter-info').getByText(target.sn).first().waitFor();
    assert.equal(
      await page
        .locator('[data-testid="side-menu"] .ant-menu-item-selected')
        .getAttribute('data-menu-key'),
      '/device/inverter',
      'the detail highlights the inverter item',
    );

    await page.getByTestId('tab-input').click();
    await page.getByTestId('realtime-input').waitFor();
    const input = await api(page, `/api/v1/inverter/${target.sn}/realtime/input`);
    assert.equal(input.code, 0);
    const pvRows = page.locator('[data-testid="pv-inputs"] tr.ant-table-row');
    await pvRows.first().waitFor();
    assert.equal(await pvRows.count(), input.data.pvIV.length);
    // the series card draws a chart (history exists) or says there is no data for today
    const series = page.getByTestId('series-input');
    await series.locator('canvas, .ant-empty').first().waitFor();

    await page.getByTestId('tab-battery').click();
    await page.getByTestId('realtime-battery').waitFor();
    const battery = await api(page, `/api/v1/inverter/battery/${target.sn}/realtime`);
    assert.equal(battery.code, 0);
    assert.ok(battery.data.soc !== null, 'a simulated hybrid reports its SOC');
    // live values move every few seconds: the cell shows a percentage, not a fixed number
    await page
      .getByTestId('value-soc')
      .filter({ hasText: /^\d+(\.\d+)? %$/ })
      .waitFor();
    await page.getByTestId('series-battery').getByText('Year').click();
    await page.getByTestId('series-battery').locator('canvas, .ant-empty').first().waitFor();

    // ---- rename: the 32-byte rule in the form, then a real name
    await page.getByRole('tab', { name: 'Basic information' }).click();
    await page.getByTestId('rename').click();
    await page.getByTestId('alias-input').fill('逆'.repeat(11));
    await page.getByTestId('alias-submit').click();
    await page.getByText('At most 32 bytes').waitFor();
    await page.getByTestId('alias-input').fill(RENAMED);
    await page.getByTestId('alias-submit').click();
    await page.getByTestId('inverter-title').filter({ hasText: RENAMED }).waitFor();
    const detail = await api(page, `/api/v1/inverter/${target.sn}`);
    assert.equal(detail.data.alias, RENAMED);
    await page.getByTestId('info-alias').filter({ hasText: RENAMED }).waitFor();
    if (process.env.INVERTER_SHOTS) {
      for (const tab of ['input', 'battery', 'grid']) {
        await page.getByTestId(`tab-${tab}`).click();
        await page.getByTestId(`series-${tab}`).locator('canvas, .ant-empty').first().waitFor();
        await page.waitForTimeout(800);
        await page.screenshot({ path: `${process.env.INVERTER_SHOTS}/detail-${tab}.png` });
      }
      await page.getByTestId('tab-output').click();
      await page.getByTestId('series-output').locator('canvas, .ant-empty').first().waitFor();
      await page.waitForTimeout(1000);
      await page.screenshot({ path: `${process.env.INVERTER_SHOTS}/detail-output.png` });
      await page.goto(`${server.url}/device/inverter`);
      await page.locator('[data-testid="inverter-table"] tr.ant-table-row').first().waitFor();
      await page.waitForTimeout(1000);
      await page.screenshot({ path: `${process.env.INVERTER_SHOTS}/list.png` });
    }
    await context.close();
  });

  it('shows another owner none of the demo inverters', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner, { to: '/device/inverter' });
    await page.getByTestId('inverters-title').waitFor();
    await page.getByText('No inverters yet').waitFor();
    const demoSn = (await api(page, '/api/v1/inverters')).data.infos;
    assert.deepEqual(demoSn, []);
    await page.goto(`${server.url}/device/inverter/NOT-MINE-0001`);
    await page.getByText('This inverter does not exist or is not visible to you.').waitFor();
    await context.close();
  });

  it('shows the list and the detail tabs translated in zh and es', async () => {
    for (const [lang, title, tab, missing] of [
      ['zh', '逆变器', '光伏输入', '暂无逆变器'],
      ['es', 'Inversores', 'Entrada FV', 'Aún no hay inversores'],
    ]) {
      const { context, page } = await newPage(browser);
      await page.addInitScript((l) => localStorage.setItem('portal.lang', l), lang);
      await signIn(page, server.url, DEMO, { to: '/device/inverter' });
      assert.equal(await page.getByTestId('inverters-title').innerText(), title);
      await page.getByTestId('inverter-sn').first().click();
      await page.getByTestId('tab-input').filter({ hasText: tab }).waitFor();
      await context.close();
      const other = await newPage(browser);
      await other.page.addInitScript((l) => localStorage.setItem('portal.lang', l), lang);
      await signIn(other.page, server.url, USERS.owner, { to: '/device/inverter' });
      await other.page.getByText(missing, { exact: false }).waitFor();
      await other.context.close();
    }
  });
});

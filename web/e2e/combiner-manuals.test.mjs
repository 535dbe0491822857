// Combiner boxes and manuals against the demo server: the demo roof's 16-string combiner box
// in the list and its detail (every string in the table and the bars, the weak string flagged
// when the sun is high enough to judge, the day chart); the demo owner's manuals (only those
// of the models the owner has) with a working download; another owner seeing neither.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';

async function waitFor(page, url, ready) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = await api(page, url);
    if (r.code === 0 && ready(r.data)) return r.data;
    if (Date.now() > deadline) throw new Error(`${url} never got ready: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

describe('combiner boxes and manuals', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-combiner-', { historyDays: 3 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the combiner box and shows each of its strings', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const list = await waitFor(page, '/api/v1/combiners?page=1&limit=10', (d) =>
      d.infos.some((c) => c.strings === 16),
    );
    const box = list.infos.find((c) => c.strings === 16);

    await page.goto(`${server.url}/device/combiner`);
    await page.locator('[data-testid="combiner-table"] tr.ant-table-row').first().waitFor();
    await page.getByTestId('combiner-sn').filter({ hasText: box.sn }).click();
    await page.waitForURL(new RegExp(`/device/combiner/${box.sn}$`));
    await page.getByTestId('combiner-title').filter({ hasText: box.sn }).waitFor();

    const rt = await api(page, `/api/v1/combiner/${box.sn}/realtime`);
    assert.equal(rt.code, 0);
    assert.equal(rt.data.strings.length, 16);
    const rows = page.locator('[data-testid="combiner-string-table"] tr.ant-table-row');
    await rows.nth(15).waitFor();
    assert.equal(await rows.count(), 16);
    await page.getByTestId('combiner-string-bars').locator('canvas').waitFor();
    if (rt.data.judged) {
      // The simulated box has one weak string (string 5), flagged in the table and the alert.
      assert.deepEqual(
        rt.data.strings.filter((s) => s.weak).map((s) => s.no),
        [5],
      );
      await page.getByTestId('combiner-weak-alert').waitFor();
      assert.equal(await page.getByTestId('combiner-weak-tag').count(), 1);
    }
    // Before sunrise the day has no curve yet: then the month's bars (the demo's history) show.
    const history = page.getByTestId('combiner-history');
    await history.locator('canvas, .ant-empty').first().waitFor();
    if ((await history.locator('.ant-empty').count()) > 0) {
      await history.locator('.ant-segmented').getByText('Month', { exact: true }).click();
    }
    await history.locator('canvas').waitFor();

    // another owner sees no combiner box
    const other = await newPage(browser);
    await signIn(other.page, server.url, USERS.owner);
    const theirs = await api(other.page, '/api/v1/combiners');
    assert.equal(theirs.data.total, 0);
    const missing = await api(other.page, `/api/v1/combiner/${box.sn}/realtime`);
    assert.equal(missing.code, 600);
    await other.context.close();
    await context.close();
  });

  it("lists the manuals of the owner's models and downloads one", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, DEMO);
    const manuals = await waitFor(page, '/api/v1/manuals', (d) => d.total > 0);
    await page.goto(`${server.url}/device/manuals`);
    const cards = page.getByTestId('manual-card');
    await cards.first().waitFor();
    assert.equal(await cards.count(), manuals.infos.length);
    const first = manuals.infos[0];
    const bytes = await page.evaluate(async (id) => {
      const { access_token } = JSON.parse(localStorage.getItem('portal.auth'));
      const res = await fetch(`/api/v1/manual/${id}/download`, {
        headers: { Authorization: `Bearer ${access_token}` },
      });
      return { type: res.headers.get('content-type'), head: (await res.text()).slice(0, 5) };
    }, first.id);
    assert.deepEqual(bytes, { type: 'application/pdf', head: '%PDF-' });

    const other = await newPage(browser);
    await signIn(other.page, server.url, USERS.owner);
    assert.equal((await api(other.page, '/api/v1/manuals')).data.total, 0);
    const refused = await api(other.page, `/api/v1/manual/${first.id}/download`);
    assert.equal(refused.code, 4100);
    await other.context.close();
    await context.close();
  });
});

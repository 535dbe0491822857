// The communication log against the demo server: /log opens the maintenance log; the log lists
// the demo gateways with their traffic; a gateway's telemetry appears, filters by direction and
// kind narrow it, a payload opens indented; a debug frame sent to an inverter shows as a
// downlink with its command and the reply under it; an inverter's page leads to its gateway's
// log; company staff and an agent read the gateways they may see and no other, and an owner has
// no such screen. It fits a phone.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, choose, launch, menuKeys, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { REPO_DIR, USERS } from './server.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || path.join(REPO_DIR, 'docs', 'screenshots');
const STAFF = { account: 'staff@example.com', password: DEMO.password };
const AGENT = { account: 'agent@example.com', password: DEMO.password };

async function until(what, probe, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

/** Modbus RTU CRC-16, low byte first, as the frame carries it. */
function withCrc(bytes) {
  let crc = 0xffff;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >> 1) ^ 0xa001 : crc >> 1;
  }
  return [...bytes, crc & 0xff, crc >> 8]
    .map((b) => b.toString(16).toUpperCase().padStart(2, '0'))
    .join(' ');
}

/** The rows of the messages table, as the page shows them. */
const rows = (page) => page.locator('[data-testid="commlog-messages"] tr.ant-table-row');

describe('communication log', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-comm-log-', { historyDays: 2 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("lists a gateway's messages, filters them and opens a payload", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin);

    // /log is the maintenance log; the Logging menu holds the three logs
    await page.goto(`${server.url}/log`);
    await page.waitForURL(/\/log\/uphold$/);
    for (const k of ['/log/uphold', '/log/communication', '/log/debug']) {
      await page.getByTestId('side-menu').locator(`[data-menu-key="${k}"]`).waitFor();
    }

    // a demo gateway with telemetry logged
    const gw = await until('a gateway with logged telemetry', async () => {
      const r = await api(page, '/api/v1/logger?page=1&limit=100');
      return r.code === 0 && r.data.infos.find((g) => g.uplinks > 0 && g.online);
    });
    await page.getByTestId('side-menu').locator('[data-menu-key="/log/communication"]').click();
    await page.getByTestId('commlog-title').waitFor();
    await page.getByTestId('commlog-search').locator('input').fill(gw.sn);
    await page.getByTestId('commlog-search').locator('input').press('Enter');
    const open = page.getByTestId('commlog-gateway-open').filter({ hasText: gw.sn });
    await open.waitFor();
    // the list as the search answers it (the page before the search had this gateway too)
    await page.waitForURL(/keyword=/);
    const matching = (await api(page, `/api/v1/logger?keyword=${gw.sn}&page=1&limit=10`)).data;
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="commlog-gateway-open"]').length === n,
      matching.infos.length,
    );
    await page.screenshot({ path: shot('communication-log-gateways.png') });
    await open.click();
    await page.getByTestId('commlog-gateway-title').filter({ hasText: gw.sn }).waitFor();
    await rows(page).first().waitFor();
    const listed = await api(page, `/api/v1/logger/page?sn=${gw.sn}&page=1&limit=20`);
    assert.ok(listed.data.total > 0);
    assert.equal(await rows(page).count(), Math.min(20, listed.data.total));

    // uplinks only, then telemetry only
    await page.getByTestId('commlog-direction-filter').getByText('Uplink').click();
    await page.waitForURL(/direction=up/);
    await page.waitForFunction(() => {
      const tags = [
        ...document.querySelectorAll('[data-testid="commlog-messages"] [data-direction]'),
      ];
      return tags.length > 0 && tags.every((t) => t.getAttribute('data-direction') === 'up');
    });
    await choose(page, page.getByTestId('commlog-kind-filter'), 'Telemetry');
    await page.waitForURL(/kind=telemetry/);
    await page.waitForFunction(() => {
      const kinds = [...document.querySelectorAll('[data-testid="commlog-kind"]')];
      return kinds.length > 0 && kinds.every((k) => k.getAttribute('data-kind') === 'telemetry');
    });

    // a message in full: the page shows what the API stored, indented
    await rows(page).first().getByTestId('commlog-view').click();
    const payload = page.getByTestId('commlog-payload');
    await payload.waitFor();
    const stored = (
      await api(page, `/api/v1/logger/content?id=${await payload.getAttribute('data-id')}`)
    ).data;
    assert.equal(stored.sn, gw.sn);
    assert.equal(stored.kind, 'telemetry');
    assert.equal(await payload.getAttribute('data-json'), 'true');
    assert.equal(await payload.textContent(), JSON.stringify(JSON.parse(stored.payload), null, 2));
    await page.getByTestId('commlog-drawer').getByText(stored.topic).waitFor();
    await page.screenshot({ path: shot('communication-log.png') });
    await page.keyboard.press('Escape');
    await context.close();
  });

  it('shows a command sent to an inverter as a downlink, reached from the inverter page', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin);
    const inverter = await until('an online inverter', async () => {
      const r = await api(page, '/api/v1/gateways?page=1&limit=100&status=1');
      for (const g of r.code === 0 ? r.data.infos : []) {
        const d = await api(page, `/api/v1/gateway/${g.id}`);
        const inv = d.data?.devices.find((x) => x.family === 'inverter' && x.online);
        if (inv) return { sn: inv.sn, gateway: g.sn };
      }
      return null;
    });
    const sent = await api(page, `/api/v1/inverter/${encodeURIComponent(inverter.sn)}/debug`, {
      method: 'POST',
      body: JSON.stringify({ code: withCrc([1, 3, 0, 20, 0, 2]) }),
    });
    assert.equal(sent.code, 0, JSON.stringify(sent));
    const down = await until(
      'the command in the log',
      async () => {
        const r = await api(
          page,
          `/api/v1/logger/page?sn=${inverter.gateway}&direction=down&page=1&limit=20`,
        );
        return r.data?.infos.find((m) => m.commandId === sent.data.commandId);
      },
      30_000,
    );

    await page.goto(`${server.url}/device/inverter/${encodeURIComponent(inverter.sn)}`);
    await page.getByTestId('inverter-title').waitFor();
    await page.getByTestId('commlog-open').click();
    await page.getByTestId('commlog-gateway-title').filter({ hasText: inverter.gateway }).waitFor();
    await page.getByTestId('commlog-direction-filter').getByText('Downlink').click();
    await page.waitForURL(/direction=down/);
    await page.waitForFunction(() => {
      const tags = [
        ...document.querySelectorAll('[data-testid="commlog-messages"] [data-direction]'),
      ];
      return tags.length > 0 && tags.every((t) => t.getAttribute('data-direction') === 'down');
    });
    const command = page
      .getByTestId('commlog-command')
      .getByText(String(down.commandId), { exact: true });
    await command.waitFor();
    // the inverter's answer came back up under the same command
    const reply = await until(
      'the reply in the log',
      async () => {
        const r = await api(
          page,
          `/api/v1/logger/page?sn=${inverter.gateway}&direction=up&kind=reply&page=1&limit=20`,
        );
        return r.data?.infos.find((m) => m.commandId === down.commandId);
      },
      30_000,
    );
    assert.equal(reply.kind, 'reply');
    await context.close();
  });

  it('shows company staff and an agent the gateways they may see only, an owner nothing', async () => {
    const admin = await newPage(browser);
    await signIn(admin.page, server.url, USERS.admin);
    const all = (await api(admin.page, '/api/v1/logger?page=1&limit=100')).data;
    await admin.context.close();

    const staff = await newPage(browser);
    await signIn(staff.page, server.url, STAFF);
    const theirs = (await api(staff.page, '/api/v1/logger?page=1&limit=100')).data;
    const seen = (await api(staff.page, '/api/v1/gateways?page=1&limit=100')).data;
    assert.ok(theirs.total > 0 && theirs.total <= all.total, `${theirs.total} of ${all.total}`);
    assert.deepEqual(
      theirs.infos.map((g) => g.sn).sort(),
      seen.infos.map((g) => g.sn).sort(),
      'the gateways staff may see',
    );
    await staff.page.goto(`${server.url}/log/communication`);
    await staff.page.getByTestId('commlog-title').waitFor();
    await staff.page.getByTestId('commlog-gateway-open').first().waitFor();
    assert.equal(
      await staff.page.getByTestId('commlog-gateway-open').count(),
      Math.min(10, theirs.total),
    );
    await staff.context.close();

    // the agent company reads the gateways it may see, and no other
    const agent = await newPage(browser);
    await signIn(agent.page, server.url, AGENT);
    const agents = (await api(agent.page, '/api/v1/logger?page=1&limit=100')).data;
    const agentSees = (await api(agent.page, '/api/v1/gateways?page=1&limit=100')).data;
    assert.deepEqual(
      agents.infos.map((g) => g.sn).sort(),
      agentSees.infos.map((g) => g.sn).sort(),
      'the gateways the agent may see',
    );
    const hidden = all.infos.find((g) => !agents.infos.some((a) => a.sn === g.sn));
    assert.ok(hidden, 'a gateway the agent may not see');
    const refused = await api(agent.page, `/api/v1/logger/page?sn=${hidden.sn}&page=1&limit=5`);
    assert.equal(refused.code, 4, JSON.stringify(refused));
    await agent.context.close();

    // an owner has no communication log
    const owner = await newPage(browser);
    await signIn(owner.page, server.url, DEMO);
    assert.ok(!(await menuKeys(owner.page)).includes('/log/communication'));
    assert.notEqual((await api(owner.page, '/api/v1/logger?page=1&limit=10')).code, 0);
    await owner.context.close();
  });

  it('fits a phone without sideways scrolling', async () => {
    const { context, page } = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await signIn(page, server.url, USERS.admin);
    const gw = await until('a logged gateway', async () => {
      const r = await api(page, '/api/v1/logger?page=1&limit=100');
      return r.code === 0 && r.data.infos.find((g) => g.uplinks > 0);
    });
    for (const url of ['/log/communication', `/log/communication?sn=${gw.sn}`]) {
      await page.goto(`${server.url}${url}`);
      await page
        .locator('[data-testid="commlog-title"], [data-testid="commlog-gateway-title"]')
        .first()
        .waitFor();
      await page.locator('tr.ant-table-row').first().waitFor();
      const wide = await page.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      );
      assert.equal(wide, false, `${url} scrolls sideways`);
    }
    await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
    await page.getByTestId('commlog-view').first().click();
    await page.getByTestId('commlog-payload').waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: shot('communication-log-phone.png') });
    await context.close();
  });
});

function shot(name) {
  mkdirSync(SHOTS, { recursive: true });
  return path.join(SHOTS, name);
}

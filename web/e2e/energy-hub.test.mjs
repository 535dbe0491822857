// The energy hub against the demo server: the demo owner sees the demo plants' accepted
// enrollments, enrolls a plant through the steps and sees it pending; the administrator (acting
// as the utility) accepts it, calls an event starting now, sees it active and cancels it for
// everyone; the owner sees the event cancelled. Both screens fit a phone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, choose, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';

const PROGRAMME = 'Evening peak relief';
const ACCOUNT = 'e2e-acct-7';
const EVENT = 'E2E peak relief';

async function until(what, probe, ms = 180_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

/** The enrollment table's row of a plant. */
const rowOf = (page, text) =>
  page.locator('[data-testid="hub-enrollments"] tr.ant-table-row').filter({ hasText: text });

async function me(page) {
  const r = await api(page, '/api/v1/user');
  assert.equal(r.code, 0, JSON.stringify(r));
  return r.data;
}

/**
 * A plant of the demo owner that can be enrolled (a battery inverter, no live enrollment); when
 * the demo enrolled them all, the first is quit through the screen to make room.
 */
async function freePlant(page, baseUrl) {
  const user = await me(page);
  const plants = await api(page, `/api/v1/oadr/userStationList/${user.id}`);
  assert.equal(plants.code, 0, JSON.stringify(plants));
  for (const p of plants.data) {
    if (p.enrolled) continue;
    const devices = await api(page, `/api/v1/oadr/stationMasterDevice/${p.id}`);
    if (devices.code === 0 && devices.data.some((d) => d.hasBattery)) return p.name;
  }
  const enrolled = plants.data.find((p) => p.enrolled);
  assert.ok(enrolled, 'the demo owner has no plant at all');
  await page.goto(`${baseUrl}/energyHub/enrollmentPlan`);
  const row = rowOf(page, enrolled.name).first();
  await row.getByTestId('hub-action-quit').click();
  await page.getByTestId('hub-confirm-ok').click();
  await row.locator('[data-status="unenrolled"]').waitFor();
  return enrolled.name;
}

describe('energy hub', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-energy-hub-', { historyDays: 2 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('enrolls a plant, the utility accepts it, calls an event and cancels it', async () => {
    const owner = await newPage(browser);
    await signIn(owner.page, server.url, DEMO);

    // the demo enrolls two plants once it has seeded them
    await until('the demo enrollments', async () => {
      const r = await api(owner.page, '/api/v1/oadr/enrollments?page=1&limit=10&status=accepted');
      return r.code === 0 && r.data.total >= 2;
    });

    // /energyHub opens the enrollments; the demo plants are enrolled and accepted
    await owner.page.goto(`${server.url}/energyHub`);
    await owner.page.waitForURL(/\/energyHub\/enrollmentPlan$/);
    await owner.page.getByTestId('hub-enroll-title').waitFor();
    await owner.page
      .locator('[data-testid="hub-enrollments"] [data-status="accepted"]')
      .first()
      .waitFor();

    const plant = await freePlant(owner.page, server.url);

    // the steps: programme and plant, devices (prefilled), account and contact, address
    await owner.page.getByTestId('hub-enroll-new').click();
    const drawer = owner.page.getByTestId('hub-enroll-drawer');
    await choose(owner.page, drawer.getByTestId('hub-enroll-program'), PROGRAMME);
    await choose(owner.page, drawer.getByTestId('hub-enroll-plant'), plant);
    await drawer.getByTestId('hub-enroll-next').click();
    await drawer.getByTestId('hub-enroll-device').first().waitFor();
    await drawer.getByTestId('hub-enroll-next').click();
    // client-side checks mirror the server's: an upper-case account number is refused
    await drawer.getByTestId('hub-enroll-source-account').fill('99887766');
    await drawer.getByTestId('hub-enroll-utility-account').fill('E2E');
    await drawer.getByTestId('hub-enroll-next').click();
    await drawer.locator('.ant-form-item-explain-error').filter({ hasText: 'lowercase' }).waitFor();
    await drawer.getByTestId('hub-enroll-utility-account').fill(ACCOUNT);
    await drawer.getByTestId('hub-enroll-first-name').fill('Dana');
    await drawer.getByTestId('hub-enroll-last-name').fill('Demo');
    await drawer.getByTestId('hub-enroll-email').fill('dana@example.com');
    await drawer.getByTestId('hub-enroll-next').click();
    const service = drawer.getByTestId('hub-service-address');
    await service.getByTestId('hub-service-address-country').fill('DE');
    await service.getByTestId('hub-service-address-region').fill('Bavaria');
    await service.getByTestId('hub-service-address-locality').fill('Munich');
    await service.getByTestId('hub-service-address-streetAddress').fill('Sonnenstr. 7');
    await service.getByTestId('hub-service-address-postalCode').fill('80331');
    // the time zone came from the plant
    assert.notEqual(
      (await drawer.getByTestId('hub-enroll-timezone').innerText()).trim(),
      '',
      'the plant time zone was not prefilled',
    );
    await drawer.getByTestId('hub-enroll-submit').click();
    await drawer.waitFor({ state: 'detached' });

    const row = rowOf(owner.page, ACCOUNT);
    await row.locator('[data-status="pending"]').waitFor();

    // the utility decides
    const admin = await newPage(browser);
    await signIn(admin.page, server.url, USERS.admin, {
      to: '/energyHub/enrollmentPlan?tab=programs',
    });
    const pending = admin.page
      .locator('[data-testid="hub-pending"] tr.ant-table-row')
      .filter({ hasText: ACCOUNT });
    await pending.getByTestId('hub-action-accept').click();
    await pending.waitFor({ state: 'detached' });

    await owner.page.reload();
    await rowOf(owner.page, ACCOUNT).locator('[data-status="accepted"]').waitFor();

    // an event starting now
    await admin.page.goto(`${server.url}/energyHub/event`);
    await admin.page.getByTestId('hub-events-title').waitFor();
    await admin.page.getByTestId('hub-event-new').click();
    await choose(admin.page, admin.page.getByTestId('hub-event-program'), PROGRAMME);
    await admin.page.getByTestId('hub-event-name').fill(EVENT);
    await admin.page.getByTestId('hub-event-duration').fill('30');
    await admin.page.getByTestId('hub-event-target').fill('2');
    await admin.page.getByTestId('hub-event-save').click();
    const eventRow = admin.page
      .locator('[data-testid="hub-events"] tr.ant-table-row')
      .filter({ hasText: EVENT });
    await eventRow.locator('[data-testid="hub-event-status"][data-status="active"]').waitFor();

    // its detail
    await eventRow.getByTestId('hub-event-open').click();
    await admin.page.getByTestId('hub-event-drawer').getByText('Discharge 2 kW').first().waitFor();
    await admin.page.keyboard.press('Escape');

    // the utility cancels its own event for everyone
    await eventRow.getByTestId('hub-event-cancel').click();
    await admin.page.getByText('Cancel for everyone').waitFor();
    await admin.page.getByTestId('hub-confirm-ok').click();
    await eventRow.locator('[data-testid="hub-event-status"][data-status="cancelled"]').waitFor();

    // the owner sees it cancelled and cannot cancel it again
    await owner.page.goto(`${server.url}/energyHub/event`);
    const ownerRow = owner.page
      .locator('[data-testid="hub-events"] tr.ant-table-row')
      .filter({ hasText: EVENT });
    await ownerRow.locator('[data-status="cancelled"]').waitFor();
    assert.equal(await ownerRow.getByTestId('hub-event-cancel').count(), 0);

    await owner.context.close();
    await admin.context.close();
  });

  it('keeps a utility connection whose server does not answer, with the failure shown', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin, {
      to: '/energyHub/enrollmentPlan?tab=connections',
    });
    await page.getByTestId('hub-vtns').waitFor();
    await page.getByTestId('hub-vtn-new').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('E2E utility');
    // nothing listens on the discard port: the sync must fail and say so
    await dialog.getByLabel('Server URL').fill('http://127.0.0.1:9/openadr3');
    await dialog.getByLabel('VEN name').fill('e2e-ven');
    await dialog.getByLabel('Client ID', { exact: true }).fill('e2e-client-1234');
    await dialog.getByLabel('Client secret').fill('e2e-secret-not-shown');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const row = page
      .locator('[data-testid="hub-vtns"] tr.ant-table-row')
      .filter({ hasText: 'E2E utility' });
    await row.waitFor();
    await row.getByText('1234').first().waitFor();
    assert.equal(await page.getByText('e2e-secret-not-shown').count(), 0);
    const listed = await api(page, '/api/v1/oadr/vtns');
    assert.ok(!JSON.stringify(listed).includes('e2e-secret'), 'the secret is never answered');

    await row.getByTestId('hub-vtn-sync').click();
    await row.getByText('Last sync failed').waitFor();

    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Remove' }).last().click();
    await row.waitFor({ state: 'detached' });
    await context.close();
  });

  it('fits a phone without sideways scrolling', async () => {
    const { context, page } = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await signIn(page, server.url, USERS.admin);
    for (const [url, title] of [
      ['/energyHub/enrollmentPlan', 'hub-enroll-title'],
      ['/energyHub/enrollmentPlan?tab=programs', 'hub-pending'],
      ['/energyHub/enrollmentPlan?tab=connections', 'hub-vtns'],
      ['/energyHub/event', 'hub-events-title'],
    ]) {
      await page.goto(`${server.url}${url}`);
      await page
        .locator(`[data-testid="${title}"], [data-testid="${title}-error"]`)
        .first()
        .waitFor();
      await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
      const wide = await page.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      );
      assert.equal(wide, false, `${url} scrolls sideways`);
    }
    await context.close();
  });
});

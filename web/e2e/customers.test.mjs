// Customers: a company administrator asks a plant owner to become the company's customer (with a
// type made on the customer types screen); once the owner accepts, the company's staff see the
// owner's plant. Removing the customer takes the plant out of the staff's list; the owner keeps
// it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, newPage, launch, signIn } from './browser.mjs';
import { startServer, USERS } from './server.mjs';

const COMPANY = 'Acme Solar';
const ADMIN = {
  account: 'boss@acme.example',
  password: 'Sunny-roof9',
  role: 'company-admin',
  nickname: 'Boss',
  company: COMPANY,
};
const STAFF = {
  account: 'sam@acme.example',
  password: 'Sunny-roof9',
  role: 'company-staff',
  nickname: 'Sam',
  company: COMPANY,
};
const PLANT = 'Ann roof Lisbon';

describe('customers', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer({ users: [ADMIN, STAFF] });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a customer’s plant shows to the company’s staff until the customer is removed', async () => {
    // the owner has a plant of their own
    const owner = await newPage(browser);
    await signIn(owner.page, server.url, USERS.owner);
    const made = await api(owner.page, '/api/v1/plant', {
      method: 'POST',
      body: JSON.stringify({
        name: PLANT,
        timezone: 'Europe/Lisbon',
        lon: -9.14,
        lat: 38.72,
        totalPower: 8,
        address: 'Rua Augusta 1, Lisbon',
        charges: [{ type: 1, price: 0.21 }],
      }),
    });
    assert.equal(made.code, 0, JSON.stringify(made));

    // the staff do not see it yet
    const staff = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await signIn(staff.page, server.url, STAFF);
    await staff.page.getByTestId('plant-table').getByText('No plants yet').waitFor();

    // the administrator makes a customer type, then adds the owner with it
    const admin = await newPage(browser);
    await signIn(admin.page, server.url, ADMIN);
    const { page } = admin;
    await page.goto(`${server.url}/customer/type`);
    await page.getByTestId('customer-types-title').waitFor();
    await page.getByTestId('type-add').click();
    await page.getByTestId('type-name').fill('Residential');
    await page.getByTestId('type-code').fill('RES');
    await page.getByTestId('type-save').click();
    await page.getByTestId('type-row-name').filter({ hasText: 'Residential' }).waitFor();

    // /customer leads to the list
    await page.goto(`${server.url}/customer`);
    await page.waitForURL(/\/customer\/list$/);
    await page.getByTestId('customers-title').waitFor();
    await page.getByTestId('customer-add').click();
    const account = page.getByTestId('customer-account');
    // an account nobody registered is refused when the field loses focus
    await account.fill('nobody@example.com');
    await account.blur();
    await page.getByText('This account is not registered').waitFor();
    await account.fill(USERS.owner.account);
    await account.blur();
    await page.getByText('This account is not registered').waitFor({ state: 'detached' });
    await page.getByTestId('customer-type').click();
    await page.locator('.ant-select-dropdown:visible').getByText('Residential (RES)').click();
    await page.getByTestId('customer-remark').fill('Roof in Lisbon');
    await page.getByTestId('customer-save').click();
    await page.getByText(`Request sent to ${USERS.owner.account}`).waitFor();
    // a request only: pending, and the staff still see nothing
    await page
      .getByTestId('customer-pending-row')
      .filter({ hasText: USERS.owner.account })
      .waitFor();
    await staff.page.reload();
    await staff.page.getByTestId('plant-table').getByText('No plants yet').waitFor();

    // the owner accepts it on the shared-management screen
    await owner.page.goto(`${server.url}/shares`);
    await owner.page
      .getByTestId('customer-offer')
      .filter({ hasText: COMPANY })
      .getByTestId('customer-offer-accept')
      .click();
    await owner.page.getByTestId('serving-company').filter({ hasText: COMPANY }).waitFor();

    await page.reload();
    const row = page.locator('tr.ant-table-row').filter({ hasText: USERS.owner.account });
    await row.waitFor();
    await page.getByTestId('customer-pending').waitFor({ state: 'detached' });
    assert.match(await row.innerText(), /Residential/);
    assert.equal((await row.getByTestId('customer-plants').innerText()).trim(), '1');

    // adding the same account again is refused at the field (207)
    await page.getByTestId('customer-add').click();
    await page.getByTestId('customer-account').fill(USERS.owner.account);
    await page.getByTestId('customer-account').blur();
    await page
      .getByText('This account is already a customer of your company or has been asked')
      .waitFor();
    await page.keyboard.press('Escape');

    // the type now counts its customer
    await page.goto(`${server.url}/customer/type`);
    const typeRow = page.locator('tr.ant-table-row').filter({ hasText: 'Residential' });
    await typeRow.getByTestId('type-row-customers').filter({ hasText: '1' }).waitFor();

    // the staff see the customer's plant
    await staff.page.reload();
    await staff.page.getByTestId('plant-name').filter({ hasText: PLANT }).waitFor();

    // the administrator removes the customer
    await page.goto(`${server.url}/customer/list`);
    await row.getByTestId('action-remove').click();
    await page.getByTestId('customer-remove-ok').click();
    await page.getByText('Customer removed').waitFor();
    await row.waitFor({ state: 'detached' });
    await page.getByText('No customers yet').waitFor();

    // gone from the staff's list, still the owner's
    await staff.page.reload();
    // the only plant of this server was the customer's
    await staff.page.getByTestId('plant-table').getByText('No plants yet').waitFor();
    assert.equal(
      await staff.page.getByTestId('plant-name').filter({ hasText: PLANT }).count(),
      0,
      'the staff no longer see the plant',
    );
    await owner.page.goto(`${server.url}/plants`);
    await owner.page.getByTestId('plant-name').filter({ hasText: PLANT }).waitFor();

    await owner.context.close();
    await staff.context.close();
    await admin.context.close();
  });
});

// Plants made for someone else need their consent: company staff create a plant for an owner who
// is not yet the company's customer; it stays theirs, marked as waiting, until the owner accepts
// it in the plant list, after which it is the owner's (and later plants for them need no offer).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { startServer, USERS } from './server.mjs';

const STAFF = {
  account: 'sam@acme.example',
  password: 'Sunny-roof9',
  role: 'company-staff',
  nickname: 'Sam',
  company: 'Acme Solar',
};

const plant = (name, owner) => ({
  method: 'POST',
  body: JSON.stringify({
    name,
    owner,
    timezone: 'Europe/Lisbon',
    lon: -9.14,
    lat: 38.72,
    totalPower: 12.5,
    address: 'Rua Augusta 1, Lisbon',
    charges: [{ type: 1, price: 0.21 }],
  }),
});

describe('plant offers', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer({ users: [STAFF] });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('an owner accepts a plant a company made for them, and only then owns it', async () => {
    const staff = await newPage(browser);
    await signIn(staff.page, server.url, STAFF);
    const made = await api(
      staff.page,
      '/api/v1/plant',
      plant('Garage roof Lisbon', USERS.owner.account),
    );
    assert.equal(made.code, 0, JSON.stringify(made));
    await staff.page.reload();
    const row = staff.page.locator('tr.ant-table-row').filter({ hasText: 'Garage roof Lisbon' });
    await row.getByTestId('offered-tag').waitFor();
    await staff.page.goto(`${server.url}/plants/edit/${made.data}`);
    await staff.page.getByTestId('offer-notice').filter({ hasText: USERS.owner.account }).waitFor();

    const owner = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await signIn(owner.page, server.url, USERS.owner);
    const offer = owner.page.getByTestId('plant-offer').filter({ hasText: 'Garage roof Lisbon' });
    await offer.filter({ hasText: 'Acme Solar' }).waitFor();
    assert.equal(await owner.page.getByTestId('plant-name').count(), 0, 'not theirs yet');
    await offer.getByTestId('offer-accept').click();
    await owner.page.getByText('“Garage roof Lisbon” is now yours').waitFor();
    await owner.page.getByTestId('plant-name').filter({ hasText: 'Garage roof Lisbon' }).waitFor();
    await owner.page.getByTestId('plant-offers').waitFor({ state: 'detached' });

    // now a customer of Acme: the next plant goes straight into the owner's account
    const next = await api(
      staff.page,
      '/api/v1/plant',
      plant('Barn roof Porto', USERS.owner.account),
    );
    assert.equal(next.code, 0);
    await owner.page.reload();
    await owner.page.getByTestId('plant-name').filter({ hasText: 'Barn roof Porto' }).waitFor();
    assert.equal(await owner.page.getByTestId('plant-offers').count(), 0);
    await staff.context.close();
    await owner.context.close();
  });
});

// A company cannot make an owner its customer on its own: it asks, the owner finds the request
// (from the plant list) on the shared-management screen with what the company's staff would be
// able to do, accepts it, and then sees the company among those serving them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, newPage, signIn } from './browser.mjs';
import { startServer, USERS } from './server.mjs';

const BOSS = {
  account: 'boss@acme.example',
  password: 'Sunny-roof9',
  role: 'company-admin',
  nickname: 'Bea',
  company: 'Acme Solar',
};

describe('shared management', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer({ users: [BOSS] });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('an owner accepts a company’s request and sees it on the screen', async () => {
    const boss = await newPage(browser);
    await signIn(boss.page, server.url, BOSS);
    const asked = await api(boss.page, '/api/v1/customer', {
      method: 'POST',
      body: JSON.stringify({ account: USERS.owner.account, message: 'Yearly inverter checks' }),
    });
    assert.equal(asked.code, 0, JSON.stringify(asked));
    const before = await api(boss.page, '/api/v1/customers');
    assert.equal(before.data.total, 0, 'not a customer before the owner accepts');

    const owner = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await signIn(owner.page, server.url, USERS.owner);
    await owner.page.getByTestId('customer-offers-alert').waitFor();
    await owner.page.getByTestId('customer-offers-open').click();
    await owner.page.getByTestId('shares-title').waitFor();
    const offer = owner.page.getByTestId('customer-offer').filter({ hasText: 'Acme Solar' });
    await offer
      .getByTestId('offer-message')
      .filter({ hasText: 'Yearly inverter checks' })
      .waitFor();
    await offer.getByTestId('rights').filter({ hasText: 'Plants' }).waitFor();
    assert.equal(await owner.page.getByTestId('serving-company').count(), 0);
    const width = await owner.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no sideways scrolling on a phone (${width} px)`);

    await offer.getByTestId('customer-offer-accept').click();
    await owner.page.getByTestId('serving-company').filter({ hasText: 'Acme Solar' }).waitFor();
    await owner.page.getByTestId('customer-offers').waitFor({ state: 'detached' });

    const after = await api(boss.page, '/api/v1/customers');
    assert.equal(after.data.total, 1, 'a customer once accepted');
    await boss.context.close();
    await owner.context.close();
  });
});

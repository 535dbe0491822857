// Registration with a verification code and the user agreement, then a password reset.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launch, newPage, signIn } from './browser.mjs';
import { startServer, USERS } from './server.mjs';

describe('registration and password reset', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const account = 'newcomer@example.com';

  it('registers with a code after accepting the agreement', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/reg`);
    await page.locator('#account').fill(account);
    await page.getByRole('button', { name: 'Get code' }).click();
    await page.getByRole('button', { name: /Resend in/ }).waitFor();
    await page.locator('#code').fill(server.latestCode(account));
    await page.locator('#nickname').fill('Newcomer');
    await page.locator('#password').fill('Newbie1234');
    await page.locator('#confirm').fill('Newbie1234');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('Please read and accept the user agreement').waitFor();
    await page.locator('#agree').check();
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(/\/login$/);
    await signIn(page, server.url, { account, password: 'Newbie1234' });
    assert.match(await page.getByTestId('nickname').innerText(), /Newcomer/);
    await context.close();
  });

  it('blocks spaces in password fields and special characters in text fields', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/forget`);
    await page.locator('#account').pressSequentially('a#b$c');
    assert.equal(await page.locator('#account').inputValue(), 'abc');
    await page.getByText('Do not enter special characters').waitFor();
    await page.locator('#password').pressSequentially('ab cd');
    assert.equal(await page.locator('#password').inputValue(), 'abcd');
    await page.getByText('Do not enter spaces').waitFor();
    await context.close();
  });

  it('resets a forgotten password with a code and signs in with the new one', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/forget`);
    await page.locator('#account').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Get code' }).click();
    await page.getByText('Account not registered').waitFor();

    // codes are limited to one a minute per account: another account than the one registered above
    const { account } = USERS.owner;
    await page.locator('#account').fill(account);
    await page.getByRole('button', { name: 'Get code' }).click();
    await page.getByRole('button', { name: /Resend in/ }).waitFor();
    await page.locator('#code').fill('000000');
    await page.locator('#password').fill('Changed1234');
    await page.locator('#confirm').fill('Changed1234');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('Verification code error').waitFor();

    await page.locator('#code').fill(server.latestCode(account));
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL(/\/resetSuccessful$/);
    await page.getByRole('button', { name: 'Back to sign in' }).click();
    await signIn(page, server.url, { account, password: 'Changed1234' });
    await context.close();
  });

  it('shows the user agreement, the app download page and the update log without sign-in', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/agreementen`);
    await page.getByRole('heading', { name: 'User agreement' }).waitFor();
    await page.goto(`${server.url}/app/download`);
    await page.getByRole('heading', { name: 'Install the app' }).waitFor();
    await page.goto(`${server.url}/firmwareLogging`);
    await page.getByRole('heading', { name: 'Update log' }).waitFor();
    await page.getByTestId('update-log-empty').waitFor();
    await page.goto(`${server.url}/403`);
    await page.getByTestId('forbidden').getByRole('button', { name: 'Back to sign in' }).click();
    await page.waitForURL(/\/login$/);
    await context.close();
  });
});

// Sign in, guards, not-found, language persistence and sign out against the real server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { landing, launch, menuKeys, newPage, signIn } from './browser.mjs';
import { startServer, USERS } from './server.mjs';

/** Only the sign-in lock test uses this account (its address stays locked for it). */
const LOCKED = {
  account: 'locked@example.com',
  password: 'Locked12345',
  role: 'owner',
  nickname: 'Lou',
};

/** The newest code in the outbox; sign-in codes are delivered just after the answer. */
async function codeFor(server, account) {
  for (let i = 0; ; i += 1) {
    try {
      return server.latestCode(account);
    } catch (e) {
      if (i >= 20) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

describe('signing in and out', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer({ users: [LOCKED] });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends a signed-out visitor of any other route to /login', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/edit`);
    await page.waitForURL(/\/login$/);
    await page.getByTestId('login-submit').waitFor();
    await context.close();
  });

  it('shows the server message for a wrong password and stays on /login', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.locator('#account').fill(USERS.admin.account);
    await page.locator('#password').fill('Wrong12345');
    await page.getByTestId('login-submit').click();
    const error = page.getByTestId('login-error');
    await error.waitFor();
    assert.match(await error.innerText(), /Wrong account or password/);
    assert.match(page.url(), /\/login$/);
    await context.close();
  });

  it('locks sign-in after five misses from here and lets the owner in with a code', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.locator('#account').fill(LOCKED.account);
    const attempt = async (password) => {
      await page.locator('#password').fill(password);
      const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/oauth/token/new');
      await page.getByTestId('login-submit').click();
      return (await answer).json();
    };
    for (let i = 0; i < 5; i += 1) assert.equal((await attempt(`Wrong${i}2345`)).code, 102);

    // Now even the right password is refused from this address, with the way out offered.
    assert.equal((await attempt(LOCKED.password)).code, 109);
    assert.match(await page.getByTestId('login-error').innerText(), /Too many failed sign-ins/);
    await page.getByTestId('login-send-code').click();
    await page.getByText('The verification code has been sent').waitFor();
    await page.getByTestId('login-code').fill(await codeFor(server, LOCKED.account));
    assert.equal(await page.getByTestId('login-submit').innerText(), 'Sign in with the code');
    await page.getByTestId('login-submit').click();
    await landing(page).waitFor({ timeout: 15_000 });
    assert.equal(await page.getByTestId('nickname').innerText(), LOCKED.nickname);
    await context.close();
  });

  it('signs in with the RSA flow and shows the welcome page in the layout', async () => {
    const { context, page } = await newPage(browser);
    const calls = [];
    page.on('request', (r) => calls.push(`${r.method()} ${new URL(r.url()).pathname}`));
    await signIn(page, server.url, USERS.admin);
    // '/' takes someone without plants to the plant list (web/src/app/pages/landing.ts)
    await page.waitForURL(`${server.url}/plants`);
    assert.ok(calls.includes('GET /anonymous/publicKey'), calls.join('\n'));
    assert.ok(calls.includes('POST /oauth/token/new'), calls.join('\n'));
    assert.ok(calls.includes('GET /api/v1/permission'), calls.join('\n'));
    assert.equal(await page.getByTestId('nickname').innerText(), 'Admin');
    assert.match(await page.getByTestId('version-label').innerText(), /V250120/);
    assert.match(
      await page.getByTestId('footer').innerText(),
      new RegExp(String(new Date().getFullYear())),
    );
    assert.deepEqual(await menuKeys(page), ['/', '/plants', '/workdata/list']);

    // a signed-in user opening /login goes to /
    await page.goto(`${server.url}/login`);
    await page.waitForURL(`${server.url}/plants`);
    await page.getByTestId('plants-title').waitFor();
    await context.close();
  });

  it('shows not-found for an unknown route, with a way back home', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner);
    await page.goto(`${server.url}/no/such/page`);
    const notFound = page.getByTestId('not-found');
    await notFound.waitFor();
    await notFound.getByRole('button').click();
    await page.waitForURL(`${server.url}/plants`);
    await page.getByTestId('plants-title').waitFor();
    await context.close();
  });

  it('keeps the chosen language across a reload and sends it to the server', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner);
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: '中文' }).click();
    await page.getByTestId('plants-title').getByText('电站列表').waitFor();

    const lans = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/') || u.pathname.startsWith('/anonymous/'))
        lans.push(u.searchParams.get('lan'));
    });
    await page.reload();
    await page.getByTestId('plants-title').getByText('电站列表').waitFor();
    assert.equal(await page.locator('[data-menu-key="/plants"]').innerText(), '电站');
    assert.ok(lans.length > 0 && lans.every((l) => l === 'zh'), `lan sent: ${lans.join(',')}`);

    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'Español' }).click();
    await page.getByText('Lista de plantas').waitFor();
    await page.reload();
    await page.getByText('Lista de plantas').waitFor();
    await context.close();
  });

  it('signs out: the refresh token is revoked, storage cleared and / needs sign-in again', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner);
    const refresh = await page.evaluate(
      () => JSON.parse(localStorage.getItem('portal.auth')).refresh_token,
    );
    await page.getByTestId('sign-out').click();
    await page.waitForURL(/\/login$/);
    assert.equal(await page.evaluate(() => localStorage.getItem('portal.auth')), null);
    await page.goto(`${server.url}/`);
    await page.waitForURL(/\/login$/);
    const res = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: refresh }),
    });
    assert.equal(res.status, 401, 'the revoked refresh token no longer works');
    await context.close();
  });
});

// An expired access token is refreshed once and the refused requests are replayed; a refresh
// that fails leaves the user signed out. The server runs with 3-second access tokens.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launch, newPage, signIn } from './browser.mjs';
import { startServer, USERS } from './server.mjs';

const TTL = 3;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe('token refresh', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer({ accessTokenTtl: TTL });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('refreshes an expired access token once and replays the refused requests', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner);
    const before = await page.evaluate(() => JSON.parse(localStorage.getItem('portal.auth')));
    await sleep((TTL + 1.5) * 1000);

    const log = [];
    page.on('response', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/') || u.pathname.startsWith('/oauth/')) {
        log.push(`${r.request().method()} ${u.pathname} ${r.status()}`);
      }
    });
    await page.reload();
    await page.getByTestId('plants-title').waitFor();

    const refreshes = log.filter((l) => l.startsWith('POST /oauth/token '));
    assert.equal(refreshes.length, 1, log.join('\n'));
    assert.ok(log.includes('GET /api/v1/user 401'), log.join('\n'));
    assert.ok(log.includes('GET /api/v1/user 200'), log.join('\n'));
    assert.ok(log.includes('GET /api/v1/permission 200'), log.join('\n'));
    const refreshAt = log.indexOf('POST /oauth/token 200');
    assert.ok(refreshAt >= 0 && log.indexOf('GET /api/v1/user 200') > refreshAt, log.join('\n'));
    const afterTokens = await page.evaluate(() => JSON.parse(localStorage.getItem('portal.auth')));
    assert.notEqual(afterTokens.access_token, before.access_token);
    assert.equal(new URL(page.url()).pathname, '/plants');
    await context.close();
  });

  it('signs the user out when the refresh token is refused', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner);
    await page.evaluate(() => {
      const tokens = JSON.parse(localStorage.getItem('portal.auth'));
      localStorage.setItem(
        'portal.auth',
        JSON.stringify({ ...tokens, refresh_token: 'not-a-valid-token' }),
      );
    });
    await sleep((TTL + 1.5) * 1000);
    await page.reload();
    await page.waitForURL(/\/login$/);
    assert.equal(await page.evaluate(() => localStorage.getItem('portal.auth')), null);
    await page.getByText('Your session has expired').waitFor();
    await context.close();
  });
});

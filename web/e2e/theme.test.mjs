// The branded hostname gets the branded theme (light, own title and favicon); the login and
// layout screenshots of both themes go to docs/screenshots.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch, newPage, signIn } from './browser.mjs';
import { REPO_DIR, startServer, USERS } from './server.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || path.join(REPO_DIR, 'docs', 'screenshots');
const settle = (page) => page.waitForTimeout(1500);

async function identity(page) {
  return page.evaluate(() => ({
    theme: document.documentElement.dataset.theme,
    title: document.title,
    icon: document.querySelector('link[rel="icon"]')?.getAttribute('href'),
    background: getComputedStyle(document.body).backgroundColor,
  }));
}

describe('themes', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer();
    browser = await launch();
    mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('uses the dark default theme on a host that is not branded', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByTestId('login-submit').waitFor();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'default');
    const id = await identity(page);
    assert.equal(id.title, 'Solar Portal');
    assert.equal(id.icon, '/favicon.svg');
    assert.equal(id.background, 'rgb(11, 15, 13)');
    await settle(page);
    await page.screenshot({ path: path.join(SHOTS, 'login-dark.png') });

    await signIn(page, server.url, USERS.admin);
    await settle(page);
    await page.screenshot({ path: path.join(SHOTS, 'layout-dark.png') });
    await context.close();
  });

  it('uses the branded theme, title and favicon on a branded host, also at /brand/login', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.brandedUrl}/brand/login`);
    await page.getByTestId('login-submit').waitFor();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'branded');
    const id = await identity(page);
    assert.equal(id.title, 'PowerView Cloud');
    assert.equal(id.icon, '/favicon-branded.svg');
    assert.equal(id.background, 'rgb(243, 246, 244)');
    await settle(page);
    await page.screenshot({ path: path.join(SHOTS, 'login-branded.png') });

    await signIn(page, server.brandedUrl, USERS.admin);
    await settle(page);
    await page.screenshot({ path: path.join(SHOTS, 'layout-branded.png') });
    await context.close();
  });
});

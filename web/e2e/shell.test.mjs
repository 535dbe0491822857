// The app shell on a phone (390x844): the login page keeps its logo, the side menu is a
// drawer opened from the top bar's menu button (and closes on navigation), the top bar fits
// with Sign out in view, and nothing scrolls sideways. On a desktop the menu stays a sider.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch, newPage, signIn } from './browser.mjs';
import { startServer, USERS } from './server.mjs';

const PHONE = { viewport: { width: 390, height: 844 } };
const SHOTS =
  process.env.SCREENSHOT_DIR || mkdtempSync(path.join(os.tmpdir(), 'portal-shell-shots-'));

/** Whether an element lies fully inside the window (not cut off on the right). */
async function inView(locator) {
  const box = await locator.boundingBox();
  const width = await locator.page().evaluate(() => window.innerWidth);
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

const sideways = (page) =>
  page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);

describe('the shell on a phone', () => {
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

  it('shows the logo on the login page', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await page.goto(`${server.url}/login`);
    await page.getByTestId('login-submit').waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'phone-login.png') });
    const brand = page.getByTestId('login-brand');
    assert.ok(await brand.isVisible(), 'logo and name above the form');
    assert.ok(await inView(brand.locator('svg')));
    assert.match(await brand.innerText(), /Solar Portal/);
    assert.equal(await sideways(page), 0);
    await context.close();
  });

  it('opens the menu as a drawer, navigates with it and signs out from the top bar', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, server.url, USERS.admin);
    // no icon rail: the page has the whole width
    assert.equal(await page.locator('.main-sider').count(), 0);
    assert.equal(await page.getByTestId('side-menu').count(), 0);
    for (const id of ['menu-toggle', 'language-switch', 'user-menu', 'sign-out'])
      assert.ok(await inView(page.getByTestId(id)), `${id} fits in the top bar`);
    assert.equal(await sideways(page), 0);

    await page.getByTestId('menu-toggle').click();
    const drawer = page.getByTestId('menu-drawer');
    const menu = drawer.getByTestId('side-menu');
    await menu.waitFor();
    assert.equal(await drawer.getByTestId('version-label').count(), 1);
    await menu.getByText('Equipment').click();
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(SHOTS, 'phone-menu.png') });
    await menu.locator('[data-menu-key="/device/inverter"]').click();
    await page.waitForURL(`${server.url}/device/inverter`);
    await page.locator('.menu-drawer .ant-drawer-content').waitFor({ state: 'hidden' });
    assert.equal(await sideways(page), 0);

    // the drawer opens again with the current item selected
    await page.getByTestId('menu-toggle').click();
    await menu
      .locator('.ant-menu-item-selected[data-menu-key="/device/inverter"]')
      .waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await page.locator('.menu-drawer .ant-drawer-content').waitFor({ state: 'hidden' });

    await page.getByTestId('sign-out').click();
    await page.waitForURL(/\/login$/);
    await context.close();
  });

  it('keeps the sider on a desktop', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin);
    assert.ok(await page.locator('.main-sider').isVisible());
    assert.ok(await page.getByTestId('side-menu').isVisible());
    assert.equal(await page.getByTestId('menu-drawer').count(), 0);
    assert.match(await page.getByTestId('sign-out').innerText(), /Sign out/);
    await context.close();
  });
});

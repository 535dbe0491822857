// Debian's chromium through playwright-core (never a downloaded browser).
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

/**
 * A fresh context (own storage) with a desktop viewport, without the service worker: in a fresh
 * context it installs and caches the whole app shell again, and every request of the app then
 * passes through it, for about 7 % of a journey's CPU. `pwa.test.mjs` allows it
 * (`serviceWorkers: 'allow'`); no other journey is about it.
 */
export function newContext(browser, options = {}) {
  return browser.newContext({
    viewport: { width: 1440, height: 900 },
    serviceWorkers: 'block',
    ...options,
  });
}

/** A page in a fresh context of `newContext`. */
export async function newPage(browser, options = {}) {
  const context = await newContext(browser, options);
  const page = await context.newPage();
  return { context, page };
}

/**
 * The first screen after sign-in (web/src/app/pages/landing.ts): the fleet dashboard for more
 * than one plant, the plant's overview for one, the plant list for none, the welcome page
 * without station.view.
 */
export function landing(page) {
  return page
    .locator(
      '[data-testid="fleet-title"], [data-testid="overview-name"], [data-testid="plants-title"], [data-testid="welcome-title"]',
    )
    .first();
}

/**
 * Signs in through the login form and waits for the first screen. With `to` (a path), opens
 * that page first: the app sends a visitor who is not signed in to the login form and back to
 * the page after signing in, as it does for a bookmark. One page load instead of two, and no
 * first screen drawn only to be left (a fresh page load is most of a browser's work here).
 */
export async function signIn(page, baseUrl, user, { to } = {}) {
  await page.goto(`${baseUrl}${to ?? '/login'}`);
  await page.getByTestId('login-submit').waitFor();
  await page.locator('#account').fill(user.account);
  await page.locator('#password').fill(user.password);
  await page.getByTestId('login-submit').click();
  if (to) await page.waitForURL(`${baseUrl}${to}`, { timeout: 15_000 });
  else await landing(page).waitFor({ timeout: 15_000 });
}

/** The keys (paths) of the side menu's items. */
export async function menuKeys(page) {
  await page.getByTestId('side-menu').waitFor();
  return page
    .locator('[data-testid="side-menu"] [data-menu-key]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-menu-key')));
}

/** Calls the API from the page with the signed-in user's token; answers the parsed envelope. */
export async function api(page, url, init = {}) {
  return page.evaluate(
    async ({ url, init }) => {
      const { access_token } = JSON.parse(localStorage.getItem('portal.auth'));
      const res = await fetch(url, {
        ...init,
        headers: {
          Authorization: `Bearer ${access_token}`,
          'Content-Type': 'application/json',
          ...(init.headers ?? {}),
        },
      });
      return res.json();
    },
    { url, init },
  );
}

/**
 * Picks an option of an antd Select (showSearch) by typing and clicking the option, and waits
 * until the select shows it: on a loaded machine a click can land while the list is still
 * opening or re-rendering and pick nothing, so a pick that did not take is tried again.
 */
export async function choose(page, select, text) {
  for (let attempt = 1; ; attempt += 1) {
    await select.click();
    await page.keyboard.type(text);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: text })
      .first()
      .click();
    try {
      await select.filter({ hasText: text }).waitFor({ timeout: 5_000 });
      return;
    } catch (e) {
      if (attempt === 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
}

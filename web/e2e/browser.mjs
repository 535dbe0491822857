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

/** A fresh context (own storage) with a desktop viewport. */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...options });
  const page = await context.newPage();
  return { context, page };
}

/** The first screen after sign-in: the plant list (or the welcome page without station.view). */
export function landing(page) {
  return page.locator('[data-testid="plants-title"], [data-testid="welcome-title"]').first();
}

/** Signs in through the login form and waits for the first screen. */
export async function signIn(page, baseUrl, user) {
  await page.goto(`${baseUrl}/login`);
  await page.getByTestId('login-submit').waitFor();
  await page.locator('#account').fill(user.account);
  await page.locator('#password').fill(user.password);
  await page.getByTestId('login-submit').click();
  await landing(page).waitFor({ timeout: 15_000 });
}

/** The keys (paths) of the side menu's items. */
export async function menuKeys(page) {
  await page.getByTestId('side-menu').waitFor();
  return page
    .locator('[data-testid="side-menu"] [data-menu-key]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-menu-key')));
}

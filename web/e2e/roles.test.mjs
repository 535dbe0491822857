// The menu and the shell follow each account's permission tree and flags.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launch, menuKeys, newPage, signIn } from './browser.mjs';
import { startServer, USERS } from './server.mjs';

/**
 * The menu entries of the route registry (src/app/registry.tsx) with their permission keys.
 * Keep in step with the registry: a screen added there is added here.
 */
const REGISTRY_MENU = [
  // the home entry: the fleet dashboard, or the welcome page without station.view
  { key: '/' },
  { key: '/plants', permission: 'station.view' },
  { key: '/workdata/list', permission: 'workdata.view' },
];

async function permissionKeys(page) {
  return page.evaluate(async () => {
    const { access_token } = JSON.parse(localStorage.getItem('portal.auth'));
    const res = await fetch('/api/v1/permission?lan=en', {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    const { data } = await res.json();
    const keys = [];
    const walk = (n) => {
      if (n.permission && n.type === 0) keys.push(n.permission);
      (n.children ?? []).forEach(walk);
    };
    walk(data);
    return keys;
  });
}

describe('permission-driven shell', () => {
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

  const seen = {};
  for (const [name, expectedRole] of [
    ['admin', 'Internal administrator'],
    ['owner', 'Plant owner'],
  ]) {
    it(`shows ${name} the menu entries their permission tree allows`, async () => {
      const { context, page } = await newPage(browser);
      await signIn(page, server.url, USERS[name]);
      const allowed = await permissionKeys(page);
      const expected = REGISTRY_MENU.filter(
        (e) => !e.permission || allowed.includes(e.permission),
      ).map((e) => e.key);
      assert.deepEqual(await menuKeys(page), expected);
      // the role is shown in the personal settings
      await page.goto(`${server.url}/edit`);
      assert.equal(await page.getByTestId('role-name').innerText(), expectedRole);
      seen[name] = allowed;
      await context.close();
    });
  }

  it('fetched different permission trees for the two roles', () => {
    assert.ok(seen.admin.includes('system.management'));
    assert.ok(!seen.owner.includes('system.management'));
    assert.ok(seen.owner.includes('station.view'));
  });

  it('shows the personal-settings link to a normal user and opens the settings screen', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner);
    await page.getByTestId('settings-link').click();
    await page.waitForURL(/\/edit$/);
    await page.locator('#nickname').waitFor();
    assert.equal(await page.locator('#nickname').inputValue(), 'Olivia');
    await context.close();
  });

  it('hides the personal-settings link from a read-only user', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.viewer);
    assert.equal(await page.getByTestId('settings-link').count(), 0);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    assert.equal(await page.getByRole('menuitem', { name: 'Personal settings' }).count(), 0);
    await context.close();
  });

  it('saves the profile and the temperature unit through the settings screen', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner, { to: '/edit' });
    await page.locator('#nickname').fill('Olivia R');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('nickname').filter({ hasText: 'Olivia R' }).waitFor();
    await page.getByRole('tab', { name: 'Preferences' }).click();
    await page.getByText('Fahrenheit (°F)').click();
    // The profile save above also says "Saved", so wait for the server to hold the new unit.
    let unit = '';
    for (let attempt = 0; attempt < 50 && unit !== 'F'; attempt += 1) {
      unit = await page.evaluate(async () => {
        const { access_token } = JSON.parse(localStorage.getItem('portal.auth'));
        const res = await fetch('/api/v1/user/personalized', {
          headers: { Authorization: `Bearer ${access_token}` },
        });
        return (await res.json()).data.tempUnit;
      });
      if (unit !== 'F') await page.waitForTimeout(100);
    }
    assert.equal(unit, 'F');
    await context.close();
  });

  it('sets up abnormal event emails; another address needs a code', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner, { to: '/edit' });
    await page.getByRole('tab', { name: 'Abnormal event emails' }).click();
    const form = page.getByTestId('notify-form');
    await form.getByTestId('notify-switch').click();
    assert.equal(await form.locator('#email').inputValue(), USERS.owner.account);
    assert.equal(await form.getByText('Verification code').count(), 0);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').first().waitFor();
    // The saved settings are read back into the form; type only once that is done.
    await page.waitForLoadState('networkidle');

    await form.locator('#email').fill('alerts@example.com');
    await form.getByText('Verification code').waitFor();
    await form.getByRole('button', { name: 'Get code' }).click();
    await page.getByText('The verification code has been sent').waitFor();
    await form.locator('#code').fill('000000');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(/Verification code (error|expired)/).waitFor();
    await form.locator('#code').fill(server.latestCode('alerts@example.com'));
    await form.getByRole('button', { name: 'Save' }).click();
    await page.waitForFunction(async () => {
      const { access_token } = JSON.parse(localStorage.getItem('portal.auth'));
      const res = await fetch('/api/v1/user/notify/enable', {
        headers: { Authorization: `Bearer ${access_token}` },
      });
      const { data } = await res.json();
      return data.enabled && data.email === 'alerts@example.com';
    });
    await context.close();
  });

  it('uploads an avatar (JPG/PNG checked on the client too)', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner, { to: '/edit' });
    const input = page.locator('input[type="file"]');
    await input.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await page.getByText('Only JPG, JPEG, PNG images are allowed').waitFor();
    // a 1x1 PNG
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await page.getByText('Avatar updated').waitFor();
    const avatar = await page.evaluate(async () => {
      const { access_token } = JSON.parse(localStorage.getItem('portal.auth'));
      const res = await fetch('/api/v1/user', {
        headers: { Authorization: `Bearer ${access_token}` },
      });
      return (await res.json()).data.avatar;
    });
    assert.ok(avatar, 'the user has an avatar URL');
    const img = await fetch(new URL(avatar, server.url));
    assert.equal(img.status, 200);
    await context.close();
  });

  it('changes the password, then signs out with a message and accepts only the new one', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin, { to: '/edit' });
    await page.getByRole('tab', { name: 'Password' }).click();
    await page.locator('#oldPassword').fill('NotMine123');
    await page.locator('#newPassword').fill('Admin67890');
    await page.locator('#confirm').fill('Admin67890');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Old password error').waitFor();
    await page.locator('#oldPassword').fill(USERS.admin.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL(/\/login$/);
    await page.getByText('Your password was changed').waitFor();
    await signIn(page, server.url, { account: USERS.admin.account, password: 'Admin67890' });
    await context.close();
  });
});

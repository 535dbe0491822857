// A company administrator gives a new staff member a custom role; the staff member then sees
// only what the role allows, and the server refuses (code 2) what it does not.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launch, menuKeys, newPage, signIn } from './browser.mjs';
import { startServer } from './server.mjs';

const BOSS = {
  account: 'boss@example.com',
  password: 'Boss123456',
  role: 'company-admin',
  nickname: 'Bea',
  company: 'Sunrise Energy',
};
const FIELD = { account: 'fiona@example.com', password: 'Fiona12345', nickname: 'Fiona' };
const ROLE = 'Field';

/** The titles of the side menu's groups (submenus), in order. */
function groupTitles(page) {
  return page
    .locator('[data-testid="side-menu"] .ant-menu-submenu-title')
    .evaluateAll((els) => els.map((el) => el.textContent.trim()));
}

/** The menu route keys of the signed-in user's permission tree. */
async function routeKeys(page) {
  const { data } = await api(page, '/api/v1/permission?lan=en');
  const keys = [];
  const walk = (n) => {
    if (n.permission && n.permission !== 'root' && n.type === 0) keys.push(n.permission);
    (n.children ?? []).forEach(walk);
  };
  walk(data);
  return keys;
}

describe('company staff and roles', () => {
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

  it('an administrator creates a role and a staff member holding it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, BOSS);

    // the company group is in the menu, and /enterprise opens the staff list
    assert.ok((await groupTitles(page)).includes('Company'));
    await page.goto(`${server.url}/enterprise`);
    await page.waitForURL(/\/enterprise\/user$/);
    await page.getByTestId('staff-title').waitFor();
    await page.getByTestId('staff-account').first().waitFor();

    // a role with the plants and the gateways (and what they belong to)
    await page.goto(`${server.url}/enterprise/roles`);
    await page.getByTestId('role-add').click();
    await page.getByTestId('role-name-input').fill(ROLE);
    const tree = page.getByTestId('role-tree');
    await tree.getByText('Plants', { exact: true }).click();
    await tree.getByText('Gateways', { exact: true }).click();
    await page.getByTestId('role-submit').click();
    await page.getByTestId('role-name-cell').filter({ hasText: ROLE }).waitFor();

    const roles = await api(page, '/api/v1/company/roles');
    const role = roles.data.infos.find((r) => r.name === ROLE);
    assert.ok(role, 'the role was created');
    for (const key of ['station.view', 'equip.view', 'gateway.view']) {
      assert.ok(role.permissions.includes(key), `the role holds ${key}`);
    }
    assert.ok(!role.permissions.includes('company.management'));
    assert.ok(!role.permissions.includes('inverter.view'));

    // the same name again is refused on the form (801)
    await page.getByTestId('role-add').click();
    await page.getByTestId('role-name-input').fill(ROLE);
    await page.getByTestId('role-name-input').blur();
    await page.getByText('Role exists').waitFor();
    await page.keyboard.press('Escape');

    // a staff member with that role
    await page.goto(`${server.url}/enterprise/user`);
    await page.getByTestId('staff-add').click();
    const form = page.getByTestId('staff-form');
    // an account that exists is refused when the field is left (104)
    await form.locator('#account').fill(BOSS.account);
    await form.locator('#password').click();
    await page.getByText('Account exists').waitFor();
    await form.locator('#account').fill(FIELD.account);
    await form.locator('#password').fill(FIELD.password);
    await form.locator('#confirm').fill(FIELD.password);
    await form.locator('#nickname').fill(FIELD.nickname);
    await form.locator('.ant-select').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: ROLE })
      .first()
      .click();
    await page.getByTestId('staff-submit').click();
    await page.getByTestId('staff-account').filter({ hasText: FIELD.account }).waitFor();
    const row = page.locator('tr', { has: page.getByText(FIELD.account, { exact: true }) });
    assert.equal(await row.getByTestId('staff-role').innerText(), ROLE);

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    await context.close();
  });

  it('the staff member sees only what the role allows and is refused the rest', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, FIELD);

    const routes = await routeKeys(page);
    // the plants (with the create wizard, a menu route under them) and the gateways
    assert.deepEqual(routes.sort(), [
      'equip.view',
      'gateway.view',
      'station.create',
      'station.view',
    ]);

    // the menu: plants, and the equipment group with the gateways only
    assert.deepEqual(await groupTitles(page), ['Equipment']);
    assert.deepEqual(await menuKeys(page), ['/', '/plants']);
    await page.locator('[data-testid="side-menu"] .ant-menu-submenu-title').click();
    await page.locator('[data-menu-key="/device/gateway"]').waitFor();
    // meters, combiner boxes and weather stations need only equip.view (src/app/registry.tsx);
    // inverters, batteries and events have keys of their own, not in the role
    assert.deepEqual(await menuKeys(page), [
      '/',
      '/plants',
      '/device/gateway',
      '/device/meter',
      '/device/combiner',
      '/device/weather',
    ]);

    // a company screen is not theirs: the no-access page, and the server says 2
    await page.goto(`${server.url}/enterprise/user`);
    await page.getByTestId('forbidden').waitFor();
    const staff = await api(page, '/api/v1/company/user/list');
    assert.equal(staff.code, 2);
    const created = await api(page, '/api/v1/company/role', {
      method: 'POST',
      body: JSON.stringify({ name: 'Mine', permissions: ['station.view'] }),
    });
    assert.equal(created.code, 2);
    await context.close();
  });
});

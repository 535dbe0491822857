// Catalogue: the internal administrator adds a product with two hardware versions through the
// products screen and edits it; then opens a protocol config, changes a point's scale, decodes
// a captured frame with the edited map (the new scale shows in the value) and saves it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launch, newPage, signIn } from './browser.mjs';
import { startServer, USERS } from './server.mjs';

const PRODUCT = 'SUN-6K-SG03LP1';
const PART = 'SG03LP1-6K-EU';

describe('catalogue', () => {
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

  it('adds and edits a product with its hardware versions', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin, { to: '/management/product' });
    await page.getByTestId('products-title').waitFor();
    await page.getByTestId('product-add').click();
    await page.getByTestId('product-name').fill(PRODUCT);
    await page.getByTestId('product-part-number').fill(PART);
    await page.getByTestId('product-manufacturer').fill('Deye');
    await page.getByTestId('product-rated-power').fill('6000');
    const hardware = page.getByTestId('hardware-input');
    await hardware.fill('H1.0');
    await hardware.press('Enter');
    await hardware.fill('H1.1');
    await page.getByTestId('hardware-add').click();
    assert.deepEqual(await page.getByTestId('hardware-tag').allInnerTexts(), ['H1.0', 'H1.1']);
    await page.getByTestId('product-save').click();
    await page.getByText('Product added').waitFor();
    const row = page.locator('tr.ant-table-row').filter({ hasText: PART });
    await row.waitFor();
    assert.deepEqual(
      (await row.getByTestId('product-row-hardware').locator('.ant-tag').allInnerTexts()).sort(),
      ['H1.0', 'H1.1'],
    );
    assert.match(await row.innerText(), /6 kW/);

    // the same part number is refused when the field loses focus
    await page.getByTestId('product-add').click();
    await page.getByTestId('product-part-number').fill(PART);
    await page.getByTestId('product-part-number').blur();
    await page.getByText('Another product has this part number').waitFor();
    await page.keyboard.press('Escape');

    // edit: a third hardware version, one removed, a new name
    await row.getByTestId('action-edit').click();
    await page.getByTestId('product-name').fill(`${PRODUCT} Plus`);
    await page.getByRole('button', { name: 'Remove H1.0' }).click();
    await page.getByTestId('hardware-input').fill('H2.0');
    await page.getByTestId('hardware-input').press('Enter');
    await page.getByTestId('product-save').click();
    await page.getByText('Saved').first().waitFor();
    await row.getByText(`${PRODUCT} Plus`).waitFor();
    assert.deepEqual(
      (await row.getByTestId('product-row-hardware').locator('.ant-tag').allInnerTexts()).sort(),
      ['H1.1', 'H2.0'],
    );

    // the search finds it by part number
    await page.getByTestId('product-search').locator('input').fill('SG03LP1');
    await page.getByTestId('product-search').locator('input').press('Enter');
    await page.waitForURL(/keyword=SG03LP1/);
    await row.waitFor();
  });

  it('changes a point of a protocol config, previews a frame with it and saves it', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin, { to: '/management/protocol' });
    await page.getByTestId('protocols-title').waitFor();
    await page.getByTestId('protocol-row-code').filter({ hasText: 'deye-hybrid-1ph' }).click();
    await page.getByTestId('protocol-title').filter({ hasText: 'deye-hybrid-1ph' }).waitFor();
    const version = Number(
      (await page.getByTestId('protocol-version').innerText()).replace(/\D+/g, ''),
    );

    // grid frequency: register 79, ×0.01 Hz; made ×0.1 here
    await page.getByTestId('point-filter').locator('input').fill('grid_frequency');
    const point = page.locator('tr.ant-table-row').filter({
      has: page.locator('[data-testid="point-key"][value="grid_frequency"]'),
    });
    await point.waitFor();
    const scale = point.getByTestId('point-scale');
    assert.equal(await scale.inputValue(), '0.01');
    await scale.fill('0.1');
    await scale.blur();

    // 0x1388 = 5000 at register 79 decodes as 500 Hz with the edited scale
    await page.getByRole('tab', { name: 'Test against a captured frame' }).click();
    await page.getByTestId('preview-frame').fill('13 88');
    await page.getByTestId('preview-start').fill('79');
    await page.getByTestId('preview-run').click();
    const value = page.getByTestId('preview-value-grid_frequency');
    await value.waitFor();
    assert.equal((await value.innerText()).trim(), '500 Hz');

    await page.getByTestId('protocol-save').click();
    await page.getByText(`Saved as version ${version + 1}`).waitFor();
    await page
      .getByTestId('protocol-version')
      .filter({ hasText: String(version + 1) })
      .waitFor();

    // stored: a reload shows the new scale
    await page.reload();
    await page.getByTestId('point-filter').locator('input').fill('grid_frequency');
    await point.waitFor();
    assert.equal(await point.getByTestId('point-scale').inputValue(), '0.1');
  });
});

// System update log: the internal administrator publishes a release note in Chinese and English
// (a double click on Publish sends it once), sees it in the log, edits it and deletes it; a
// plant owner reads the same log without any of the buttons.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launch, newPage, signIn } from './browser.mjs';
import { startServer, USERS } from './server.mjs';

const LABEL = 'V260105';

describe('system update log', () => {
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

  it('lets the administrator publish, edit and delete a version, and the owner only read', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, USERS.admin, { to: '/systemupdate' });
    await page.getByTestId('version-publish').click();

    // nothing written: both the label and a text are asked for
    await page.getByTestId('version-save').click();
    await page.getByText('This field is required').waitFor();
    await page.getByText('Write the release note in Chinese or in English').first().waitFor();

    await page.getByTestId('version-input').fill('V 1!');
    await page.getByText('Use letters, digits, - _ and . only (at most 20 characters)').waitFor();
    await page.getByTestId('version-input').fill(LABEL);
    await page.getByTestId('version-content-cn').fill('电站列表\n分享电站');
    await page.getByTestId('version-content-en').fill('Plant list\nPlant sharing');
    // the guard: two quick clicks publish one note (the first click disabled the button)
    await page.getByTestId('version-save').dblclick();
    await page.getByText('Version published').waitFor();
    const note = page.getByTestId('update-log-note').filter({ hasText: LABEL });
    await note.waitFor();
    assert.equal(await note.count(), 1, 'published once');
    assert.match(
      await note.getByTestId('update-log-text').innerText(),
      /Plant list\s+Plant sharing/,
    );
    assert.match(await note.innerText(), /Portal/);

    // edit: another type and a corrected English text; the Chinese text stays
    await note.getByTestId('version-edit').click();
    assert.equal(await page.getByTestId('version-input').inputValue(), LABEL);
    await page.getByTestId('version-type').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Mobile app' }).click();
    await page.getByTestId('version-content-en').fill('Plant list, sorted by name');
    await page.getByTestId('version-save').click();
    await page.getByText('Release note saved').waitFor();
    await note.getByText('Plant list, sorted by name').waitFor();
    assert.match(await note.innerText(), /Mobile app/);

    // the owner reads the same log and sees no buttons
    const owner = await newPage(browser);
    await signIn(owner.page, server.url, USERS.owner, { to: '/systemupdate' });
    const seen = owner.page.getByTestId('update-log-note').filter({ hasText: LABEL });
    await seen.getByText('Plant list, sorted by name').waitFor();
    assert.equal(await owner.page.getByTestId('version-publish').count(), 0);
    assert.equal(await seen.getByTestId('version-edit').count(), 0);
    assert.equal(await seen.getByTestId('version-delete').count(), 0);
    await owner.context.close();

    // delete, confirmed
    await note.getByTestId('version-delete').click();
    await page.getByTestId('version-delete-ok').click();
    await page.getByText('Version deleted').waitFor();
    await note.waitFor({ state: 'detached' });
  });
});

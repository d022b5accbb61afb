// The same core flows with JavaScript turned off: plain forms, redirects and
// messages rendered by the server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_DOC_BYTES,
  banner,
  createDocument,
  editorBody,
  launch,
  newContext,
  signIn,
  unique,
  signOut,
} from './helpers.js';

let browser;
let context;

before(async () => {
  browser = await launch();
  context = await newContext(browser, { javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page);
  await page.close();
});

after(async () => {
  await browser?.close();
});

async function save(page, body) {
  await editorBody(page).fill(body);
  await page.getByRole('button', { name: 'Save' }).click();
}

test('without JavaScript: create, edit and see the saved text', async () => {
  const page = await context.newPage();
  const title = unique('Plain forms');
  const path = await createDocument(page, title, 'written **without** scripts');
  // A plain redirect carries the message code; an htmx swap would not.
  assert.match(page.url(), /\?m=created$/);
  await banner(page, 'Created.').waitFor();
  assert.equal(await page.locator('.prose strong').textContent(), 'without');

  await page.getByRole('link', { name: 'Edit' }).click();
  await page.waitForURL(`**${path}/edit`);
  await save(page, 'edited without scripts');
  await page.waitForURL(`**${path}?m=saved`);
  await banner(page, 'Saved.').waitFor();
  assert.match(await page.locator('article.document .meta').textContent(), /version 2/);
  await page.close();
});

test('without JavaScript: the search form finds a document', async () => {
  const page = await context.newPage();
  const word = `quokka${process.pid}`;
  const title = unique('Found by form');
  await createDocument(page, title, `A ${word} smiles.`);

  const search = page.getByRole('search').getByRole('searchbox');
  await search.fill(word);
  await search.press('Enter');
  await page.waitForURL(/\/search\?q=/);
  await page.locator('ol.hits').getByRole('link', { name: title }).waitFor();
  await page.close();
});

test('without JavaScript: history, diff and restoring a revision', async () => {
  const page = await context.newPage();
  const title = unique('Plain history');
  const path = await createDocument(page, title, 'one\ntwo\n');
  await page.goto(`${path}/edit`);
  await save(page, 'one\nthree\n');
  await page.waitForURL(`**${path}?m=saved`);

  await page.getByRole('link', { name: 'History' }).click();
  assert.equal(await page.locator('ol.revisions > li').count(), 2);
  await page.getByRole('link', { name: 'changes', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Changes from revision 1 to 2' }).waitFor();
  assert.match(await page.locator('table.diff tr.add').textContent(), /three/);

  await page.goto(`${path}/history`);
  await page
    .locator('ol.revisions > li', { hasText: 'Revision 1' })
    .getByRole('button', { name: 'Restore' })
    .click();
  await page.waitForURL(`**${path}?m=revision-restored`);
  await banner(page, 'Saved: the old revision is now the current text.').waitFor();
  await page.locator('.prose', { hasText: 'two' }).waitFor();
  await page.close();
});

test('without JavaScript: delete to the trash and restore', async () => {
  const page = await context.newPage();
  const title = unique('Plain trash');
  await createDocument(page, title, 'to be deleted');
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.waitForURL(/\/\?m=trashed$/);
  await banner(page, 'Moved to the trash').waitFor();

  await page.goto('/trash');
  await page
    .locator('ol.docs > li', { hasText: title })
    .getByRole('button', { name: 'Restore' })
    .click();
  await page.waitForURL(/\?m=restored$/);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  await page.close();
});

test('without JavaScript: a stale save shows the conflict with both texts', async () => {
  const title = unique('Plain conflict');
  const first = await context.newPage();
  const path = await createDocument(first, title, 'base');
  const second = await context.newPage();
  await first.goto(`${path}/edit`);
  await second.goto(`${path}/edit`);
  await save(second, 'theirs');
  await second.waitForURL(`**${path}?m=saved`);

  await save(first, 'mine');
  await first.getByRole('heading', { level: 1, name: 'Edit conflict' }).waitFor();
  await first.locator('.merge-region').first().waitFor();
  assert.equal((await first.locator('#mine-body').inputValue()).trim(), 'mine');
  assert.equal(
    (await first.getByLabel('Text (read-only)', { exact: true }).inputValue()).trim(),
    'theirs',
  );
  await first.close();
  await second.close();
});

test('without JavaScript: an oversize text is refused and handed back', async () => {
  const page = await context.newPage();
  const path = await createDocument(page, unique('Plain oversize'), 'short');
  await page.goto(`${path}/edit`);
  const big = 'y'.repeat(MAX_DOC_BYTES + 1);
  const response = page.waitForResponse((r) => r.request().method() === 'POST');
  await save(page, big);
  assert.equal((await response).status(), 413);
  await page.getByRole('alert').filter({ hasText: /limit/ }).waitFor();
  const kept = await editorBody(page).inputValue();
  assert.ok(kept === big, `the editor holds ${kept.length} characters, not the ${big.length} sent`);
  await page.close();
});

test('without JavaScript: signing out', async () => {
  const page = await context.newPage();
  await page.goto('/');
  await signOut(page);
  await page.waitForURL(/\/login/);
  await banner(page, 'Signed out.').waitFor();
  await page.goto('/new');
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await page.close();
});

test('without JavaScript: a save after the session ended signs in again and saves the text', async () => {
  const adminContext = await newContext(browser, { javaScriptEnabled: false });
  const admin = await adminContext.newPage();
  await signIn(admin);
  const name = unique('writer').replace(/\s+/g, '-');
  const password = 'a writer password';
  await admin.goto('/admin/users');
  await admin.getByLabel('Username').fill(name);
  await admin.getByLabel(/^Password/).fill(password);
  await admin.getByRole('button', { name: 'Add account' }).click();
  await admin.getByRole('row', { name: new RegExp(name) }).waitFor();

  const writerContext = await newContext(browser, { javaScriptEnabled: false });
  const page = await writerContext.newPage();
  await page.goto('/login');
  await page.getByLabel('Username').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
  const path = await createDocument(page, unique('Minutes'), 'first draft');
  await page.goto(`${path}/edit`);
  const text = 'Decisions: ship on "Friday" after review & tests';
  await editorBody(page).fill(text);

  // The session ends while the text is being written (signed out everywhere).
  await admin.getByRole('row', { name: new RegExp(name) }).getByRole('button', { name: 'Disable' }).click();
  await admin.getByRole('row', { name: new RegExp(name) }).getByRole('button', { name: 'Enable' }).click();
  await admin.getByRole('row', { name: new RegExp(name) }).getByRole('button', { name: 'Disable' }).waitFor();

  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sign in to save' }).waitFor();
  assert.equal(await page.getByLabel('Your text, not yet saved').inputValue(), text);
  await page.getByLabel('Username').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in and save' }).click();
  await page.waitForURL((url) => url.pathname === path);
  assert.match(await page.locator('main').innerText(), /ship on "Friday" after review & tests/);
  await writerContext.close();
  await adminContext.close();
});

test('without JavaScript: emptying the trash asks on a page first', async () => {
  const page = await context.newPage();
  await signIn(page);
  const title = unique('Old notes');
  await createDocument(page, title, 'to be deleted for good');
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.goto('/trash');
  await page.getByRole('button', { name: 'Empty trash' }).click();
  await page.getByRole('heading', { level: 1, name: 'Empty the trash?' }).waitFor();
  await page.getByRole('link', { name: 'Cancel' }).click();
  await page.getByText(title).waitFor();
  await page.getByRole('button', { name: 'Empty trash' }).click();
  await page.getByRole('button', { name: 'Delete for good' }).click();
  await banner(page, 'The trash is empty.').waitFor();
  assert.equal(await page.getByText(title).count(), 0);
  await page.close();
});

test('without JavaScript: a document put in a folder with tags is found through the folder tree and its tag', async () => {
  const page = await context.newPage();
  const title = unique('Filed away');
  const folder = `Garden ${process.pid}/Seeds`;
  await page.goto('/new');
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Folder').fill(folder);
  await page.getByLabel('Tags').fill(`Sow${process.pid}, spring`);
  await editorBody(page).fill('Tomatoes go in after the frost.');
  await page.getByRole('button', { name: 'Save' }).click();
  await banner(page, 'Created.').waitFor();

  // Breadcrumbs lead to the folder's list, whose tree is open along the path.
  const crumbs = page.getByRole('navigation', { name: 'Folder' });
  await crumbs.getByRole('link', { name: `Garden ${process.pid}` }).click();
  await page.getByRole('heading', { level: 1, name: `Garden ${process.pid}` }).waitFor();
  const tree = page.getByRole('navigation', { name: 'Folders' });
  assert.equal(await tree.getByRole('link', { name: 'Seeds' }).isVisible(), true);
  await page.locator('ol.docs').getByRole('link', { name: title }).waitFor();

  // The tag on the list narrows to it; the count says how many.
  await page.locator('ol.docs a.tag', { hasText: `sow${process.pid}` }).click();
  await page.getByText(/^1 document in Garden \d+ tagged/).waitFor();
  await page.locator('ol.docs').getByRole('link', { name: title }).click();
  await page.getByRole('link', { name: 'spring' }).waitFor();
  await page.close();
});

test('without JavaScript: a link to a missing document creates it, then leads to it and back', async () => {
  const page = await context.newPage();
  const target = unique('Compost heap');
  const from = unique('Garden notes');
  await createDocument(page, from, `Feed the beds from the [[${target}|heap]].`);
  await banner(page, 'Created.').waitFor();

  // No document has that title yet: the link offers to create it.
  const missing = page.locator('.prose a.wikilink.missing', { hasText: 'heap' });
  await missing.click();
  await page.waitForURL('**/new?title=*');
  assert.equal(await page.getByLabel('Title').inputValue(), target);
  await editorBody(page).fill('Turn it monthly.');
  await page.getByRole('button', { name: 'Save' }).click();
  await banner(page, 'Created.').waitFor();

  // The new document lists the one that links to it; that one's link now leads here.
  const linkedFrom = page.getByRole('complementary', { name: 'Linked from' });
  await linkedFrom.getByRole('link', { name: from }).click();
  await page.locator('.prose a.wikilink:not(.missing)', { hasText: 'heap' }).click();
  await page.getByRole('heading', { level: 1, name: target }).waitFor();
  await page.close();
});

test('without JavaScript: Attach sends the file with the text, which comes back with its Markdown; saved, the image shows', async () => {
  const page = await context.newPage();
  const title = unique('Plain attach');
  const path = await createDocument(page, title, 'saved text');
  await page.goto(`${path}/edit`);
  // Unsaved words go with the file and come back.
  await editorBody(page).fill('A dot, unsaved:');
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  await page.locator('#attach-file').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
  const response = page.waitForResponse((r) => r.request().method() === 'POST');
  await page.locator('.attach').getByRole('button', { name: 'Attach', exact: true }).click();
  assert.equal((await response).status(), 200);
  const notice = page.locator('#attach-notice');
  await notice.waitFor();
  assert.match(
    await notice.innerText(),
    /^Attached dot\.png \(.+\)\. Its Markdown is at the end of the text: save to keep it there\.$/,
  );
  const text = await editorBody(page).inputValue();
  assert.ok(text.startsWith('A dot, unsaved:'), text);
  assert.ok(text.trimEnd().endsWith('![dot.png](dot.png)'), text);

  // Nothing is saved until Save.
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(`**${path}?m=saved`);
  await banner(page, 'Saved.').waitFor();
  const img = page.locator('.prose img');
  assert.equal(await img.getAttribute('src'), `${path}/files/dot.png`);
  assert.equal(await img.evaluate((el) => el.complete && el.naturalWidth), 1, 'the image loaded');
  await page.close();
});

// The flows people use with JavaScript on: htmx swaps the page in place, so each
// test checks what the user sees and, where it matters, that no full reload happened.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  ADMIN,
  MAX_DOC_BYTES,
  PASSWORD,
  acceptDialogs,
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
  context = await newContext(browser);
  const page = await context.newPage();
  await signIn(page);
  await page.close();
});

after(async () => {
  await browser?.close();
});

/** Sets a value on `window` that only survives if the page is never reloaded. */
async function markPage(page) {
  await page.evaluate(() => {
    window.quireNoReload = 'still the same page';
  });
}

async function assertNotReloaded(page) {
  assert.equal(
    await page.evaluate(() => window.quireNoReload),
    'still the same page',
    'the page was reloaded instead of swapped in place',
  );
}

/** Opens the editor from a document page and saves a new body there. */
async function editAndSave(page, body) {
  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByRole('heading', { level: 1, name: 'Edit document' }).waitFor();
  await editorBody(page).fill(body);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('article.document').waitFor();
}

test('first run: the administrator made on the command line signs in', async () => {
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await page.goto('/');
  await page.waitForURL(/\/login\?next=/);
  await page.getByLabel('Username').fill(ADMIN);
  await page.getByLabel('Password').fill(`${PASSWORD}-wrong`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: /password/i }).waitFor();

  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
  const nav = page.getByRole('navigation', { name: 'Main' });
  // The account menu: the name on the header's one row, its links inside.
  const account = nav.locator('details.nav-account > summary');
  assert.equal((await account.textContent()).trim(), ADMIN);
  await account.click();
  assert.equal(await nav.getByRole('link', { name: 'Your account', exact: true }).count(), 1);
  assert.equal(await nav.getByRole('link', { name: 'Admin', exact: true }).count(), 1);
  // One row: every item's box shares some height with every other's.
  const oneRow = await nav.evaluate((el) => {
    const boxes = [...el.querySelectorAll(':scope > a.brand, :scope .nav-wide > a, :scope .nav-search, :scope .nav-account > summary')]
      .map((e) => e.getBoundingClientRect());
    return Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom));
  });
  assert.ok(oneRow, 'the header is one row on a wide screen');
  await ctx.close();
});

test('a new document is saved and shown rendered', async () => {
  const page = await context.newPage();
  const title = unique('Garden notes');
  await createDocument(page, title, 'Plant **tomatoes** in May.');
  assert.equal(await page.locator('.prose strong').textContent(), 'tomatoes');
  await banner(page, 'Created.').waitFor();
  await page.close();
});

test('editing inline saves without a full page reload', async () => {
  const page = await context.newPage();
  const title = unique('Inline edit');
  await createDocument(page, title, 'first draft');
  await markPage(page);

  await editAndSave(page, 'second draft, *better*');

  await page.locator('.prose em', { hasText: 'better' }).waitFor();
  assert.match(await page.locator('article.document .meta').textContent(), /version 2/);
  await banner(page, 'Saved.').waitFor();
  assert.match(await page.title(), new RegExp(`^${title} · quire$`));
  await assertNotReloaded(page);
  await page.close();
});

test('live search finds a document while the user types', async () => {
  const page = await context.newPage();
  const word = `zephyr${process.pid}`;
  const title = unique('Searchable');
  await createDocument(page, title, `The ${word} blows from the west.`);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Documents' }).click();
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();

  await page.goto('/search');
  await markPage(page);
  await page.getByRole('searchbox', { name: 'Search documents' }).pressSequentially(word, { delay: 30 });
  const hit = page.locator('#results ol.hits').getByRole('link', { name: title });
  await hit.waitFor();
  assert.match(await page.locator('#results .snippet').first().textContent(), new RegExp(word));
  await page.waitForURL(new RegExp(`/search\\?q=${word}`));
  await assertNotReloaded(page);

  await hit.click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  await page.close();
});

test('history lists both revisions and the diff marks what changed', async () => {
  const page = await context.newPage();
  const title = unique('Two revisions');
  const path = await createDocument(page, title, 'apples\npears\n');
  await editAndSave(page, 'apples\nplums\n');

  await page.getByRole('link', { name: 'History' }).click();
  await page.getByRole('heading', { level: 1, name: 'History' }).waitFor();
  const revisions = page.locator('ol.revisions > li');
  assert.equal(await revisions.count(), 2);
  assert.match(await revisions.filter({ hasText: 'Revision 2' }).textContent(), /current/);

  await page.getByRole('link', { name: 'changes', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Changes from revision 1 to 2' }).waitFor();
  assert.match(await page.locator('table.diff tr.del').textContent(), /pears/);
  assert.match(await page.locator('table.diff tr.add').textContent(), /plums/);

  // Any two revisions: one chosen in each column of the history, then Compare.
  await page.goto(path);
  await editAndSave(page, 'apples\nplums\ncherries\n');
  await page.getByRole('link', { name: 'History' }).click();
  await page.getByRole('radio', { name: 'Compare from revision 1' }).check();
  await page.getByRole('radio', { name: 'Compare to revision 3' }).check();
  await page.getByRole('button', { name: 'Compare the chosen revisions' }).click();
  await page.getByRole('heading', { level: 1, name: 'Changes from revision 1 to 3' }).waitFor();
  assert.match(await page.locator('.diff-view .meta').textContent(), /\+2 −1 lines between them/);
  await page.close();
});

test('restoring an old revision makes its text current again', async () => {
  const page = await context.newPage();
  acceptDialogs(page);
  const title = unique('Restore me');
  await createDocument(page, title, 'the original wording');
  await editAndSave(page, 'a worse wording');

  await page.getByRole('link', { name: 'History' }).click();
  await page
    .locator('ol.revisions > li', { hasText: 'Revision 1' })
    .getByRole('button', { name: 'Restore' })
    .click();
  await page.locator('.prose', { hasText: 'the original wording' }).waitFor();
  await banner(page, 'the old revision is now the current text').waitFor();

  await page.getByRole('link', { name: 'History' }).click();
  await page.getByRole('heading', { level: 1, name: 'History' }).waitFor();
  assert.equal(await page.locator('ol.revisions > li').count(), 3);
  await page.close();
});

test('a deleted document goes to the trash and comes back', async () => {
  const page = await context.newPage();
  acceptDialogs(page);
  const title = unique('Short-lived');
  await createDocument(page, title, 'soon in the trash');

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
  await banner(page, 'Moved to the trash').waitFor();
  assert.equal(await page.getByRole('link', { name: title }).count(), 0);

  await page.locator('details.nav-account > summary').click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash' }).click();
  const row = page.locator('ol.docs > li', { hasText: title });
  await row.getByRole('button', { name: 'Restore' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  await banner(page, 'Restored from the trash.').waitFor();
  await page.close();
});

test('a save based on a stale version shows both texts and keeps mine', async () => {
  const title = unique('Contested');
  const first = await context.newPage();
  const path = await createDocument(first, title, 'common ground');
  const second = await context.newPage();

  await first.goto(`${path}/edit`);
  await second.goto(`${path}/edit`);
  await editorBody(second).fill('their change, saved first');
  await second.getByRole('button', { name: 'Save' }).click();
  await second.getByRole('heading', { level: 1, name: title }).waitFor();

  await markPage(first);
  await editorBody(first).fill('my change, saved second');
  await first.getByRole('button', { name: 'Save' }).click();
  await first.getByRole('heading', { level: 1, name: 'Edit conflict' }).waitFor();
  // Both changed the one line: the merge view shows the conflict, marks it in the
  // editor, and keeps both whole texts.
  await first.locator('.merge-region').first().waitFor();
  const marked = await first.locator('#merge-form textarea[name="body"]').inputValue();
  assert.match(marked, /<<<<<<< your text\nmy change, saved second\n=+\ntheir change, saved first\n>>>>>>>/);
  assert.equal((await first.locator('#mine-body').inputValue()).trim(), 'my change, saved second');
  assert.equal(
    (await first.getByLabel('Text (read-only)', { exact: true }).inputValue()).trim(),
    'their change, saved first',
  );
  await assertNotReloaded(first);

  await first.getByRole('button', { name: 'Save mine over theirs' }).click();
  await first.getByRole('heading', { level: 1, name: title }).waitFor();
  assert.equal((await first.locator('.prose').textContent()).trim(), 'my change, saved second');
  await first.close();
  await second.close();
});

test('the back button after in-place navigation shows whole pages', async () => {
  const page = await context.newPage();
  const title = unique('Back and forth');
  await createDocument(page, title, 'there and back');
  await page.locator('details.nav-account > summary').click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash' }).click();
  await page.getByRole('heading', { level: 1, name: 'Trash' }).waitFor();

  await page.goBack();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  // A fragment shown as the page would have lost the header and the stylesheet.
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  assert.equal(await page.locator('link[rel="stylesheet"]').count(), 1);
  await page.close();
});

test('an oversize paste is refused with the limit and the text kept', async () => {
  const page = await context.newPage();
  const path = await createDocument(page, unique('Oversize'), 'small for now');
  await page.goto(`${path}/edit`);
  await markPage(page);

  const pasted = 'x'.repeat(MAX_DOC_BYTES + 1000);
  await editorBody(page).focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(pasted);
  assert.match(await page.locator('.counter').getAttribute('class'), /\bover\b/);

  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('alert').filter({ hasText: /limit/ }).waitFor();
  const kept = await editorBody(page).inputValue();
  assert.ok(kept === pasted, `the editor holds ${kept.length} characters, not the ${pasted.length} pasted`);
  await assertNotReloaded(page);
  await page.close();
});

test('signing out ends the session', async () => {
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await signIn(page);
  await signOut(page);
  await page.waitForURL(/\/login/);
  await banner(page, 'Signed out.').waitFor();
  await page.goto('/');
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await ctx.close();
});

test('printing a document shows the text without the site around it or its buttons', async () => {
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await signIn(page);
  const title = unique('Printed');
  await createDocument(page, title, 'Some [link](https://example.org) to print.');
  await page.emulateMedia({ media: 'print' });
  const shown = async (selector) => page.locator(selector).first().isVisible();
  assert.equal(await shown('header.site'), false);
  assert.equal(await shown('footer.site'), false);
  assert.equal(await shown('article .actions'), false);
  assert.equal(await page.getByRole('heading', { level: 1, name: title }).isVisible(), true);
  assert.equal(await shown('.prose'), true);
  await page.emulateMedia({ media: 'screen' });
  assert.equal(await shown('header.site'), true);
  await ctx.close();
});

test('emptying the trash asks in a dialog, then empties it in place', async () => {
  const page = await context.newPage();
  const title = unique('Scratch');
  await createDocument(page, title, 'gone soon');
  acceptDialogs(page);
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
  await page.goto('/trash');
  await page.getByText(title).waitFor();
  await page.getByRole('button', { name: 'Empty trash' }).click();
  await banner(page, 'The trash is empty.').waitFor();
  // The message comes with the answer; the emptied list loads just after it.
  await page.getByText(title).waitFor({ state: 'detached' });
  assert.equal(await page.getByRole('heading', { level: 1, name: 'Empty the trash?' }).count(), 0);
  await page.close();
});

test('sharing with a name nobody has is a message beside the field, the name kept', async () => {
  const page = await context.newPage();
  await createDocument(page, unique('Shared plan'), 'text');
  await page.getByRole('link', { name: 'Share' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sharing' }).waitFor();
  await page.getByLabel('Username').fill('nobody-by-this-name');
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: 'There is no person or group called' }).waitFor();
  assert.equal(await page.getByLabel('Username').inputValue(), 'nobody-by-this-name');
  await page.getByRole('heading', { level: 1, name: 'Sharing' }).waitFor();
  await page.close();
});

test('the document page says who sees it, and the public link copies with a click', async () => {
  const ctx = await newContext(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await ctx.newPage();
  await signIn(page);
  const path = await createDocument(page, unique('Visible'), 'text');
  // In the team space, its members read it: the owner's link says so in the page's words.
  assert.match(await page.locator('p.meta a.space').innerText(), /^Team · \d+ (person|people)$/);
  await page.getByRole('link', { name: 'sharing', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Sharing' }).waitFor();
  await page.getByRole('button', { name: 'Create a public link' }).click();
  const link = await page.getByLabel('Public link').inputValue();
  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
  await page.goto(path);
  await page.getByRole('link', { name: 'public link on' }).waitFor();
  await ctx.close();
});

test('an administrator renames, promotes and deletes an account, its documents kept', async () => {
  const page = await context.newPage();
  acceptDialogs(page);
  const name = unique('temp').replace(/\s+/g, '-');
  await page.goto('/admin/users');
  await page.getByLabel('Username').fill(name);
  await page.getByLabel(/^Password/).fill('a temporary password');
  await page.getByRole('button', { name: 'Add account' }).click();
  await page.getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.getByLabel('New username').fill(`${name}-renamed`);
  await page.getByRole('button', { name: 'Rename' }).click();
  await banner(page, 'Account renamed.').waitFor();
  await page.getByRole('link', { name: `${name}-renamed` }).click();
  await page.getByRole('button', { name: 'Make administrator' }).click();
  await banner(page, 'Administrator rights given.').waitFor();
  await page.getByRole('link', { name: `${name}-renamed` }).click();
  await page.getByLabel('New owner of the documents').selectOption({ label: ADMIN });
  await page.getByLabel(/Yes, delete/).check();
  await page.getByRole('button', { name: 'Delete the account' }).click();
  await banner(page, 'Account deleted').waitFor();
  assert.equal(await page.getByRole('link', { name: `${name}-renamed` }).count(), 0);
  await page.close();
});

test('a resized text box breaks no content-security rule when the editor comes back', async () => {
  const page = await context.newPage();
  const refused = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to apply/i.test(msg.text())) refused.push(msg.text());
  });
  const path = await createDocument(page, unique('Resized'), 'small');
  await page.goto(`${path}/edit`);
  // What dragging the corner does: the text box gets a height of its own.
  await editorBody(page).evaluate((el) => { el.style.height = '420px'; });
  await editorBody(page).fill('x'.repeat(MAX_DOC_BYTES + 10));
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('alert').filter({ hasText: /limit/ }).waitFor();
  await page.waitForTimeout(200);
  assert.deepEqual(refused, []);
  await page.close();
});

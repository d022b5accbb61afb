// Knowing what changed, as two people see it: the admin writes in the team
// space, a colleague edits the page and mentions the admin; the admin's header
// counts the notices, the inbox names them and leads to the changes, recent
// changes show the edit, and watching turns on and off from the page. With
// screenshots of the inbox and recent changes, desktop and phone, light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN, DESKTOP, PHONE, editorBody, launch, newContext, signIn, unique } from './helpers.js';

const OUT = process.env.QUIRE_SCREENSHOTS ?? path.resolve('screenshots');

let browser;

before(async () => {
  await mkdir(OUT, { recursive: true });
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** Holds back each page htmx loads into #main by 400 ms, as a busy server would. */
async function slowPagesAfterWrites(page) {
  await page.route('**/*', async (route) => {
    const req = route.request();
    if (req.method() === 'GET' && req.headers()['hx-target'] === 'main') {
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    await route.continue();
  });
}

/** Reloads `url` until the header's inbox count shows, or fails after ~10 s. */
async function waitForCount(page, url) {
  for (let i = 0; i < 50; i += 1) {
    await page.goto(url);
    const count = page.locator('#inbox-count-wide:not([hidden])');
    if ((await count.count()) > 0) return parseInt(await count.innerText(), 10);
    await page.waitForTimeout(200);
  }
  throw new Error('no unread count appeared in the header');
}

test('a colleague\'s edit and mention reach the inbox, and lead to the change', async () => {
  const adminCtx = await newContext(browser);
  const admin = await adminCtx.newPage();
  await signIn(admin);

  const title = unique('Release notes');
  await admin.goto('/new');
  await admin.getByLabel('Title').fill(title);
  await editorBody(admin).fill('Version 2 ships on Friday.');
  await admin.getByLabel('Space').selectOption({ label: 'Team' });
  await admin.getByRole('button', { name: 'Save' }).click();
  await admin.getByRole('heading', { level: 1, name: title }).waitFor();
  const docPath = new URL(admin.url()).pathname;
  // Writing it made the admin watch it: the page's control says so.
  await admin.locator('#watch button').waitFor();
  assert.equal(await admin.locator('#watch button').innerText(), 'Watching ✓');

  const name = `dana${process.pid}`;
  await admin.goto('/admin/users');
  await admin.getByLabel('Username').fill(name);
  await admin.getByLabel('Password (at least 10 characters; tell them to change it)').fill('a long enough password');
  await admin.getByRole('button', { name: 'Add account' }).click();
  await admin.locator('.banner').first().waitFor();

  const danaCtx = await newContext(browser);
  const dana = await danaCtx.newPage();
  await dana.goto('/login');
  await dana.getByLabel('Username').fill(name);
  await dana.getByLabel('Password').fill('a long enough password');
  await dana.getByRole('button', { name: 'Sign in' }).click();
  await dana.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
  await dana.goto(`${docPath}/edit`);
  await editorBody(dana).fill(`Version 2 ships on Friday. @${ADMIN} can you check the date?`);
  await dana.getByRole('button', { name: 'Save' }).click();
  await dana.getByRole('heading', { level: 1, name: title }).waitFor();

  const count = await waitForCount(admin, '/');
  assert.equal(count, 2, 'an edit and a mention');
  await admin.getByRole('link', { name: /^Inbox/ }).first().click();
  await admin.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
  const items = admin.locator('ol.notices li.unread');
  assert.equal(await items.count(), 2);
  const text = await admin.locator('ol.notices').innerText();
  assert.match(text, new RegExp(`${name} mentioned you`));
  assert.match(text, new RegExp(`${name} edited it`));

  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    for (const scheme of ['light', 'dark']) {
      await admin.setViewportSize(viewport);
      await admin.emulateMedia({ colorScheme: scheme });
      await admin.goto('/inbox');
      const width = await admin.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the inbox fits a ${size} screen (${width}px)`);
      // The header stays one row with the inbox in it.
      const header = await admin.locator('header.site').boundingBox();
      assert.ok(header.height < 80, `the header is one row on a ${size} screen (${header.height}px)`);
      // The count is a small badge, not a bar across the header.
      const badge = await admin.locator(`#inbox-count-${size === 'phone' ? 'phone' : 'wide'}`).boundingBox();
      assert.ok(badge && badge.width < 48 && badge.height < 32, `the count is a badge: ${JSON.stringify(badge)}`);
      await admin.screenshot({ path: path.join(OUT, `inbox-${size}-${scheme}.png`), fullPage: true });
      await admin.goto('/changes');
      await admin.getByRole('heading', { level: 1, name: 'Recent changes' }).waitFor();
      await admin.screenshot({ path: path.join(OUT, `changes-${size}-${scheme}.png`), fullPage: true });
    }
  }
  await admin.setViewportSize(DESKTOP);
  await admin.emulateMedia({ colorScheme: 'light' });

  // Recent changes name who edited, and lead to what they changed.
  await admin.goto('/changes');
  const line = admin.locator('ol.changes-list li', { hasText: name }).first();
  assert.match(await line.innerText(), new RegExp(`edited by ${name}`));
  await line.getByRole('link', { name: /^\+1 −1 lines$/ }).click();
  await admin.getByRole('heading', { level: 1, name: 'Changes from revision 1 to 2' }).waitFor();

  // Following the edit's notice marks it read and opens the diff.
  await admin.goto('/inbox');
  await admin.locator('ol.notices li', { hasText: 'edited it' }).getByRole('link', { name: title }).click();
  await admin.getByRole('heading', { level: 1, name: 'Changes from revision 1 to 2' }).waitFor();
  await admin.goto('/inbox');
  assert.equal(await admin.locator('ol.notices li.unread').count(), 1);
  // On a busy server the page a write leads to comes later than the write's
  // answer; its message is said with that page, never beside the old one.
  await slowPagesAfterWrites(admin);
  await admin.getByRole('button', { name: 'Mark all read' }).click();
  await admin.locator('.banner', { hasText: 'Every notice is marked read.' }).waitFor();
  // The header's count went with them, without reloading the page.
  assert.equal(await admin.locator('#inbox-count-wide').isHidden(), true);

  // A space's list offers its recent changes and watching it.
  await admin.goto('/spaces');
  const teamHref = await admin.locator('table.users tbody a[href^="/spaces/"]', { hasText: 'Team' }).first().getAttribute('href');
  const teamId = teamHref.split('/').pop();
  for (const [size, viewport, scheme] of [['desktop', DESKTOP, 'light'], ['phone', PHONE, 'dark']]) {
    await admin.setViewportSize(viewport);
    await admin.emulateMedia({ colorScheme: scheme });
    await admin.goto(`/?space=${teamId}`);
    await admin.locator('.list-links #watch button').waitFor();
    const width = await admin.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= viewport.width, `the space's list fits a ${size} screen (${width}px)`);
    const button = await admin.locator('.list-links #watch button').boundingBox();
    assert.ok(button.width < 200, `the watch button is a button, not a bar (${button.width}px)`);
    await admin.screenshot({ path: path.join(OUT, `list-space-${size}-${scheme}.png`) });
  }
  await admin.setViewportSize(DESKTOP);
  await admin.emulateMedia({ colorScheme: 'light' });

  // Watching off, from the document's page.
  await admin.goto(docPath);
  await admin.locator('#watch button').click();
  await admin.locator('.banner', { hasText: 'No longer watching' }).waitFor();
  assert.equal(await admin.locator('#watch button').innerText(), 'Watch');

  await adminCtx.close();
  await danaCtx.close();
});

test('two people in one editor see each other, and the second takes the first one\'s changes before saving', async () => {
  const adminCtx = await newContext(browser);
  const admin = await adminCtx.newPage();
  await signIn(admin);
  const title = unique('Shared runbook');
  await admin.goto('/new');
  await admin.getByLabel('Title').fill(title);
  await editorBody(admin).fill('Line one.\nLine two.\nLine three.');
  await admin.getByLabel('Space').selectOption({ label: 'Team' });
  await admin.getByRole('button', { name: 'Save' }).click();
  await admin.getByRole('heading', { level: 1, name: title }).waitFor();
  const docPath = new URL(admin.url()).pathname;

  const name = `eli${process.pid}`;
  await admin.goto('/admin/users');
  await admin.getByLabel('Username').fill(name);
  await admin.getByLabel('Password (at least 10 characters; tell them to change it)').fill('a long enough password');
  await admin.getByRole('button', { name: 'Add account' }).click();
  await admin.locator('.banner').first().waitFor();
  const eliCtx = await newContext(browser);
  const eli = await eliCtx.newPage();
  await eli.goto('/login');
  await eli.getByLabel('Username').fill(name);
  await eli.getByLabel('Password').fill('a long enough password');
  await eli.getByRole('button', { name: 'Sign in' }).click();
  await eli.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();

  await admin.goto(`${docPath}/edit`);
  await eli.goto(`${docPath}/edit`);
  await eli.locator('#editing-now', { hasText: `Also editing now: ${ADMIN}` }).waitFor();
  await admin.locator('#editing-now', { hasText: `Also editing now: ${name}` }).waitFor();

  // Eli changes the last line; the admin saves a change to the first.
  await editorBody(eli).fill('Line one.\nLine two.\nLine THREE.');
  await editorBody(admin).fill('LINE ONE.\nLine two.\nLine three.');
  await admin.getByRole('button', { name: 'Save' }).click();
  await admin.getByRole('heading', { level: 1, name: title }).waitFor();

  // Eli is told who saved, and takes those changes into the editor.
  const notice = eli.locator('.saved-since', { hasText: `${ADMIN} saved version 2 while you were editing` });
  await notice.waitFor();
  await eli.screenshot({ path: path.join(OUT, 'editing-now-desktop-light.png') });
  await eli.setViewportSize(PHONE);
  await eli.emulateMedia({ colorScheme: 'dark' });
  await eli.screenshot({ path: path.join(OUT, 'editing-now-phone-dark.png') });
  const width = await eli.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `the editor with the notice fits a phone (${width}px)`);
  await notice.getByRole('button', { name: 'Merge their changes into yours' }).click();
  await eli.locator('.banner', { hasText: 'Nothing is saved yet' }).waitFor();
  assert.equal(await editorBody(eli).inputValue(), 'LINE ONE.\nLine two.\nLine THREE.');
  await eli.getByRole('button', { name: 'Save' }).click();
  await eli.getByRole('heading', { level: 1, name: title }).waitFor();
  await eli.locator('.banner', { hasText: 'Saved.' }).waitFor();
  assert.match(await eli.locator('.prose').innerText(), /LINE ONE\.[\s\S]*Line THREE\./);

  await adminCtx.close();
  await eliCtx.close();
});

test('without JavaScript: the inbox, marking read and watching work as plain pages', async () => {
  const ctx = await newContext(browser, { javaScriptEnabled: false });
  const page = await ctx.newPage();
  await signIn(page);
  await page.goto('/inbox');
  await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
  const title = unique('Plain watch');
  await page.goto('/new');
  await page.getByLabel('Title').fill(title);
  await editorBody(page).fill('no scripts here');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  // Without JavaScript the page links to the watch page.
  await page.getByRole('link', { name: 'Watch…' }).click();
  await page.getByText(`You are told of changes to “${title}”.`).waitFor();
  await page.getByRole('button', { name: 'Watching ✓' }).click();
  await page.locator('.banner', { hasText: 'No longer watching' }).waitFor();
  await page.getByRole('link', { name: 'Watch…' }).click();
  await page.getByText(`You are not told of changes to “${title}”.`).waitFor();
  await ctx.close();
});

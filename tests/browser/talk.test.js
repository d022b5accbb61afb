// Talking about a document: a passage selected in the page becomes the quote
// of a new comment, which appears in place (htmx); a colleague replies, the
// writer resolves the thread; without JavaScript the same forms post and come
// back to the comment. Screenshots of the discussion, desktop and phone, light
// and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DESKTOP, PHONE, banner, editorBody, launch, newContext, person, signIn, unique } from './helpers.js';

const OUT = process.env.QUIRE_SCREENSHOTS ?? path.resolve('screenshots');

let browser;

before(async () => {
  await mkdir(OUT, { recursive: true });
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** Selects the whole text of the first element matching `selector`, as a mouse drag would. */
async function selectText(page, selector) {
  await page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const range = document.createRange();
    range.selectNodeContents(el);
    const s = window.getSelection();
    s.removeAllRanges();
    s.addRange(range);
  }, selector);
  await page.locator(selector).dispatchEvent('mouseup');
}

test('a selected passage is commented on in place, answered and resolved', async () => {
  const adminCtx = await newContext(browser);
  const admin = await adminCtx.newPage();
  await signIn(admin);
  const writer = `wes${process.pid}`;
  const { ctx, page } = await person(browser, admin, writer);
  const name = `fay${process.pid}`;
  const { ctx: fayCtx, page: fay } = await person(browser, admin, name, { javaScriptEnabled: false });
  const title = unique('Rollout plan');
  await page.goto('/new');
  await page.getByLabel('Title').fill(title);
  await editorBody(page).fill('We deploy on **Tuesday** at noon.\n\nThe database migrates first.');
  await page.getByLabel('Space').selectOption({ label: 'Team' });
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  const docPath = new URL(page.url()).pathname;

  // The page's script is deferred: the heading can show before it listens.
  await page.waitForFunction(() => document.readyState !== 'loading' && window.htmx);
  await selectText(page, '#doc .prose p:last-of-type');
  const quoteButton = page.getByRole('button', { name: 'Comment on the selected passage' });
  await quoteButton.waitFor();
  // The page asks every few seconds who else is editing; that update must
  // not take the button away from a passage still selected.
  await page.evaluate(() => new Promise((resolve) => {
    document.addEventListener('htmx:afterSettle', () => resolve(), { once: true });
    const poll = document.getElementById('editing-now');
    window.htmx.ajax('GET', poll.getAttribute('hx-get'), { target: poll, swap: 'innerHTML' });
  }));
  assert.ok(await quoteButton.isVisible(), 'the quote button stays while its passage is selected');
  const box = await quoteButton.boundingBox();
  assert.ok(box.width < 200, `the quote button is a button, not a bar (${box.width}px)`);
  await quoteButton.click();
  assert.equal(await page.locator('#comment-quote').inputValue(), 'The database migrates first.');
  // The cursor is in the comment's box, ready to type.
  assert.equal(await page.evaluate(() => document.activeElement.id), 'comment-body');
  await page.keyboard.type('Which database, the replica too?');
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  await banner(page, 'Comment added.').waitFor();
  const thread = page.locator('article.thread').first();
  assert.equal(await thread.locator('blockquote.comment-quote').innerText(), 'The database migrates first.');
  assert.match(await thread.innerText(), /Which database, the replica too\?/);
  // The page was not reloaded: the address is the document's, and the form is empty again.
  assert.equal(new URL(page.url()).pathname, docPath);
  assert.equal(await page.locator('#comment-body').inputValue(), '');

  // A colleague, without JavaScript, replies.
  await fay.goto(docPath);
  await fay.locator('article.thread details.reply-box > summary').first().click();
  await fay.getByLabel('Your reply').fill(`Both, @${writer}: the replica follows.`);
  await fay.getByRole('button', { name: 'Reply' }).click();
  await banner(fay, 'Comment added.').waitFor();
  assert.match(fay.url(), /#comment-\d+$/);
  assert.match(await fay.locator('article.thread .comment.reply').innerText(), /the replica follows/);
  // And starts a thread of their own, quoting by hand.
  await fay.locator('details.quote-box > summary').click();
  await fay.getByLabel(/The passage you comment on/).fill('at noon');
  await fay.getByLabel('Add a comment').fill('Noon is lunch. 11:00?');
  await fay.getByRole('button', { name: 'Comment', exact: true }).click();
  await banner(fay, 'Comment added.').waitFor();
  assert.equal(await fay.locator('article.thread').count(), 2);

  // The writer resolves the first thread.
  await page.goto(docPath);
  await page.locator('article.thread').first().getByRole('button', { name: 'Resolve' }).click();
  await banner(page, 'Marked resolved.').waitFor();
  await page.locator('article.thread.resolved .resolved-note', { hasText: `Resolved by ${writer}` }).waitFor();

  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    for (const scheme of ['light', 'dark']) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${docPath}#comments`);
      await page.locator('#comments').waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the discussion fits a ${size} screen (${width}px)`);
      // A reply sits inside its thread, indented, never wider than it.
      const t = await page.locator('article.thread').first().boundingBox();
      const r = await page.locator('article.thread .comment.reply').first().boundingBox();
      assert.ok(r.x > t.x && r.x + r.width <= t.x + t.width + 1, `the reply is inside its thread: ${JSON.stringify([t, r])}`);
      const button = await page.getByRole('button', { name: 'Comment', exact: true }).boundingBox();
      assert.ok(button.width < 200, `the Comment button is a button (${button.width}px)`);
      await page.locator('#comments').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(OUT, `comments-${size}-${scheme}.png`), fullPage: true });
    }
  }
  await ctx.close();
  await fayCtx.close();
  await adminCtx.close();
});

test('an administrator adds a webhook and sees its deliveries', async () => {
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await signIn(page);
  await page.goto('/admin/users');
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
  const url = `https://ci.example.org/hooks/quire/${process.pid}/a-rather-long-path-that-must-wrap-on-a-phone?token=0123456789abcdef`;
  await page.getByLabel(/^Address/).fill(url);
  await page.getByRole('button', { name: 'Add webhook' }).click();
  await banner(page, 'Webhook saved').waitFor();
  await page.getByRole('heading', { level: 1, name: url }).waitFor();
  await page.locator('details.secret > summary').click();
  assert.match(await page.locator('details.secret code.token').innerText(), /^[0-9a-f]{64}$/);
  // An event for it: a new document; the delivery is listed (the address
  // cannot be reached from here, so it says why).
  await page.goto('/new');
  await page.getByLabel('Title').fill(unique('Hooked'));
  await editorBody(page).fill('text');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.goto('/webhooks');
  await page.getByRole('link', { name: url }).click();
  await page.getByRole('heading', { level: 1, name: url }).waitFor();
  for (let i = 0; i < 50 && (await page.locator('table.deliveries tbody tr').count()) === 0; i += 1) {
    await page.waitForTimeout(200);
    await page.reload();
  }
  assert.ok((await page.locator('table.deliveries tbody tr').count()) >= 1, 'a delivery is listed');
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    for (const scheme of ['light', 'dark']) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.reload();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the webhook's page fits a ${size} screen (${width}px)`);
      // "Send again" stays one line: a button, not a column of letters.
      const again = await page.getByRole('button', { name: 'Send again' }).first().boundingBox();
      assert.ok(again.height < 50 && again.width > 60, `Send again is one line: ${JSON.stringify(again)}`);
      await page.screenshot({ path: path.join(OUT, `webhook-${size}-${scheme}.png`), fullPage: true });
      await page.goto('/webhooks');
      const listWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(listWidth <= viewport.width, `the webhooks list fits a ${size} screen (${listWidth}px)`);
      await page.screenshot({ path: path.join(OUT, `webhooks-${size}-${scheme}.png`), fullPage: true });
      await page.getByRole('link', { name: url }).click();
      await page.getByRole('heading', { level: 1, name: url }).waitFor();
    }
  }
  await ctx.close();
});

test('a colleague suggests an edit instead of saving, and the writer reviews and accepts it', async () => {
  const adminCtx = await newContext(browser);
  const admin = await adminCtx.newPage();
  await signIn(admin);
  const { ctx, page } = await person(browser, admin, `wyn${process.pid}`);
  const name = `gus${process.pid}`;
  const { ctx: gusCtx, page: gus } = await person(browser, admin, name);
  const title = unique('Support rota');
  await page.goto('/new');
  await page.getByLabel('Title').fill(title);
  await editorBody(page).fill('Monday: Ana\nTuesday: Ben\nWednesday: Cy\n');
  await page.getByLabel('Space').selectOption({ label: 'Team' });
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  const docPath = new URL(page.url()).pathname;

  await gus.goto(`${docPath}/edit`);
  await editorBody(gus).fill('Monday: Ana\nTuesday: Dee\nWednesday: Cy\n');
  await gus.getByRole('button', { name: 'Suggest instead' }).click();
  await banner(gus, 'Suggested').waitFor();
  await gus.getByRole('heading', { level: 1, name: `Suggested edit by ${name}` }).waitFor();

  // The writer finds it on the page, reviews the change and accepts it.
  await page.goto(docPath);
  await page.getByRole('link', { name: `${name}'s suggestion` }).click();
  await page.getByRole('heading', { level: 1, name: `Suggested edit by ${name}` }).waitFor();
  assert.match(await page.locator('table.diff').innerText(), /Tuesday: Dee/);
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    for (const scheme of ['light', 'dark']) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.reload();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the review fits a ${size} screen (${width}px)`);
      const accept = await page.getByRole('button', { name: 'Accept and save' }).boundingBox();
      assert.ok(accept.width < 260 && accept.height < 60, `Accept is a button: ${JSON.stringify(accept)}`);
      await page.screenshot({ path: path.join(OUT, `suggestion-${size}-${scheme}.png`), fullPage: true });
    }
  }
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('button', { name: 'Accept and save' }).click();
  await banner(page, 'Accepted').waitFor();
  assert.match(await page.locator('#doc .prose').innerText(), /Tuesday: Dee/);
  await page.goto(`${docPath}/history`);
  assert.match(await page.locator('main').innerText(), new RegExp(`suggested by ${name}`));
  await ctx.close();
  await gusCtx.close();
  await adminCtx.close();
});

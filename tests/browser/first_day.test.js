// What a new team meets in its first hour: a list it can scan, a toolbar that types
// where the caret is, lists that continue on Enter, a keyboard that is never trapped,
// a version number that follows a ticked task, and filters that apply when chosen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PHONE, banner, createDocument, editorBody, launch, newContext, signIn, unique } from './helpers.js';

let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

async function signedIn(options = {}) {
  const ctx = await newContext(browser, options);
  const page = await ctx.newPage();
  await signIn(page);
  return { ctx, page };
}

/** Creates a document in `folder` with `tags` through the New page. */
async function createPlaced(page, title, folder, tags) {
  await page.goto('/new');
  await page.getByLabel('Title').fill(title);
  await editorBody(page).fill(`Notes for ${title}.`);
  await page.getByLabel('Folder').fill(folder);
  await page.getByLabel('Tags').fill(tags);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

const folder = `Dense${process.pid}/Meetings`;

test('the list is dense: one line a document with its tags inline, a dozen rows on a laptop screen', async () => {
  const { ctx, page } = await signedIn({ viewport: { width: 1280, height: 800 } });
  for (let i = 0; i < 14; i += 1) {
    await createPlaced(page, unique(`Weekly sync ${i}`), folder, 'meeting, q1, design');
  }
  await page.goto(`/?folder=${encodeURIComponent(`Dense${process.pid}`)}`);
  const rows = page.locator('ol.docs > li');
  assert.equal(await rows.count(), 14);
  const boxes = await rows.evaluateAll((lis) => lis.map((li) => {
    const r = li.getBoundingClientRect();
    const tags = [...li.querySelectorAll('a.tag')].map((t) => t.getBoundingClientRect());
    const title = li.querySelector('a.title').getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: r.height, width: r.width, tags, title };
  }));
  for (const box of boxes) {
    assert.ok(box.height < 48, `a row is ${box.height}px high`);
    for (const tag of box.tags) {
      assert.ok(tag.width < box.width / 4, `a tag is ${tag.width}px wide in a ${box.width}px row`);
      assert.ok(Math.abs(tag.top - box.tags[0].top) < 2, 'the tags sit on one line');
    }
    assert.ok(box.tags[0].left > box.title.right, 'the tags follow the title');
  }
  const visible = boxes.filter((b) => b.bottom <= 800).length;
  assert.ok(visible >= 12, `only ${visible} documents fit on a 1280×800 screen`);
  // The folder is the row's prefix, without a stray separator at the far right.
  const row = await rows.first().innerText();
  assert.match(row, new RegExp(`^Dense${process.pid}/Meetings\\s*/\\s*Weekly sync .* design meeting q1\\s`));

  // Sort and order apply when chosen, without a Show button.
  assert.equal(await page.getByRole('button', { name: 'Show' }).isVisible(), false);
  await page.getByLabel('Sort by').selectOption('title');
  await page.waitForURL(/sort=title/);
  await page.getByLabel('Order').selectOption('desc');
  await page.waitForURL(/order=desc/);
  const titles = await page.locator('ol.docs a.title').allInnerTexts();
  assert.deepEqual(titles, [...titles].sort().reverse());
  assert.equal(titles.length, 14);
  await ctx.close();
});

test('on a phone the documents come before the folders and tags', async () => {
  const { ctx, page } = await signedIn({ viewport: PHONE, isMobile: true, hasTouch: true });
  await page.goto('/');
  const list = await page.locator('ol.docs').boundingBox();
  const folders = await page.getByRole('heading', { name: 'Folders' }).boundingBox();
  assert.ok(list.y < folders.y, `the list starts at ${list.y}, the folders at ${folders.y}`);
  await ctx.close();
});

test('the first document is a few Tabs after "Skip to content"', async () => {
  const { ctx, page } = await signedIn();
  await page.goto('/');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to content');
  await page.keyboard.press('Enter');
  let tabs = 0;
  for (; tabs < 10; tabs += 1) {
    await page.keyboard.press('Tab');
    const here = await page.evaluate(() => document.activeElement.matches('ol.docs a.title'));
    if (here) break;
  }
  assert.ok(tabs < 8, `the first document is ${tabs + 1} Tabs away`);
  await ctx.close();
});

test('a toolbar marker on an empty line leaves the caret after it; Enter continues a list', async () => {
  const { ctx, page } = await signedIn();
  await page.goto('/new');
  const area = editorBody(page);
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  await area.fill('');
  await area.focus();
  await toolbar.getByRole('button', { name: 'Heading' }).click();
  await page.keyboard.type('Goals');
  assert.equal(await area.inputValue(), '## Goals');

  await page.keyboard.press('Enter');
  await toolbar.getByRole('button', { name: 'Task list' }).click();
  await page.keyboard.type('order seeds');
  await page.keyboard.press('Enter');
  await page.keyboard.type('buy compost');
  assert.equal(await area.inputValue(), '## Goals\n- [ ] order seeds\n- [ ] buy compost');
  // Enter on an item with nothing after its marker ends the list.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('after');
  assert.equal(await area.inputValue(), '## Goals\n- [ ] order seeds\n- [ ] buy compost\nafter');

  await area.fill('1. one');
  await area.evaluate((el) => el.setSelectionRange(el.value.length, el.value.length));
  await page.keyboard.press('Enter');
  await page.keyboard.type('two');
  assert.equal(await area.inputValue(), '1. one\n2. two');
  await area.fill('');
  await toolbar.getByRole('button', { name: 'Quote' }).click();
  await page.keyboard.type('said');
  assert.equal(await area.inputValue(), '> said');

  // Tab on an empty line moves on: the text box is no trap.
  await area.fill('text\n\n');
  await area.evaluate((el) => el.setSelectionRange(el.value.length, el.value.length));
  await page.keyboard.press('Tab');
  assert.equal(await area.inputValue(), 'text\n\n');
  assert.notEqual(await page.evaluate(() => document.activeElement.name), 'body');
  await ctx.close();
});

test('after ticking tasks the page shows the version each tick saved', async () => {
  const { ctx, page } = await signedIn();
  await createDocument(page, unique('Ticks'), '- [ ] one\n- [ ] two\n- [ ] three');
  const meta = page.locator('article.document p.meta');
  assert.match(await meta.innerText(), /version 1\b/);
  for (const [n, name] of [[2, 'one'], [3, 'two'], [4, 'three']]) {
    await page.getByRole('checkbox', { name }).check();
    await banner(page, 'Ticked and saved.').waitFor();
    await page.waitForFunction(
      (want) => document.querySelector('article.document p.meta').innerText.includes(want),
      `version ${n}`,
    );
    await page.locator('.banner').evaluateAll((els) => els.forEach((e) => e.remove()));
  }
  await page.reload();
  assert.match(await meta.innerText(), /version 4\b/);
  await ctx.close();
});

test('a new document typed and left before its first save is offered back, then saved', async () => {
  const { ctx, page } = await signedIn();
  const title = unique('Never saved');
  await page.goto('/new');
  await page.getByLabel('Title').fill(title);
  await editorBody(page).fill('- [ ] typed before the first save');
  // The tab is closed before the autosave's pause is over.
  await page.close({ runBeforeUnload: true });

  const again = await ctx.newPage();
  let offer;
  for (let i = 0; i < 50; i += 1) {
    await again.goto('/new');
    offer = again.locator('.new-drafts').getByRole('link', { name: title });
    if (await offer.count()) break;
    await again.waitForTimeout(200);
  }
  await offer.waitFor();
  // The document list offers it too.
  await again.goto('/');
  await again.locator('.new-drafts').getByRole('link', { name: title }).click();
  await again.getByRole('heading', { level: 1, name: 'New document' }).waitFor();
  assert.equal(await again.getByLabel('Title').inputValue(), title);
  assert.equal(await editorBody(again).inputValue(), '- [ ] typed before the first save');
  await again.getByRole('button', { name: 'Save' }).click();
  await again.getByRole('heading', { level: 1, name: title }).waitFor();
  await again.goto('/new');
  await again.locator('form.editor').waitFor();
  await again.waitForLoadState('networkidle');
  assert.equal(await again.locator('.new-drafts').getByRole('link', { name: title }).count(), 0);
  await ctx.close();
});

test('Arrow Down from the search box reaches the results, and the arrows move between them', async () => {
  const { ctx, page } = await signedIn();
  const word = `arrowkeys${process.pid}`;
  await createDocument(page, unique('Arrows one'), `about ${word}`);
  await createDocument(page, unique('Arrows two'), `more ${word}`);
  await page.goto(`/search?q=${word}`);
  const hits = page.locator('ol.hits > li > a');
  await hits.nth(1).waitFor();
  await page.locator('#search-q').focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.closest('ol.hits') !== null), true);
  const first = await page.evaluate(() => document.activeElement.textContent);
  await page.keyboard.press('ArrowDown');
  const second = await page.evaluate(() => document.activeElement.textContent);
  assert.notEqual(first, second);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'search-q');
  await ctx.close();
});

/** A valid 1x1 PNG (one opaque pixel). */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

test('an image pasted into a new document saves it first, then attaches at the cursor', async () => {
  const { ctx, page } = await signedIn();
  await page.goto('/new');
  const area = editorBody(page);
  await area.fill('Site visit\n\nThe wall, as found:\n');
  await area.evaluate((el) => el.setSelectionRange(el.value.length, el.value.length));
  const taken = await area.evaluate((el, base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], 'wall.png', { type: 'image/png' }));
    const event = new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: data });
    el.focus();
    el.dispatchEvent(event);
    return event.defaultPrevented;
  }, PNG_1X1);
  assert.equal(taken, true, 'the paste was taken over by the script');
  const status = page.locator('.attach [data-attach-status]');
  await status.filter({ hasText: /Attached|Not attached/ }).waitFor();
  assert.equal(await status.innerText(), 'Attached wall.png.');
  assert.match(new URL(page.url()).pathname, /^\/d\/[^/]+\/edit$/);
  // Named after its first line, the text kept, the image where the cursor was.
  assert.equal(await page.getByLabel('Title').inputValue(), 'Site visit');
  assert.equal(await editorBody(page).inputValue(), 'Site visit\n\nThe wall, as found:\n![wall.png](wall.png)\n');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: 'Site visit' }).waitFor();
  await page.locator('.prose img[alt="wall.png"]').waitFor();
  await ctx.close();
});

test('a save made while an autosave is on its way leaves no stale draft, also after a merge', async () => {
  const { ctx, page } = await signedIn();
  const title = unique('Two tabs');
  const path = await createDocument(page, title, 'one\ntwo\nthree');
  const other = await ctx.newPage();
  await other.goto(`${path}/edit`);
  await page.goto(`${path}/edit`);
  await editorBody(page).fill('ONE\ntwo\nthree');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();

  // The other tab's autosave is slow to arrive; its Save is pressed meanwhile.
  await other.route('**/draft', async (route) => {
    if (route.request().method() === 'POST') await new Promise((done) => setTimeout(done, 1500));
    await route.continue();
  });
  const autosave = other.waitForRequest((r) => r.url().endsWith('/draft') && r.method() === 'POST');
  await editorBody(other).fill('one\ntwo\nTHREE');
  await autosave;
  await other.getByRole('button', { name: 'Save' }).click();
  await other.getByRole('heading', { level: 1, name: title }).waitFor();
  assert.match(await other.locator('article.document .prose').innerText(), /ONE\s+two\s+THREE/);
  await other.waitForTimeout(2000);
  await other.reload();
  await other.waitForLoadState('networkidle');
  assert.equal(await other.locator('#draft-open').count(), 0, 'a stale draft is offered');
  await other.goto(`${path}/edit`);
  assert.equal(await other.locator('#draft-offer').count(), 0, 'the editor offers a stale draft');
  await ctx.close();
});

test('several documents ticked in the list are tagged together, without JavaScript too', async () => {
  for (const javaScriptEnabled of [true, false]) {
    const { ctx, page } = await signedIn({ javaScriptEnabled });
    const folder = `Chosen${process.pid}${javaScriptEnabled ? 'js' : 'plain'}`;
    const titles = [unique('Chosen one'), unique('Chosen two')];
    for (const title of titles) await createPlaced(page, title, folder, '');
    await page.goto(`/?folder=${folder}`);
    for (const title of titles) await page.getByRole('checkbox', { name: `Choose “${title}”` }).check();
    await page.getByLabel('Do', { exact: true }).selectOption('tag');
    await page.getByRole('group', { name: 'With the chosen documents' }).getByLabel('Tags').fill('chosen-together');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('The tags were added to the chosen documents.').waitFor();
    const rows = page.locator('ol.docs > li', { has: page.locator('a.tag', { hasText: 'chosen-together' }) });
    // With htmx the message can show a moment before the list is swapped in.
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    await ctx.close();
  }
});

test('the [[ link offer opens at the caret, not under the text box', async () => {
  const { ctx, page } = await signedIn();
  const target = unique('Caret target');
  await createDocument(page, target, 'to link to');
  await page.goto('/new');
  const area = editorBody(page);
  await area.focus();
  await page.keyboard.type(`First line\nSee [[${target.slice(0, 10)}`);
  const offer = page.getByRole('listbox', { name: 'Documents to link' });
  await offer.getByRole('option', { name: target }).waitFor();
  const box = await area.boundingBox();
  const list = await offer.boundingBox();
  // Two lines into the text: the offer starts below the second line, well inside
  // the text box, and left of its middle (where "See [[" ends).
  assert.ok(list.y > box.y + 20 && list.y < box.y + 120, `the offer is at ${list.y}, the text box at ${box.y}`);
  assert.ok(list.x < box.x + box.width / 2, `the offer starts at x ${list.x}`);
  await page.keyboard.press('Enter');
  assert.equal(await area.inputValue(), `First line\nSee [[${target}]]`);
  await ctx.close();
});

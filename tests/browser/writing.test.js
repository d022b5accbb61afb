// The writing experience: the preview beside the text on wide screens, a
// Write/Preview switch on phones, a Preview button without JavaScript, and
// files pasted, dropped or chosen into the text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { PHONE, banner, createDocument, editorBody, launch, newContext, signIn, unique } from './helpers.js';

const require = createRequire(import.meta.url);
const axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

/** A valid 1x1 PNG (one opaque pixel), small enough to paste. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

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

test('the preview sits beside the text on a wide screen and follows the typing', async () => {
  const { ctx, page } = await signedIn();
  const path = await createDocument(page, unique('Previewed'), 'first words');
  await page.goto(`${path}/edit`);
  const preview = page.locator('#preview');
  await preview.getByText('first words').waitFor();
  await editorBody(page).fill('# A heading\n\n- [x] done *well*');
  await preview.getByRole('heading', { level: 1, name: 'A heading' }).waitFor();
  assert.equal(await preview.getByRole('checkbox', { name: 'done well' }).isChecked(), true);

  const area = await editorBody(page).boundingBox();
  const pane = await page.locator('.preview-pane').boundingBox();
  assert.ok(pane.x >= area.x + area.width, `the pane starts at ${pane.x}, the text ends at ${area.x + area.width}`);
  assert.ok(Math.abs(pane.y - area.y) < 200, 'side by side, not stacked');
  assert.equal(await page.getByRole('button', { name: 'Write' }).isVisible(), false);
  // With JavaScript the preview needs no button of its own.
  assert.equal(await page.locator('.actions').getByRole('button', { name: 'Preview' }).isVisible(), false);
  // Previewing saved nothing.
  await page.goto(path);
  await page.getByText('first words').waitFor();
  await ctx.close();
});

test('on a phone, Write and Preview switch between the text and its rendering', async () => {
  const { ctx, page } = await signedIn({ viewport: PHONE });
  await page.goto('/new');
  await editorBody(page).fill('## Shopping\n\nmilk and *bread*');
  assert.equal(await page.locator('#preview').isVisible(), false);
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await page.locator('#preview').getByRole('heading', { level: 2, name: 'Shopping' }).waitFor();
  assert.equal(await editorBody(page).isVisible(), false);
  assert.equal(await page.getByRole('button', { name: 'Preview', exact: true }).getAttribute('aria-pressed'), 'true');
  await page.getByRole('button', { name: 'Write' }).click();
  assert.equal(await editorBody(page).isVisible(), true);
  assert.equal(await page.locator('#preview').isVisible(), false);
  assert.equal(await editorBody(page).inputValue(), '## Shopping\n\nmilk and *bread*');
  await ctx.close();
});

test('without JavaScript, Preview shows the editor again with the text rendered and kept', async () => {
  const { ctx, page } = await signedIn({ javaScriptEnabled: false });
  const title = unique('Plain preview');
  const path = await createDocument(page, title, 'saved');
  await page.goto(`${path}/edit`);
  await editorBody(page).fill('### Not yet saved\n\nwith **bold** words');
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.locator('#preview').getByRole('heading', { level: 3, name: 'Not yet saved' }).waitFor();
  // The Markdown help opens without JavaScript too.
  await page.getByText('Markdown and keyboard help').click();
  await page.getByRole('cell', { name: 'a task list' }).waitFor();
  assert.equal(await editorBody(page).inputValue(), '### Not yet saved\n\nwith **bold** words');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  await page.getByRole('heading', { level: 3, name: 'Not yet saved' }).waitFor();
  await ctx.close();
});

test('times read as relative local time, the exact time on hover; UTC without JavaScript', async () => {
  const { ctx, page } = await signedIn({ timezoneId: 'Asia/Tokyo', locale: 'en-GB' });
  const path = await createDocument(page, unique('Timed'), 'now');
  const stamp = page.locator('p.meta time');
  await stamp.filter({ hasText: /now|seconds? ago/ }).waitFor();
  const hover = await stamp.getAttribute('title');
  assert.match(hover, /GMT\+9|JST/, hover);
  await page.goto(`${path}/history`);
  await page.locator('time').first().filter({ hasText: /now|seconds? ago/ }).waitFor();
  await ctx.close();

  const plain = await signedIn({ javaScriptEnabled: false });
  await plain.page.goto(path);
  assert.match(await plain.page.locator('p.meta time').innerText(), /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  await plain.ctx.close();
});

test('a long document has a table of contents, links to its headings and copyable code', async () => {
  const { ctx, page } = await signedIn({ permissions: ['clipboard-read', 'clipboard-write'] });
  const body = '## Setup\n\nInstall it.\n\n```sh\nquire serve --port 8080\n```\n\n## Use\n\nWrite.\n\n### Keys\n\nCtrl+S saves.\n\n## Backup\n\n' +
    'Replicas.\n\n'.repeat(60);
  const path = await createDocument(page, unique('Handbook'), body);
  const toc = page.getByRole('navigation', { name: 'Contents' });
  await toc.getByRole('link', { name: 'Keys' }).waitFor();
  assert.deepEqual(await toc.getByRole('link').allInnerTexts(), ['Setup', 'Use', 'Keys', 'Backup']);
  await toc.getByRole('link', { name: 'Backup' }).click();
  await page.waitForURL(`${path}#h-backup`);
  const heading = page.getByRole('heading', { level: 2, name: 'Backup' });
  const box = await heading.boundingBox();
  assert.ok(box.y >= 0 && box.y < 300, `the heading is at ${box.y}px after following the link`);
  assert.equal(await heading.getByRole('link', { name: 'Link to this section' }).getAttribute('href'), '#h-backup');

  await page.locator('.prose pre').hover();
  await page.locator('.prose pre').getByRole('button', { name: 'Copy' }).click();
  await page.locator('.prose pre').getByRole('button', { name: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'quire serve --port 8080\n');
  await ctx.close();
});

test('the toolbar and shortcuts format the text, undo takes it back, Tab indents list items', async () => {
  const { ctx, page } = await signedIn();
  await page.goto('/new');
  const area = editorBody(page);
  await area.fill('make this bold');
  await area.evaluate((el) => el.setSelectionRange(10, 14));
  await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Bold' }).click();
  assert.equal(await area.inputValue(), 'make this **bold**');
  await page.keyboard.press('Control+z');
  assert.equal(await area.inputValue(), 'make this bold');

  await area.evaluate((el) => el.setSelectionRange(5, 9));
  await page.keyboard.press('Control+i');
  assert.equal(await area.inputValue(), 'make *this* bold');
  await area.evaluate((el) => el.setSelectionRange(0, 4));
  await page.keyboard.press('Control+k');
  assert.equal(await area.inputValue(), '[make](https://) *this* bold');
  assert.equal(await area.evaluate((el) => el.value.slice(el.selectionStart, el.selectionEnd)), 'https://');

  await area.fill('milk\nbread');
  await area.evaluate((el) => el.setSelectionRange(0, el.value.length));
  await page.getByRole('button', { name: 'Task list' }).click();
  assert.equal(await area.inputValue(), '- [ ] milk\n- [ ] bread');
  await area.evaluate((el) => el.setSelectionRange(el.value.length, el.value.length));
  await page.keyboard.press('Tab');
  assert.equal(await area.inputValue(), '- [ ] milk\n  - [ ] bread');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await area.inputValue(), '- [ ] milk\n- [ ] bread');
  // Outside a list, Tab leaves the text box as everywhere else.
  await area.fill('plain words');
  await page.keyboard.press('Tab');
  assert.equal(await area.inputValue(), 'plain words');
  assert.notEqual(await page.evaluate(() => document.activeElement.name), 'body');

  await page.locator('main h1').click();
  await page.keyboard.press('?');
  assert.equal(await page.locator('#editor-help').evaluate((d) => d.open), true);
  await page.getByRole('cell', { name: 'a task list' }).waitFor();
  await ctx.close();
});

test('the merge view: keep mine, theirs or both per conflict, undo, and the whole width', async () => {
  const { ctx, page } = await signedIn();
  const title = unique('Merged');
  const path = await createDocument(page, title, 'line one\nline two\nline three');
  await page.goto(`${path}/edit`);
  await editorBody(page).fill('line one\nline TWO by them\nline three');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('line TWO by them').waitFor();

  await page.goto(`${path}/edit`);
  await page.locator('form.editor input[name="version"]').evaluate((el) => { el.value = '1'; });
  await editorBody(page).fill('line one\nline 2 by me\nline three');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: 'Edit conflict' }).waitFor();

  const merged = page.locator('#merge-form textarea[name=body]');
  const region = page.locator('.merge-region').first();
  await region.getByRole('button', { name: 'Keep theirs' }).click();
  assert.equal(await merged.inputValue(), 'line one\nline TWO by them\nline three');
  await region.getByText('Kept theirs.').waitFor();
  await page.keyboard.press('Control+z');
  assert.match(await merged.inputValue(), /<<<<<<< your text/);
  await region.getByRole('button', { name: 'Keep both' }).click();
  assert.equal(await merged.inputValue(), 'line one\nline 2 by me\nline TWO by them\nline three');

  const width = await page.locator('main').evaluate((m) => m.getBoundingClientRect().width);
  assert.ok(width > 1000, `the merge view is ${width}px wide`);

  await page.getByRole('button', { name: 'Save the merged text' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  assert.match(await page.locator('.prose').innerText(), /line 2 by me/);
  await ctx.close();
});

test('on a phone the header is one row, with Search and a Menu that works without JavaScript', async () => {
  for (const javaScriptEnabled of [true, false]) {
    const { ctx, page } = await signedIn({ viewport: PHONE, javaScriptEnabled });
    await page.goto('/');
    const header = await page.locator('header.site').boundingBox();
    assert.ok(header.height < 80, `the header is ${header.height}px tall`);
    assert.equal(await page.getByRole('link', { name: 'Trash', exact: true }).isVisible(), false);
    await page.getByText('Menu').click();
    await page.getByRole('link', { name: 'Trash', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Trash' }).waitFor();
    await page.getByRole('link', { name: 'Search', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
    await page.getByText('Menu').click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    await ctx.close();
  }
});

test('ticking a task on the document page saves it; without JavaScript the boxes are read-only', async () => {
  const { ctx, page } = await signedIn();
  const path = await createDocument(page, unique('Chores'), '- [ ] water the plants\n- [ ] call the bank');
  const box = page.getByRole('checkbox', { name: 'call the bank' });
  await box.check();
  await banner(page, 'Ticked and saved.').waitFor();
  await page.reload();
  assert.equal(await page.getByRole('checkbox', { name: 'call the bank' }).isChecked(), true);
  assert.match(await page.locator('p.meta').innerText(), /version 2/);
  await ctx.close();

  const plain = await signedIn({ javaScriptEnabled: false });
  await plain.page.goto(path);
  assert.equal(await plain.page.getByRole('checkbox', { name: 'water the plants' }).isDisabled(), true);
  await plain.ctx.close();
});

test('code is highlighted by the server with classes the stylesheet colours', async () => {
  const { ctx, page } = await signedIn({ colorScheme: 'dark' });
  await createDocument(page, unique('Code'), '```python\ndef greet(name):\n    return "hi " + name  # say hi\n```');
  const keyword = page.locator('pre.hl .hl-storage, pre.hl .hl-keyword').first();
  await keyword.waitFor();
  const colours = await page.evaluate(() => {
    const of = (sel) => getComputedStyle(document.querySelector(sel)).color;
    return { keyword: of('pre.hl .hl-storage, pre.hl .hl-keyword'), string: of('pre.hl .hl-string'), plain: of('pre.hl code') };
  });
  assert.notEqual(colours.keyword, colours.plain);
  assert.notEqual(colours.string, colours.plain);
  assert.equal(await page.locator('pre.hl [style]').count(), 0, 'no inline styles');
  await ctx.close();
});

test('typing [[ offers the titles that match and completes the link; the saved page links both ways', async () => {
  const { ctx, page } = await signedIn();
  const target = unique('Greenhouse log');
  const targetPath = await createDocument(page, target, 'warm');
  await page.goto('/new');
  const from = unique('Weekly round');
  await page.getByLabel('Title').fill(from);
  const body = editorBody(page);
  await body.click();
  await body.pressSequentially('Check the [[' + target.slice(0, 10).toLowerCase());
  const offer = page.getByRole('listbox', { name: 'Documents to link' });
  await offer.getByRole('option', { name: target }).waitFor();
  await body.press('Enter');
  assert.equal(await body.inputValue(), `Check the [[${target}]]`);
  assert.equal(await offer.isVisible(), false);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: from }).waitFor();

  await page.locator('.prose a.wikilink', { hasText: target }).click();
  await page.waitForURL(`**${targetPath}`);
  await page.getByRole('complementary', { name: 'Linked from' }).getByRole('link', { name: from }).waitFor();
  await ctx.close();
});

/** Hands the text box a file the way the browser does: a paste or a drop event holding a DataTransfer. */
function giveFile(page, kind, name, base64, type = 'image/png') {
  return editorBody(page).evaluate((area, { kind, name, base64, type }) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], name, { type }));
    const init = { bubbles: true, cancelable: true, composed: true };
    const event = kind === 'paste'
      ? new ClipboardEvent('paste', { ...init, clipboardData: data })
      : new DragEvent('drop', { ...init, dataTransfer: data });
    area.focus();
    area.dispatchEvent(event);
    return event.defaultPrevented;
  }, { kind, name, base64, type });
}

/** Contrast (and any other axe violation) inside the attach box, in its current state. */
async function attachViolations(page) {
  await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    window.axe.run(document.querySelector('.attach'), { resultTypes: ['violations'] }),
  );
  return results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('an image pasted into the text is attached, its Markdown put at the cursor, and shown once saved', async () => {
  const { ctx, page } = await signedIn();
  const title = unique('Pasted picture');
  const path = await createDocument(page, title, 'Before the picture.');
  await page.goto(`${path}/edit`);
  const area = editorBody(page);
  await area.evaluate((el) => el.setSelectionRange(el.value.length, el.value.length));
  // With JavaScript the file is sent on its own: the form's Attach button is not needed.
  assert.equal(await page.locator('.attach').getByRole('button', { name: 'Attach', exact: true }).isVisible(), false);

  const sent = page.waitForResponse((r) => r.url().endsWith(`${path}/attachments`) && r.request().method() === 'POST');
  assert.equal(await giveFile(page, 'paste', 'image.png', PNG_1X1), true, 'the paste was taken over by the script');
  const answer = await sent;
  assert.equal(answer.status(), 201);
  const json = await answer.json();
  assert.equal(json.name, 'image.png');
  assert.equal(json.media_type, 'image/png');
  assert.equal(json.size, 70);
  assert.equal(json.markdown, '![image.png](image.png)');

  const status = page.locator('.attach [data-attach-status]');
  await status.filter({ hasText: 'Attached image.png.' }).waitFor();
  assert.equal(await status.getAttribute('class'), 'attach-status ok');
  assert.equal(await area.inputValue(), 'Before the picture.\n![image.png](image.png)\n');
  // The text box keeps the focus and the cursor sits after what was put in.
  assert.equal(await area.evaluate((el) => document.activeElement === el && el.selectionStart === el.value.length), true);
  // The preview follows the inserted Markdown (the input event fired); where
  // its image points is the next test's business.
  await page.locator('#preview img[alt="image.png"]').waitFor({ state: 'attached' });
  assert.deepEqual(await attachViolations(page), []);

  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  const img = page.locator('.prose img');
  assert.equal(await img.getAttribute('src'), `${path}/files/image.png`);
  assert.equal(await img.getAttribute('alt'), 'image.png');
  const width = await img.evaluate((el) => (el.complete
    ? el.naturalWidth
    : new Promise((done) => {
      el.addEventListener('load', () => done(el.naturalWidth));
      el.addEventListener('error', () => done(0));
    })));
  assert.equal(width, 1, 'the image loaded');
  const file = await ctx.request.get(`${path}/files/image.png`);
  assert.equal(file.status(), 200);
  assert.match(file.headers()['content-type'], /^image\/png/);
  assert.equal((await file.body()).toString('base64'), PNG_1X1);
  await ctx.close();
});

// The preview renders with the document the editor sends (`doc`), so a pasted
// image shows there from the document's files before the text is saved.
test('the preview shows a pasted image from the document\'s files', async () => {
  const { ctx, page } = await signedIn();
  const path = await createDocument(page, unique('Previewed picture'), 'A dot:');
  await page.goto(`${path}/edit`);
  await editorBody(page).evaluate((el) => el.setSelectionRange(el.value.length, el.value.length));
  await giveFile(page, 'paste', 'image.png', PNG_1X1);
  await page.locator('.attach [data-attach-status]').filter({ hasText: 'Attached image.png.' }).waitFor();
  try {
    const img = page.locator('#preview img[alt="image.png"]');
    await img.waitFor({ state: 'attached' });
    assert.equal(await img.getAttribute('src'), `${path}/files/image.png`);
  } finally {
    await ctx.close();
  }
});

test('a file dropped on the text or chosen with the file button is attached; a refusal is said', async () => {
  const { ctx, page } = await signedIn({ colorScheme: 'dark' });
  const path = await createDocument(page, unique('Dropped files'), 'first line\nlast line');
  await page.goto(`${path}/edit`);
  const area = editorBody(page);
  const status = page.locator('.attach [data-attach-status]');

  // Dropped between the two lines: the Markdown goes where the cursor is.
  await area.evaluate((el) => el.setSelectionRange(11, 11));
  assert.equal(await giveFile(page, 'drop', 'dropped.png', PNG_1X1), true);
  await status.filter({ hasText: 'Attached dropped.png.' }).waitFor();
  assert.equal(await area.inputValue(), 'first line\n![dropped.png](dropped.png)\nlast line');

  // Chosen with the file input: a file that is not an image becomes a link.
  await area.evaluate((el) => el.setSelectionRange(el.value.length, el.value.length));
  await page.getByLabel(/^Attach a file/).setInputFiles({
    name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain notes\n'),
  });
  await status.filter({ hasText: 'Attached notes.txt.' }).waitFor();
  assert.equal(await area.inputValue(), `first line\n![dropped.png](dropped.png)\nlast line\n[notes.txt](${path}/files/notes.txt)\n`);
  assert.equal(await page.locator('#attach-file').evaluate((el) => el.files.length), 0, 'the input is emptied for the next file');

  // The same name with other content is numbered, not overwritten.
  const other = Buffer.from('other notes\n');
  await page.locator('#attach-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: other });
  await status.filter({ hasText: 'Attached notes-2.txt.' }).waitFor();

  // An empty file is refused, the text left alone, the reason given.
  const before = await area.inputValue();
  await giveFile(page, 'paste', 'empty.png', '');
  await status.filter({ hasText: /^Not attached: / }).waitFor();
  assert.equal(await status.getAttribute('class'), 'attach-status error');
  assert.match(await status.innerText(), /empty/);
  assert.equal(await area.inputValue(), before);
  assert.deepEqual(await attachViolations(page), []);

  // A paste of plain text is left to the browser.
  const plain = await area.evaluate((el) => {
    const data = new DataTransfer();
    data.setData('text/plain', 'words');
    const event = new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: data });
    el.dispatchEvent(event);
    return event.defaultPrevented;
  });
  assert.equal(plain, false);
  await ctx.close();
});

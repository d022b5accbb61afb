// The writing experience: the preview beside the text on wide screens, a
// Write/Preview switch on phones, and a Preview button without JavaScript.
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

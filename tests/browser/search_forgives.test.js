// Search that forgives, as a reader sees it: a word found inside an attached
// file ("in attachment notes.txt"), a misspelt word answered with "Did you
// mean", other forms of a word. Screenshots of both pages, desktop and phone,
// light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DESKTOP, PHONE, editorBody, launch, newContext, person, signIn } from './helpers.js';

const OUT = process.env.QUIRE_SCREENSHOTS ?? path.resolve('screenshots');

let browser;

before(async () => {
  await mkdir(OUT, { recursive: true });
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

// Letters only, different in each run: words nobody else's documents hold.
const tag = String(process.pid).replace(/\d/g, (d) => 'abcdefghij'[d]);

test('words inside files, misspelt words and other forms are found', async () => {
  const adminCtx = await newContext(browser);
  const admin = await adminCtx.newPage();
  await signIn(admin);
  const { ctx, page } = await person(browser, admin, `sif${process.pid}`);
  const title = `Rollback runbook ${tag}`;
  await page.goto('/new');
  await page.getByLabel('Title').fill(title);
  await editorBody(page).fill(`How to rollback a deploy of the ${tag}wharf service.\n\nThe tomatoes are ripe.`);
  await page.getByLabel('Space').selectOption('personal');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  const docPath = new URL(page.url()).pathname;

  // A file attached as the editor's script sends it.
  const word = `${tag}scandium`;
  const status = await page.evaluate(async ({ docPath, word }) => {
    const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRF-Token'];
    const form = new FormData();
    form.append('file', new Blob([`Supplier notes: ${word} deliveries slipped.`], { type: 'text/plain' }), 'supplier notes.txt');
    const res = await fetch(`${docPath}/attachments`, { method: 'POST', headers: { 'X-CSRF-Token': token }, body: form });
    return res.status;
  }, { docPath, word });
  assert.equal(status, 201);

  // Read in the background: found within moments.
  const inFile = page.locator('ol.hits .in-file');
  for (let tries = 0; ; tries++) {
    await page.goto(`/search?q=${word}`);
    if (await inFile.count()) break;
    assert.ok(tries < 60, 'the file\'s text is found');
    await page.waitForTimeout(500);
  }
  assert.match(await inFile.innerText(), /in attachment supplier-notes\.txt/);
  assert.equal(await page.locator('ol.hits > li > a').first().innerText(), title);

  // A misspelt word: one click to the word meant.
  await page.goto(`/search?q=${tag}wharff%20rollbak`);
  const meant = page.locator('#did-you-mean a');
  assert.equal(await meant.innerText(), `${tag}wharf rollback`);

  // Other forms: "tomato" finds "tomatoes".
  await page.goto(`/search?q=tomato%20${tag}wharf`);
  assert.equal(await page.locator('ol.hits > li > a').first().innerText(), title);

  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    for (const scheme of ['light', 'dark']) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`/search?q=${word}`);
      await inFile.waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the search page fits a ${size} screen (${width}px)`);
      await page.screenshot({ path: path.join(OUT, `search-in-file-${size}-${scheme}.png`), fullPage: true });
      await page.goto(`/search?q=${tag}wharff%20rollbak`);
      await meant.waitFor();
      const box = await meant.boundingBox();
      assert.ok(box.width < viewport.width && box.height < 60, `the suggestion is a link: ${JSON.stringify(box)}`);
      await page.screenshot({ path: path.join(OUT, `search-did-you-mean-${size}-${scheme}.png`), fullPage: true });
    }
  }
  await meant.click();
  await page.locator('ol.hits > li > a', { hasText: title }).waitFor();
  await ctx.close();
  await adminCtx.close();
});

// Live results under the header's search box: three letters show the first
// results, the arrows highlight one and Enter opens it, Escape closes the list,
// Enter with none highlighted opens the full search page. Screenshots of the
// open list at desktop width, light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { DESKTOP, createDocument, launch, newContext, person, signIn } from './helpers.js';

const OUT = process.env.QUIRE_SCREENSHOTS ?? path.resolve('screenshots');
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser;

before(async () => {
  await mkdir(OUT, { recursive: true });
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** axe's violations on the page, the open list's contrast among them. */
async function violations(page) {
  await page.evaluate(axeSource);
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Types `text` into the header's box, as a person does, and waits for the list
 * of the whole text (an answer to the first letters must not land later).
 */
async function typeInBox(page, text) {
  const box = page.locator('#q');
  await box.fill('');
  await box.pressSequentially(text, { delay: 40 });
  await page.locator('#live-results a.live-all', { hasText: `All results for “${text}”` }).waitFor();
  return box;
}

test('the header box lists results as one types, and the keyboard opens them', async () => {
  const adminCtx = await newContext(browser);
  const admin = await adminCtx.newPage();
  await signIn(admin);
  const { ctx, page } = await person(browser, admin, `lia${process.pid}`);
  // Letters no other test's titles start with, so the first results are these.
  const word = `Qzv${process.pid}`;
  const first = await createDocument(page, `${word} harbour plan`, 'Moorings for the winter, and who looks after the boats.');
  await createDocument(page, `${word} budget`, 'What the harbour plan costs, line by line, with the plan for the *moorings*.');
  await page.goto('/');

  // Three letters: the list opens under the box, the box says so.
  const box = await typeInBox(page, word.slice(0, 3));
  const popup = page.locator('#live-results');
  const options = popup.locator('a[role=option]');
  await popup.locator('a.live-hit', { hasText: `${word} harbour plan` }).waitFor();
  assert.equal(await box.getAttribute('aria-expanded'), 'true');
  assert.match(await popup.locator('a.live-all').innerText(), /All results for/);
  const boxAt = await box.boundingBox();
  const popupAt = await popup.boundingBox();
  assert.ok(popupAt.y >= boxAt.y + boxAt.height, `the list is under the box: ${JSON.stringify([boxAt, popupAt])}`);
  assert.ok(popupAt.width >= boxAt.width, 'the list is at least as wide as the box');
  assert.ok(popupAt.x >= 0 && popupAt.x + popupAt.width <= DESKTOP.width, `the list stays on screen: ${JSON.stringify(popupAt)}`);

  // The whole word narrows the list to the two; Arrow Down highlights the first.
  await typeInBox(page, word);
  await popup.locator('a.live-hit').nth(1).waitFor();
  await box.press('ArrowDown');
  const firstOption = options.first();
  assert.equal(await firstOption.getAttribute('aria-selected'), 'true');
  assert.equal(await box.getAttribute('aria-activedescendant'), await firstOption.getAttribute('id'));
  assert.ok(await box.evaluate((el) => el === document.activeElement), 'the focus stays in the box');
  await box.press('ArrowDown');
  assert.equal(await options.nth(1).getAttribute('aria-selected'), 'true');
  await box.press('ArrowUp');
  assert.equal(await firstOption.getAttribute('aria-selected'), 'true');

  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= DESKTOP.width, `the page does not scroll sideways (${width}px)`);
    assert.deepEqual(await violations(page), [], `axe, ${scheme}`);
    await page.screenshot({ path: path.join(OUT, `search-live-desktop-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // Enter opens the highlighted result; the list closes.
  const href = await firstOption.getAttribute('href');
  const title = (await firstOption.locator('.live-title').innerText()).trim();
  await box.press('Enter');
  await page.waitForURL((url) => url.pathname === href);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  assert.ok([first, href].includes(href));
  await popup.locator('a').first().waitFor({ state: 'detached' });
  assert.equal(await box.getAttribute('aria-expanded'), 'false');

  // Escape closes the list and keeps the words; a second Escape empties the box.
  await typeInBox(page, word);
  await box.press('Escape');
  await popup.locator('a').first().waitFor({ state: 'detached' });
  assert.equal(await popup.isVisible(), false, 'an empty list is hidden');
  assert.equal(await box.inputValue(), word);
  assert.equal(await box.getAttribute('aria-expanded'), 'false');
  await page.waitForTimeout(400);
  assert.equal(await popup.locator('a').count(), 0, 'a late answer does not open it again');
  await box.press('Escape');
  assert.equal(await box.inputValue(), '');

  // A click elsewhere closes it too.
  await typeInBox(page, word);
  await page.mouse.click(20, 500);
  await popup.locator('a').first().waitFor({ state: 'detached' });

  // Enter with nothing highlighted: the full search page, as without JavaScript.
  await typeInBox(page, word);
  await box.press('Enter');
  await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === word);
  await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
  await page.locator('ol.hits a', { hasText: `${word} budget` }).waitFor();
  await page.waitForTimeout(400);
  assert.equal(await popup.locator('a').count(), 0, 'the list stays closed over the results page');

  // On the results page, Arrow Down from the closed box still walks the page's results.
  await box.focus();
  await box.press('ArrowDown');
  assert.ok(await page.locator('ol.hits > li > a').first().evaluate((el) => el === document.activeElement));

  await ctx.close();
  await adminCtx.close();
});

// Accessibility: axe-core on every main page in light and dark, the editor and
// search reached and used with the keyboard alone, and a focus ring you can see.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { createDocument, editorBody, launch, newContext, signIn, unique } from './helpers.js';
import { mainPages } from './pages.js';

const require = createRequire(import.meta.url);
const axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

let browser;
let context;
let pages;

before(async () => {
  browser = await launch();
  context = await newContext(browser);
  const page = await context.newPage();
  await signIn(page);
  pages = await mainPages(page, 'beacon');
  await page.close();
});

after(async () => {
  await browser?.close();
});

/** Every axe violation on the page (minor ones too), as readable lines. */
async function violations(page) {
  await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    window.axe.run(document, { resultTypes: ['violations'] }),
  );
  // A run that checked nothing would pass too: make sure the rules ran.
  assert.ok(results.passes.length > 10, `axe ran only ${results.passes.length} rules`);
  return results.violations
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('the axe check reports a field without a label', async () => {
  const page = await context.newPage();
  await page.setContent('<!doctype html><html lang="en"><title>t</title><main><input></main></html>');
  const found = await violations(page);
  assert.ok(found.some((line) => line.startsWith('label ')), found.join('\n'));
  await page.close();
});

for (const colorScheme of ['light', 'dark']) {
  test(`no axe violations at all on the main pages (${colorScheme})`, async () => {
    const ctx = await newContext(browser, { colorScheme });
    const page = await ctx.newPage();
    await signIn(page);
    const found = [];
    for (const { name, open } of [...pages.signedIn, ...pages.signedOut]) {
      if (pages.signedOut.some((p) => p.name === name)) {
        await ctx.clearCookies();
      }
      await open(page);
      for (const line of await violations(page)) found.push(`${name}: ${line}`);
    }
    await ctx.close();
    assert.deepEqual(found, []);
  });
}

/** What the focused element is, and whether a focus indicator is drawn around it. */
function focusState(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return {
      id: el.id,
      tag: el.tagName,
      text: (el.textContent ?? '').trim(),
      focusVisible: el.matches(':focus-visible'),
      ring: outline || style.boxShadow !== 'none',
    };
  });
}

/** Presses Tab until `matches` holds for the focused element; each stop must show focus. */
async function tabTo(page, matches, limit = 25) {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    const state = await focusState(page);
    assert.ok(
      state.ring,
      `no visible focus on ${state.tag}#${state.id} "${state.text.slice(0, 30)}"`,
    );
    if (matches(state)) return state;
  }
  assert.fail('Tab never reached the element');
}

test('the keyboard alone reaches search, and / jumps to it', async () => {
  const page = await context.newPage();
  await page.goto('/');
  const first = await tabTo(page, () => true);
  assert.equal(first.text, 'Skip to content');
  await tabTo(page, (s) => s.id === 'q');

  await page.locator('main h1').click();
  await page.keyboard.press('/');
  assert.equal((await focusState(page)).id, 'q');
  await page.keyboard.type(unique('needle'));
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
  await page.locator('#results').getByText(/Nothing found|found for/).waitFor();
  await page.close();
});

test('the keyboard alone opens the editor, moves through it and saves', async () => {
  const page = await context.newPage();
  const title = unique('Keyboard only');
  await createDocument(page, title, 'typed with keys');
  await page.locator('main h1').click();

  await page.keyboard.press('e');
  await page.getByRole('heading', { level: 1, name: 'Edit document' }).waitFor();
  await page.locator('main h1').click();
  await tabTo(page, (s) => s.id === 'title');
  await tabTo(page, (s) => s.id === 'body', 1);
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' and saved with Ctrl+S');
  // Tab leaves the text box: the editor is no keyboard trap.
  const next = await tabTo(page, (s) => s.tag === 'BUTTON' || s.tag === 'A' || s.tag === 'INPUT');
  assert.notEqual(next.id, 'body');

  await editorBody(page).focus();
  await page.keyboard.press('Control+s');
  await page.locator('.prose', { hasText: 'typed with keys and saved with Ctrl+S' }).waitFor();
  await page.close();
});

test('Escape in an untouched editor cancels back to the document', async () => {
  const page = await context.newPage();
  const title = unique('Escape hatch');
  const path = await createDocument(page, title, 'unchanged');
  await page.goto(`${path}/edit`);
  await editorBody(page).focus();
  // With text typed, Esc keeps it (drafts.test.js); untouched, it leaves.
  await page.keyboard.press('Escape');
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  assert.equal((await page.locator('.prose').textContent()).trim(), 'unchanged');
  await page.close();
});

test('a task list shows each box on the line of its text, labelled by it, with no bullet', async () => {
  const page = await context.newPage();
  await createDocument(page, unique('Tasks'), '- [x] Write the outline\n- [ ] Ask for a *review*\n');
  const box = page.getByRole('checkbox', { name: 'Ask for a review' });
  assert.equal(await box.isChecked(), false);
  assert.equal(await page.getByRole('checkbox', { name: 'Write the outline' }).isChecked(), true);
  const shape = await box.evaluate((input) => {
    const li = input.closest('li');
    const text = input.closest('label').querySelector('em').getBoundingClientRect();
    const b = input.getBoundingClientRect();
    return {
      bullet: getComputedStyle(li).listStyleType,
      boxWidth: b.width,
      sameLine: Math.abs(b.top + b.height / 2 - (text.top + text.height / 2)) < text.height,
      boxBeforeText: b.right <= text.left,
    };
  });
  assert.equal(shape.bullet, 'none');
  assert.ok(shape.boxWidth < 40, `the box is ${shape.boxWidth}px wide`);
  assert.ok(shape.sameLine && shape.boxBeforeText, JSON.stringify(shape));
  await page.close();
});

test('on a phone the search page puts the cursor in its box, and explains what it understands', async () => {
  const phone = await newContext(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await phone.newPage();
  await signIn(page);
  await page.goto('/search');
  await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
  assert.equal((await focusState(page)).id, 'search-q', 'the cursor is in the search box');
  await page.getByText('How to search').click();
  assert.match(await page.locator('details.search-help').innerText(), /tag:design/);
  // With results, the cursor stays where the reader puts it.
  await page.goto(`/search?q=${unique('nothing')}`);
  await page.locator('#results').getByText(/Nothing found|found for/).waitFor();
  assert.notEqual((await focusState(page)).id, 'search-q');
  await phone.close();
});

// What people write, as the browser lays it out: math drawn as MathML by the
// browser itself (no script on the page), a formula that does not parse kept
// as its source with a quiet mark, and two revisions compared as pages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DESKTOP, PHONE, createDocument, editorBody, launch, newContext, signIn, unique } from './helpers.js';

const OUT = process.env.QUIRE_SCREENSHOTS ?? path.resolve('screenshots');

let browser;

before(async () => {
  await mkdir(OUT, { recursive: true });
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

const BODY = [
  'Inline $x^2 + y^2 = r^2$ in a sentence.',
  '',
  '$$\\frac{a+b}{2}$$',
  '',
  '```math',
  '\\sqrt{\\frac{1}{n}\\sum_{i=1}^{n} x_i^2}',
  '```',
  '',
  'Broken: $\\frac{1}$ and $\\nosuch{x}$.',
].join('\n');

for (const javaScriptEnabled of [true, false]) {
  test(`math is laid out by the browser as MathML${javaScriptEnabled ? '' : ', without JavaScript'}`, async () => {
    const ctx = await newContext(browser, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signIn(page);
    await createDocument(page, unique('Formulas'), BODY);
    const prose = page.locator('.prose');
    await prose.locator('math').first().waitFor();
    const look = await page.evaluate(() => {
      const box = (el) => el.getBoundingClientRect();
      const frac = document.querySelector('.prose math[display="block"] mfrac');
      const [top, bottom] = frac.children;
      const inline = document.querySelector('.prose p > math:not([display])');
      const sup = inline.querySelector('msup');
      const para = inline.closest('p');
      const errors = [...document.querySelectorAll('.prose .math-error')];
      return {
        maths: document.querySelectorAll('.prose math').length,
        blocks: document.querySelectorAll('.prose math[display="block"]').length,
        numeratorAbove: box(top).bottom <= box(bottom).top + 1,
        fracWidth: box(frac).width,
        supRaised: box(sup.children[1]).top < box(sup.children[0]).top,
        inlineInLine: box(inline).height < box(para).height && box(inline).width > 20,
        errors: errors.map((e) => ({ text: e.textContent, title: e.title, line: getComputedStyle(e).textDecorationStyle })),
        styled: document.querySelectorAll('.prose math [style], .prose math[style]').length,
      };
    });
    assert.equal(look.maths, 3, 'two display formulas and one in the line are drawn');
    assert.equal(look.blocks, 2);
    assert.ok(look.numeratorAbove, 'a fraction has its numerator over its denominator');
    assert.ok(look.fracWidth > 10, 'the fraction has a width');
    assert.ok(look.supRaised, 'an exponent sits above its base');
    assert.ok(look.inlineInLine, 'the inline formula sits in its line');
    assert.deepEqual(look.errors.map((e) => e.text), ['$\\frac{1}$', '$\\nosuch{x}$']);
    for (const e of look.errors) {
      assert.match(e.title, /^Not drawn: /);
      assert.equal(e.line, 'dotted');
    }
    assert.equal(look.styled, 0, 'no inline styles');
    await ctx.close();
  });
}

test('two revisions compare as rendered pages, what went and what came marked', async () => {
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await signIn(page);
  const title = unique('Launch plan');
  const docPath = await createDocument(page, title, '## When\n\nWe ship on **Monday** at noon.\n\n| Step | Who |\n| --- | --- |\n| Build | Ana |\n\nThe database migrates first.');
  await page.goto(`${docPath}/edit`);
  await editorBody(page).fill('## When\n\nWe ship on **Friday** at noon.\n\n| Step | Who |\n| --- | --- |\n| Build | Ana |\n\nThe database migrates first.\n\n> [!WARNING]\n> Freeze the branch the day before.');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  await page.goto(`${docPath}/diff?from=1&to=2`);
  await page.getByRole('link', { name: 'Rendered page' }).click();
  await page.locator('.rendered-diff').waitFor();
  assert.match(await page.locator('.rendered-diff del.block').first().innerText(), /Monday/);
  assert.match(await page.locator('.rendered-diff ins.block').first().innerText(), /Friday/);
  assert.equal(await page.locator('.rendered-diff ins.block .callout').count(), 1, 'the new callout is drawn as one');
  assert.equal(await page.locator('.rendered-diff table').count(), 1, 'the unchanged table shows once');
  assert.equal(await page.locator('.rendered-diff .block', { hasText: 'The database migrates first.' }).count(), 1, 'the last paragraph, unchanged, shows once');
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    for (const scheme of ['light', 'dark']) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.reload();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the comparison fits a ${size} screen (${width}px)`);
      const del = await page.locator('.rendered-diff del.block').first().evaluate((el) => getComputedStyle(el).backgroundColor);
      const ins = await page.locator('.rendered-diff ins.block').first().evaluate((el) => getComputedStyle(el).backgroundColor);
      assert.notEqual(del, ins, 'removed and added blocks look different');
      await page.screenshot({ path: path.join(OUT, `diff-rendered-${size}-${scheme}.png`), fullPage: true });
    }
  }
  await ctx.close();
});

const DIAGRAM = [
  'Before the diagram.',
  '',
  '```mermaid',
  'flowchart LR',
  '  Draft --> Review --> Published',
  '```',
  '',
  '```mermaid',
  'flowchart LR',
  '  this is -> not [[ a diagram',
  '```',
].join('\n');

test('a mermaid block is drawn in a sandboxed frame, light and dark, with its source kept', async () => {
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  const refused = [];
  page.on('console', (m) => { if (/Content Security Policy|Refused/.test(m.text())) refused.push(m.text()); });
  await signIn(page);
  const title = unique('Workflow');
  const docPath = await createDocument(page, title, DIAGRAM);
  const frame = page.locator('#doc .prose iframe.diagram').first();
  await frame.waitFor({ state: 'visible' });
  const inside = page.frameLocator('#doc .prose iframe.diagram').first();
  await inside.locator('svg').waitFor();
  assert.match(await inside.locator('svg').innerHTML(), /Review/);
  const box = await frame.boundingBox();
  assert.ok(box.height > 40 && box.width > 200, `the frame is sized to its drawing: ${JSON.stringify(box)}`);
  // The source stays, folded; the broken one says why and keeps its text.
  assert.equal(await page.locator('#doc details.diagram-source').count(), 1);
  await page.locator('#doc .diagram-error').waitFor();
  assert.match(await page.locator('#doc .diagram-error').innerText(), /could not be drawn/);
  assert.match(await page.locator('#doc .prose pre').last().innerText(), /not \[\[ a diagram/);
  // The page's own policy is unchanged: the drawing's styles are the frame's.
  const res = await page.request.get(docPath);
  assert.doesNotMatch(res.headers()['content-security-policy'], /unsafe-inline|unsafe-eval/);

  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    for (const scheme of ['light', 'dark']) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(docPath);
      await page.frameLocator('#doc .prose iframe.diagram').first().locator('svg').waitFor();
      await page.locator('#doc .diagram-error').waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the page fits a ${size} screen (${width}px)`);
      await page.screenshot({ path: path.join(OUT, `diagram-${size}-${scheme}.png`), fullPage: true });
    }
  }
  assert.deepEqual(refused, [], 'nothing was refused by a content security policy');

  // Without JavaScript the diagram is its text, as code.
  const nojs = await newContext(browser, { javaScriptEnabled: false });
  const plain = await nojs.newPage();
  await signIn(plain);
  await plain.goto(docPath);
  assert.equal(await plain.locator('iframe').count(), 0);
  assert.match(await plain.locator('#doc .prose pre code.language-mermaid').first().innerText(), /Draft --> Review/);
  await nojs.close();
  await ctx.close();
});

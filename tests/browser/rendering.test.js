// What people write, as the browser lays it out: math drawn as MathML by the
// browser itself (no script on the page), and a formula that does not parse
// kept as its source with a quiet mark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDocument, launch, newContext, signIn, unique } from './helpers.js';

let browser;

before(async () => {
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

// Screenshots of every main page at desktop and phone sizes, light and dark, saved
// under $QUIRE_SCREENSHOTS for people to look at. Each shot also checks what a
// person would see wrong at a glance: a page wider than the phone, things that
// cover each other, or a dark scheme that is not dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { DESKTOP, PHONE, launch, newContext, signIn } from './helpers.js';
import { mainPages } from './pages.js';

const OUT = process.env.QUIRE_SCREENSHOTS ?? path.resolve('screenshots');

let browser;
let pages;

before(async () => {
  await mkdir(OUT, { recursive: true });
  browser = await launch();
  const context = await newContext(browser);
  const page = await context.newPage();
  await signIn(page);
  pages = await mainPages(page);
  await context.close();
});

after(async () => {
  await browser?.close();
});

/** Relative luminance of a CSS rgb() colour, 0 (black) to 1 (white). */
function luminance(rgb) {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
  const lin = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/**
 * Pairs of visible things a person reads or clicks (links, buttons, fields,
 * headings, tags) whose boxes cover each other, line box by line box, so a link
 * that wraps is not taken for a block. Rendered text and code are left out.
 */
function overlaps(page) {
  return page.evaluate(() => {
    const shown = (el) => {
      const s = getComputedStyle(el);
      const folded = el.closest('details:not([open])') && !el.closest('summary');
      return !folded && s.visibility !== 'hidden' &&
        !el.closest('[hidden], .visually-hidden, .skip, .prose, #preview');
    };
    const els = [...document.querySelectorAll('a, button, input, select, textarea, h1, h2, h3, summary, .tag, .banner')]
      .filter(shown)
      .map((el) => ({ el, boxes: [...el.getClientRects()].filter((r) => r.width > 1 && r.height > 1) }))
      .filter((x) => x.boxes.length > 0);
    const name = (el) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''}` +
      ` "${(el.textContent || el.value || '').trim().slice(0, 20)}"`;
    const found = [];
    for (let i = 0; i < els.length; i += 1) {
      for (let j = i + 1; j < els.length; j += 1) {
        const a = els[i], b = els[j];
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const hit = a.boxes.some((r) => b.boxes.some((q) =>
          Math.min(r.right, q.right) - Math.max(r.left, q.left) > 2 &&
          Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top) > 2));
        if (hit) found.push(`${name(a.el)} and ${name(b.el)}`);
      }
    }
    return found.slice(0, 5);
  });
}

/**
 * Fields, buttons and tables that reach past the right edge of the page's
 * text column: on a phone, a few pixels past it is not yet wider than the
 * screen, but it is cut against the edge (the users page's password field
 * was). Things inside a box that scrolls sideways are that box's business.
 */
function pastEdge(page) {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    if (!main) return [];
    const edge = main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight);
    const scrolls = (el) => {
      for (let p = el.parentElement; p && p !== main; p = p.parentElement) {
        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    return [...main.querySelectorAll('input, select, textarea, button, table')]
      .filter((el) => el.getClientRects().length > 0 && !el.closest('[hidden], .prose, #preview') && !scrolls(el))
      .filter((el) => el.getBoundingClientRect().right > edge + 1)
      .map((el) => `${el.tagName.toLowerCase()}${el.name ? `[name=${el.name}]` : ''} ` +
        `${Math.round(el.getBoundingClientRect().right - edge)}px`)
      .slice(0, 5);
  });
}

const sizes = { desktop: DESKTOP, phone: PHONE };

for (const [size, viewport] of Object.entries(sizes)) {
  for (const colorScheme of ['light', 'dark']) {
    test(`screenshots: ${size}, ${colorScheme}`, async () => {
      const ctx = await newContext(browser, {
        viewport,
        colorScheme,
        isMobile: size === 'phone',
        hasTouch: size === 'phone',
      });
      const page = await ctx.newPage();
      await signIn(page);
      const problems = [];
      for (const { name, open } of [...pages.signedIn, ...pages.signedOut]) {
        if (pages.signedOut.some((p) => p.name === name)) await ctx.clearCookies();
        await open(page);
        const look = await page.evaluate(() => ({
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          background: getComputedStyle(document.body).backgroundColor,
        }));
        if (look.overflow > 1) problems.push(`${name}: ${look.overflow}px wider than the screen`);
        for (const clash of await overlaps(page)) problems.push(`${name}: ${clash} overlap`);
        for (const past of await pastEdge(page)) problems.push(`${name}: ${past} past the text column's edge`);
        const light = luminance(look.background) > 0.5;
        if (light !== (colorScheme === 'light')) {
          problems.push(`${name}: background ${look.background} in the ${colorScheme} scheme`);
        }
        const file = path.join(OUT, `${name}-${size}-${colorScheme}.png`);
        await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
        assert.ok((await stat(file)).size > 5_000, `${file} looks empty`);
      }
      await ctx.close();
      assert.deepEqual(problems, []);
    });
  }
}

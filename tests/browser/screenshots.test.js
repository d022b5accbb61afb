// Screenshots of every main page at desktop and phone sizes, light and dark, saved
// under $QUIRE_SCREENSHOTS for people to look at. Each shot also checks what a
// person would see wrong at a glance: a page wider than the phone, or a dark
// scheme that is not dark.
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

// Single sign-on as a person meets it: the sign-in page offers the provider's
// button above the password form, the provider's own page asks who they are, and
// they land on quire's document list signed in under the provider's name.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { PHONE, launch, newContext } from './helpers.js';

const LOGIN = process.env.QUIRE_TEST_OIDC_LOGIN;
const OIDC_PASSWORD = process.env.QUIRE_TEST_OIDC_PASSWORD;
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? path.resolve('screenshots');

let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

test('"Sign in with" the provider leads through its page to the document list', async () => {
  assert.ok(LOGIN && OIDC_PASSWORD, 'run scripts/browser-tests.sh: it starts the provider');
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await page.goto('/');
  await page.waitForURL(/\/login/);
  const button = page.getByRole('link', { name: 'Sign in with Test Provider' });
  const form = page.locator('form.login-form');
  // The provider's button comes first, the password form under it.
  const [b, f] = [await button.boundingBox(), await form.boundingBox()];
  assert.ok(b && f && b.y + b.height <= f.y, 'the button is above the form');
  await page.screenshot({ path: path.join(SHOTS, 'sign-in-desktop-light.png'), fullPage: true });

  await button.click();
  await page.getByRole('heading', { name: 'Sign in to the test provider' }).waitFor();
  await page.locator('input[name="login"]').fill(LOGIN);
  await page.locator('input[name="password"]').fill(OIDC_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
  assert.match(new URL(page.url()).pathname, /^\/$/);
  await assert.doesNotReject(
    page.locator('details.nav-account > summary', { hasText: LOGIN }).waitFor(),
  );
  await ctx.close();
});

test('on a phone in the dark the provider\'s button is a full-width tap target', async () => {
  const ctx = await newContext(browser, { viewport: PHONE, colorScheme: 'dark' });
  const page = await ctx.newPage();
  await page.goto('/login');
  const button = page.getByRole('link', { name: 'Sign in with Test Provider' });
  const box = await button.boundingBox();
  assert.ok(box && box.height >= 40, `tall enough to tap: ${box?.height}`);
  assert.ok(box.width >= PHONE.width * 0.6, `wide: ${box?.width}`);
  await page.screenshot({ path: path.join(SHOTS, 'sign-in-phone-dark.png'), fullPage: true });
  await ctx.close();
});

// Shared set-up for quire's browser tests: the server under test (started by
// scripts/browser-tests.sh), Debian's Chromium, signing in, and small page helpers.
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';

export const BASE_URL = process.env.QUIRE_TEST_URL;
export const ADMIN = process.env.QUIRE_TEST_ADMIN ?? 'admin';
export const PASSWORD = process.env.QUIRE_TEST_PASSWORD;
/** The server's QUIRE_MAX_DOC_BYTES, so a test can paste just over it. */
export const MAX_DOC_BYTES = Number(process.env.QUIRE_TEST_MAX_DOC_BYTES ?? 262144);

if (!BASE_URL || !PASSWORD) {
  throw new Error(
    'QUIRE_TEST_URL and QUIRE_TEST_PASSWORD are not set: run scripts/browser-tests.sh',
  );
}

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export function launch() {
  return chromium.launch({
    executablePath: process.env.QUIRE_CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

/** A fresh browser profile: its own cookies, JS on or off, a colour scheme. */
export async function newContext(browser, options = {}) {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport: DESKTOP,
    colorScheme: 'light',
    reducedMotion: 'reduce',
    ...options,
  });
  context.setDefaultTimeout(15_000);
  return context;
}

/** A name no earlier test used, so tests on the shared server never see each other's data. */
let counter = 0;
export function unique(prefix) {
  counter += 1;
  return `${prefix} ${process.pid}-${counter}`;
}

/** Signs in through the form, as a person does, and lands on the document list. */
export async function signIn(page) {
  await page.goto('/');
  await page.waitForURL(/\/login/);
  await page.getByLabel('Username').fill(ADMIN);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
}

/** Signs out through the account menu in the header (a wide screen's). */
export async function signOut(page) {
  await page.locator('details.nav-account > summary').click();
  await page.getByRole('button', { name: 'Sign out' }).click();
}

/** The document's body text box in whichever editor is on screen. */
export function editorBody(page) {
  return page.locator('form.editor textarea[name="body"]');
}

/** Creates a document through the "New" page and waits until it is shown. */
export async function createDocument(page, title, body) {
  await page.goto('/new');
  await page.getByLabel('Title').fill(title);
  await editorBody(page).fill(body);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  assert.match(new URL(page.url()).pathname, /^\/d\/[^/]+$/);
  return new URL(page.url()).pathname;
}

/** Text of the banner that tells the user what just happened. */
export function banner(page, text) {
  return page.locator('.banner', { hasText: text });
}

/** Accepts every confirm() dialog (htmx's hx-confirm) on this page. */
export function acceptDialogs(page) {
  page.on('dialog', (dialog) => dialog.accept());
}

/**
 * Opens the editor of `path` until it offers a draft: a draft sent as the page
 * went away (a beacon) may reach the server a moment after the next page loads.
 */
export async function openWithDraftOffer(page, path) {
  for (let i = 0; i < 50; i += 1) {
    await page.goto(`${path}/edit`);
    if ((await page.locator('#draft-offer').count()) > 0) return;
    await page.waitForTimeout(200);
  }
  assert.fail(`the editor of ${path} offered no draft within 10 s`);
}

/**
 * An account the admin makes on the users page, signed in in a browser context
 * of its own (JavaScript on or off): tests that write as these people make
 * nothing reach the admin's inbox, which other tests count.
 */
export async function person(browser, admin, name, options = {}) {
  await admin.goto('/admin/users');
  await admin.getByLabel('Username').fill(name);
  await admin.getByLabel('Password (at least 10 characters; tell them to change it)').fill('a long enough password');
  await admin.getByRole('button', { name: 'Add account' }).click();
  await admin.locator('.banner').first().waitFor();
  const ctx = await newContext(browser, options);
  const page = await ctx.newPage();
  await page.goto('/login');
  await page.getByLabel('Username').fill(name);
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
  return { ctx, page };
}

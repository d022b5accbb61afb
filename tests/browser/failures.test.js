// Bad days in the browser: the server errs, the network drops, the session ends,
// the tab closes seconds after typing. Each time the user is told what happened
// in the failure banner, and the text they typed stays where it is.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  createDocument, editorBody, launch, newContext, openWithDraftOffer, signIn, unique,
  signOut,
} from './helpers.js';

let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** A signed-in browser profile of its own, so cutting its network or session touches no other test. */
async function signedIn() {
  const context = await newContext(browser);
  const page = await context.newPage();
  await signIn(page);
  return { context, page };
}

function failure(page) {
  return page.locator('#failure');
}

test('a save the server answers with 500 says so and keeps the text in the editor', async () => {
  const { context, page } = await signedIn();
  const path = await createDocument(page, unique('Server trouble'), 'saved before');
  await page.goto(`${path}/edit`);
  await editorBody(page).fill('typed while the server fails');
  // Only the save is answered with an error; drafts and pages stay real.
  await page.route(`**${path}`, (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 500, contentType: 'text/html', body: '<p>boom</p>' })
      : route.continue());
  await page.getByRole('button', { name: 'Save' }).click();

  await failure(page).getByText('Not saved: the server answered 500').waitFor();
  assert.equal(await editorBody(page).inputValue(), 'typed while the server fails');
  assert.equal(await page.locator('form.editor').count(), 1, 'the editor was not replaced');

  // The server is well again: the same press of Save stores the text.
  await page.unroute(`**${path}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('article.document').waitFor();
  assert.match(await page.locator('.prose').textContent(), /typed while the server fails/);
  await context.close();
});

test('without a network a save says the server cannot be reached, and works once it is back', async () => {
  const { context, page } = await signedIn();
  const path = await createDocument(page, unique('Offline'), 'saved before');
  await page.goto(`${path}/edit`);
  await editorBody(page).fill('written on a train');
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Save' }).click();

  await failure(page).getByText('quire could not reach the server').waitFor();
  assert.equal(await editorBody(page).inputValue(), 'written on a train');

  await context.setOffline(false);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('article.document').waitFor();
  assert.match(await page.locator('.prose').textContent(), /written on a train/);
  await context.close();
});

test('an autosave without a network warns, and keeps the draft once the network is back', async () => {
  const { context, page } = await signedIn();
  const path = await createDocument(page, unique('Offline draft'), 'saved before');
  await page.goto(`${path}/edit`);
  await context.setOffline(true);
  await editorBody(page).fill('a draft typed offline');

  await failure(page).getByText("quire can't reach the server to keep a draft").waitFor();
  assert.equal(await editorBody(page).inputValue(), 'a draft typed offline');

  // Back online, the draft is sent again by itself and the warning goes.
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await page.locator('#draft-status .draft-saved').waitFor();
  assert.equal(await failure(page).textContent(), '');

  const later = await context.newPage();
  await later.goto(`${path}/edit`);
  await later.locator('#draft-restore').click();
  await later.locator('#draft-restored').waitFor();
  assert.equal(await editorBody(later).inputValue(), 'a draft typed offline');
  await context.close();
});

test('a save after the session ended says so, links to sign in, and keeps the text', async () => {
  const { context, page } = await signedIn();
  const path = await createDocument(page, unique('Expired'), 'saved before');
  await page.goto(`${path}/edit`);
  await editorBody(page).fill('typed while signed out elsewhere');
  // The session ends on the server (signed out in another tab); this tab still
  // holds the old cookie, as a tab does when a session expires.
  const cookies = await context.cookies();
  const other = await context.newPage();
  await other.goto('/');
  await signOut(other);
  await other.waitForURL(/\/login/);
  await context.addCookies(cookies);

  await page.getByRole('button', { name: 'Save' }).click();
  await failure(page).getByText('Not saved: your session has ended').waitFor();
  const link = failure(page).getByRole('link', { name: /Sign in again/ });
  assert.match(await link.getAttribute('href'), /^\/login\?next=/);
  assert.equal(await editorBody(page).inputValue(), 'typed while signed out elsewhere');
  assert.equal(await page.locator('form.editor').count(), 1, 'the sign-in page did not replace the editor');
  await context.close();
});

test('closing the tab right after typing still keeps a draft', async () => {
  const { context, page } = await signedIn();
  const path = await createDocument(page, unique('Closed fast'), 'saved before');
  await page.goto(`${path}/edit`);
  await editorBody(page).fill('typed a moment before closing');
  // Well inside the two seconds the autosave waits for: only the last-draft
  // send on page hide can keep this.
  await page.close({ runBeforeUnload: true });

  const later = await context.newPage();
  await openWithDraftOffer(later, path);
  await later.locator('#draft-restore').click();
  await later.locator('#draft-restored').waitFor();
  assert.equal(await editorBody(later).inputValue(), 'typed a moment before closing');
  await context.close();
});

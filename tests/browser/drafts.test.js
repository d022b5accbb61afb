// Never lose a keystroke: the editor keeps a draft on the server while the user
// types, offers it back when they return, and forgets it once they save.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  createDocument, editorBody, launch, newContext, openWithDraftOffer, signIn, unique,
} from './helpers.js';

let browser;
let context;

before(async () => {
  browser = await launch();
  context = await newContext(browser);
  const page = await context.newPage();
  await signIn(page);
  await page.close();
});

after(async () => {
  await browser?.close();
});

test('typing is kept as a draft, offered back in a new tab, and gone after saving', async () => {
  const page = await context.newPage();
  const path = await createDocument(page, unique('Drafted'), 'the saved text');
  await page.goto(`${path}/edit`);
  await editorBody(page).fill('words typed but never saved');
  // A few seconds after typing stops, the editor says the draft is kept.
  await page.locator('#draft-status .draft-saved').waitFor({ timeout: 15000 });
  // The tab goes away without saving.
  await page.close();

  const later = await context.newPage();
  await later.goto(`${path}/edit`);
  await later.locator('#draft-offer').waitFor();
  assert.equal(await editorBody(later).inputValue(), 'the saved text');
  await later.locator('#draft-restore').click();
  await later.locator('#draft-restored').waitFor();
  assert.equal(await editorBody(later).inputValue(), 'words typed but never saved');

  await later.getByRole('button', { name: 'Save' }).click();
  await later.locator('article.document').waitFor();
  assert.match(await later.locator('.prose').textContent(), /words typed but never saved/);
  await later.goto(`${path}/edit`);
  await later.getByRole('heading', { level: 1, name: 'Edit document' }).waitFor();
  assert.equal(await later.locator('#draft-offer').count(), 0, 'a saved draft is not offered again');
  await later.close();
});

test('a draft can be discarded', async () => {
  const page = await context.newPage();
  const path = await createDocument(page, unique('Second thoughts'), 'keep this');
  await page.goto(`${path}/edit`);
  await editorBody(page).fill('a change I will regret');
  await page.locator('#draft-status .draft-saved').waitFor({ timeout: 15000 });
  await page.goto(`${path}/edit`);
  await page.locator('#draft-offer').waitFor();
  await page.locator('#draft-discard').click();
  await page.locator('#draft-offer').waitFor({ state: 'detached' });
  await page.goto(`${path}/edit`);
  await page.getByRole('heading', { level: 1, name: 'Edit document' }).waitFor();
  assert.equal(await page.locator('#draft-offer').count(), 0);
  assert.equal(await editorBody(page).inputValue(), 'keep this');
  await page.close();
});

test('Esc in an editor with unsaved text keeps the text and the editor', async () => {
  const page = await context.newPage();
  const path = await createDocument(page, unique('Escaped'), 'the saved text');
  await page.goto(`${path}/edit`);
  await editorBody(page).fill('typed, then Esc pressed by habit');
  await editorBody(page).press('Escape');

  await page.locator('#flash .banner.warn').waitFor();
  assert.equal(new URL(page.url()).pathname, `${path}/edit`);
  assert.equal(await editorBody(page).inputValue(), 'typed, then Esc pressed by habit');
  await page.close();
});

test('Esc ending an input method composition does not leave; in an untouched editor it does', async () => {
  const page = await context.newPage();
  const path = await createDocument(page, unique('Composing'), 'nothing typed');
  await page.goto(`${path}/edit`);
  await editorBody(page).focus();
  // What an input method sends when Esc cancels its candidate.
  await editorBody(page).evaluate((el) => el.dispatchEvent(new KeyboardEvent('keydown', {
    key: 'Escape', isComposing: true, bubbles: true,
  })));
  await page.waitForTimeout(300);
  assert.equal(new URL(page.url()).pathname, `${path}/edit`);

  await editorBody(page).press('Escape');
  await page.waitForURL((url) => url.pathname === path);
  await page.close();
});

test('following a link right after typing keeps a draft', async () => {
  const page = await context.newPage();
  const path = await createDocument(page, unique('Wandered off'), 'the saved text');
  await page.goto(`${path}/edit`);
  await editorBody(page).fill('typed just before clicking away');
  // Well inside the two seconds the autosave waits for.
  await page.getByRole('link', { name: 'Documents', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();

  await openWithDraftOffer(page, path);
  await page.locator('#draft-restore').click();
  await page.locator('#draft-restored').waitFor();
  assert.equal(await editorBody(page).inputValue(), 'typed just before clicking away');
  await page.close();
});

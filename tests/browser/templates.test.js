// Templates: a writer marks a document a template, a space's manager makes new
// documents in a folder start from it, and a colleague without JavaScript
// starts one there: the date, author and title filled in. Screenshots of the
// New page offering templates and of the template page, desktop and phone,
// light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DESKTOP, PHONE, banner, editorBody, launch, newContext, person, signIn, unique } from './helpers.js';

const OUT = process.env.QUIRE_SCREENSHOTS ?? path.resolve('screenshots');

let browser;

before(async () => {
  await mkdir(OUT, { recursive: true });
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

test('a template starts new documents in its folder, filled in, with and without JavaScript', async () => {
  const adminCtx = await newContext(browser);
  const admin = await adminCtx.newPage();
  await signIn(admin);
  const { ctx, page } = await person(browser, admin, `tia${process.pid}`);
  const colleague = `uri${process.pid}`;
  const { ctx: uriCtx, page: uri } = await person(browser, admin, colleague, { javaScriptEnabled: false });
  const title = unique('Meeting notes template');
  const folder = `Meetings ${process.pid}`;
  await page.goto('/new');
  await page.getByLabel('Title').fill(title);
  await editorBody(page).fill('# {{title}}\n\nHeld on {{date}}, notes by {{author}}.\n\n## Actions\n\n- [ ] ');
  await page.getByLabel('Space').selectOption({ label: 'Team' });
  await page.getByLabel('Folder').fill(folder);
  await page.getByLabel('Tags').fill('meeting');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  const docPath = new URL(page.url()).pathname;
  const team = new URL(await page.locator('#doc .meta a.space').getAttribute('href'), 'http://x').searchParams.get('space');

  // The writer marks it a template from its page.
  await page.locator('#doc .meta').getByRole('link', { name: 'template' }).click();
  await page.getByRole('heading', { level: 1, name: 'Template' }).waitFor();
  await page.getByRole('button', { name: 'Make it a template' }).click();
  await banner(page, 'It is a template').waitFor();
  assert.equal(await page.locator('.template-places').count(), 0, 'she does not manage Team');

  // The admin, who manages every space, has new documents in the folder start from it.
  await admin.goto(`${docPath}/template`);
  await admin.locator('.template-places li', { hasText: `In ${folder}` }).getByRole('button', { name: 'Start from it here' }).click();
  await banner(admin, 'New documents there start from this template').waitFor();
  await admin.locator('.template-places li', { hasText: `In ${folder}` }).getByText('starts from it').waitFor();

  // A colleague without JavaScript starts a document in the folder.
  await uri.goto(`/new?space=${team}&folder=${encodeURIComponent(folder)}`);
  await banner(uri, 'Started from the template').waitFor();
  const today = new Date().toISOString().slice(0, 10);
  assert.match(await editorBody(uri).inputValue(), new RegExp(`^# \\{\\{title\\}\\}\\n\\nHeld on ${today}, notes by ${colleague}\\.`));
  assert.equal(await uri.getByLabel('Tags').inputValue(), 'meeting');
  const standup = unique('Standup');
  await uri.getByLabel('Title').fill(standup);
  await uri.getByRole('button', { name: 'Save' }).click();
  await uri.getByRole('heading', { level: 1, name: standup }).first().waitFor();
  assert.ok((await uri.locator('#doc .prose h1').innerText()).startsWith(standup), 'the title filled in');
  assert.match(await uri.locator('#doc .prose').innerText(), new RegExp(`Held on ${today}`));

  // The writer's New page offers it; the choices are chips, not bars.
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    for (const scheme of ['light', 'dark']) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/new');
      const offer = page.locator('details.templates');
      await offer.waitFor();
      if ((await offer.getAttribute('open')) === null) await offer.locator('summary').click();
      const chip = await offer.locator('.template-list li', { hasText: title }).boundingBox();
      const list = await offer.locator('.template-list').boundingBox();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the New page fits a ${size} screen (${width}px)`);
      assert.ok(chip.x + chip.width <= list.x + list.width + 1, `the template's chip stays inside the list: ${JSON.stringify([chip, list])}`);
      if (size === 'desktop') assert.ok(chip.width < list.width * 0.8, `a template is a chip, not a bar (${chip.width}px of ${list.width}px)`);
      await page.screenshot({ path: path.join(OUT, `template-new-${size}-${scheme}.png`), fullPage: true });
      await admin.setViewportSize(viewport);
      await admin.emulateMedia({ colorScheme: scheme });
      await admin.goto(`${docPath}/template`);
      const pageWidth = await admin.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(pageWidth <= viewport.width, `the template page fits a ${size} screen (${pageWidth}px)`);
      const stop = await admin.locator('.template-places').getByRole('button', { name: 'Stop' }).boundingBox();
      assert.ok(stop.height < 50 && stop.width < 200, `Stop is a button: ${JSON.stringify(stop)}`);
      await admin.screenshot({ path: path.join(OUT, `template-page-${size}-${scheme}.png`), fullPage: true });
    }
  }

  // Chosen from the list with JavaScript, the title typed afterwards fills it on save.
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/new');
  const offer = page.locator('details.templates');
  if ((await offer.getAttribute('open')) === null) await offer.locator('summary').click();
  await offer.getByRole('link', { name: title }).click();
  await banner(page, 'Started from the template').waitFor();
  const retro = unique('Retro');
  await page.getByLabel('Title').fill(retro);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: retro }).first().waitFor();
  assert.ok((await page.locator('#doc .prose h1').innerText()).startsWith(retro));
  await ctx.close();
  await uriCtx.close();
  await adminCtx.close();
});

// A new team's first hour: the admin invites a second person by link; they choose
// their own name and password, see and edit the team space's documents, write one
// the admin sees without any sharing step, and never see the admin's personal
// space. With JavaScript and without.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { banner, editorBody, launch, newContext, signIn, unique } from './helpers.js';

let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/** Creates a document in the space labelled `space` through the New page; its path. */
async function createIn(page, title, body, space) {
  await page.goto('/new');
  await page.getByLabel('Title').fill(title);
  await editorBody(page).fill(body);
  if (space) {
    await page.getByLabel('Space').selectOption({ label: space });
  }
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  return new URL(page.url()).pathname;
}

let people = 0;

for (const javaScriptEnabled of [true, false]) {
  const how = javaScriptEnabled ? 'with JavaScript' : 'without JavaScript';
  test(`${how}: an invited person joins, shares the team space and never sees the admin's own`, async () => {
    const adminCtx = await newContext(browser, { javaScriptEnabled });
    const admin = await adminCtx.newPage();
    await signIn(admin);
    const teamTitle = unique('Team plan');
    const ownTitle = unique('Admin diary');
    const teamPath = await createIn(admin, teamTitle, 'We ship on Friday.', 'Team');
    assert.match(await admin.locator('p.meta a.space').innerText(), /^Team · \d+ (person|people)$/);
    const ownPath = await createIn(admin, ownTitle, 'Private thoughts.', 'Personal (only you)');
    assert.equal(await admin.locator('p.meta a.space').innerText(), 'Personal');

    await admin.goto('/invitations');
    await admin.getByRole('button', { name: 'Make invitation link' }).click();
    const link = await admin.getByLabel('Invitation link').inputValue();
    assert.match(link, /\/join\/[0-9a-f]{64}$/);

    people += 1;
    const name = `bea${process.pid}n${people}${javaScriptEnabled ? 'js' : 'plain'}`;
    const newcomerCtx = await newContext(browser, { javaScriptEnabled });
    const bea = await newcomerCtx.newPage();
    await bea.goto(link);
    await bea.getByRole('heading', { level: 1, name: 'Join quire' }).waitFor();
    await bea.getByLabel('Username').fill(name);
    await bea.getByLabel('Password').fill('a long enough password');
    await bea.getByRole('button', { name: 'Join' }).click();
    await bea.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
    await banner(bea, 'Welcome to quire: your account is ready.');
    assert.ok(await bea.getByRole('link', { name: teamTitle }).isVisible(), 'the team document is listed');
    assert.equal(await bea.getByRole('link', { name: ownTitle }).count(), 0, "the admin's own is not");
    const missing = await bea.goto(ownPath);
    assert.equal(missing.status(), 404);

    // Bea edits the team's document and writes her own in the team space.
    await bea.goto(`${teamPath}/edit`);
    await editorBody(bea).fill('We ship on Friday. Bea checks the list.');
    await bea.getByRole('button', { name: 'Save' }).click();
    await bea.getByRole('heading', { level: 1, name: teamTitle }).waitFor();
    const beaTitle = unique('Bea notes');
    const beaPath = await createIn(bea, beaTitle, 'Hello team.');
    assert.match(await bea.locator('p.meta a.space').innerText(), /^Team · /);

    // The admin sees both, with no sharing step.
    await admin.goto(teamPath);
    assert.match(await admin.locator('.prose').innerText(), /Bea checks the list/);
    const seen = await admin.goto(beaPath);
    assert.equal(seen.status(), 200);
    await admin.getByRole('heading', { level: 1, name: beaTitle }).waitFor();

    // The link was for one person.
    const again = await (await newContext(browser, { javaScriptEnabled })).newPage();
    const gone = await again.goto(link);
    assert.equal(gone.status(), 410);
    await adminCtx.close();
    await newcomerCtx.close();
  });
}

test('moving a document says who gains access before it moves', async () => {
  const ctx = await newContext(browser);
  const page = await ctx.newPage();
  await signIn(page);
  const title = unique('Moving plan');
  const path = await createIn(page, title, 'Notes.', 'Personal (only you)');
  await page.goto(`${path}/move`);
  await page.getByLabel('Move to').selectOption({ label: 'Team' });
  await page.getByRole('button', { name: 'See who gains and loses access' }).click();
  await page.locator('.move-plan').waitFor();
  const plan = await page.locator('.move-plan').innerText();
  assert.match(plan, /Moving it to Team/);
  assert.match(plan, /gains? access|Nobody gains or loses access/);
  await page.getByRole('button', { name: 'Move it' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  assert.match(await page.locator('p.meta a.space').innerText(), /^Team · /);
  await ctx.close();
});

test('without JavaScript a whole folder moves to another space after the page counts it', async () => {
  const ctx = await newContext(browser, { javaScriptEnabled: false });
  const page = await ctx.newPage();
  await signIn(page);
  const folder = `Garden${process.pid}`;
  for (const [title, place] of [[unique('Beds'), folder], [unique('Seeds'), `${folder}/Spring`]]) {
    await page.goto('/new');
    await page.getByLabel('Title').fill(title);
    await editorBody(page).fill('Notes.');
    await page.getByLabel('Folder').fill(place);
    await page.getByLabel('Space').selectOption({ label: 'Personal (only you)' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
  }
  await page.goto(`/?folder=${encodeURIComponent(folder)}`);
  await page.getByText('Rename or move this folder').click();
  await page.getByRole('link', { name: 'Move this folder to another space…' }).click();
  await page.getByLabel('Move to').selectOption({ label: 'Team' });
  await page.getByRole('button', { name: 'See who gains and loses access' }).click();
  const plan = page.locator('.move-plan');
  await plan.waitFor();
  assert.match(await plan.innerText(), /2 documents move\./);
  const shots = process.env.QUIRE_SCREENSHOTS;
  if (shots) {
    await page.screenshot({ path: `${shots}/folder-move-desktop-light.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${shots}/folder-move-phone-dark.png`, fullPage: true });
  }
  await page.getByRole('button', { name: 'Move the folder' }).click();
  await banner(page, 'Folder moved').waitFor();
  assert.match(await page.locator('p.meta.total').innerText(), /^2 documents in /);
  await ctx.close();
});

for (const javaScriptEnabled of [true, false]) {
  const how = javaScriptEnabled ? 'with JavaScript' : 'without JavaScript';
  test(`${how}: search narrows to one space`, async () => {
    const ctx = await newContext(browser, { javaScriptEnabled });
    const page = await ctx.newPage();
    await signIn(page);
    const word = unique('zinnia').replace(/[^a-z0-9]/gi, '');
    const inTeam = unique('Team zinnia');
    const mine = unique('Own zinnia');
    await createIn(page, inTeam, `Seeds: ${word}.`, 'Team');
    await createIn(page, mine, `Seeds: ${word}.`, 'Personal (only you)');
    await page.goto(`/search?q=${word}`);
    const hits = page.locator('ol.hits > li > a');
    await hits.first().waitFor();
    assert.equal(await hits.count(), 2);
    await page.getByLabel('In which space').selectOption({ label: 'Personal' });
    if (!javaScriptEnabled) {
      await page.getByRole('button', { name: 'Search' }).click();
    }
    await page.waitForURL(/space=personal/);
    await page.waitForFunction(() => document.querySelectorAll('ol.hits > li').length === 1);
    assert.equal(await hits.first().innerText(), mine);
    // The choice is kept in the address: reloaded, it still narrows.
    await page.reload();
    assert.equal(await page.getByLabel('In which space').inputValue(), 'personal');
    assert.equal(await hits.count(), 1);
    await ctx.close();
  });
}

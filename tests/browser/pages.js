// quire's main pages, with the data each needs to show something real: a document
// with two revisions, one in the trash, a search with hits. Used by the
// accessibility checks and the screenshots.
import { createDocument, editorBody } from './helpers.js';

const SAMPLE = `quire keeps every revision of a document, so you can write freely.

## Why plain text

Plain text outlives the programs that made it. A *Markdown* file written today
opens in any editor in thirty years.

- Headings, lists and **emphasis**
- \`inline code\` and fenced blocks
- [links](https://example.org)

> Nothing is ever lost: a save appends a revision.

> [!tip] Write first, tidy later
> A ==highlight== marks what matters, and www.example.org is a link by itself.

Revision
: One saved state of a document, kept for good.

## Before publishing

- [x] Write the outline
- [ ] Ask for a review

## Formulas

A circle's area is $A = \\pi r^2$, and the first $n$ numbers add up to

$$\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}$$

## Formats

| Format | Opens in |
| --- | --- |
| Markdown | any text editor |

\`\`\`sh
quire serve
\`\`\`
`;

/** A second account, with a long name, as teams have. */
const COLLEAGUE = 'margaret.lindqvist';

/**
 * Creates the sample data through `page` (signed in), with `word` to search for,
 * and returns the pages, each with a name and an `open(page)` that shows it and
 * waits for its heading.
 */
export async function mainPages(page, word = 'lighthouse') {
  // Plain names, as people would write them: these pages end up in the README.
  // Opening by address keeps a page apart from a same-named one of another file;
  // each caller's own `word` keeps the search page to its own document.
  const title = 'A field guide to plain text';
  const path = await createDocument(page, title, SAMPLE.replace('freely', `freely by the ${word}`));
  await page.goto(`${path}/edit`);
  await editorBody(page).fill(
    SAMPLE.replace('freely', `freely by the ${word}`).replace('thirty', 'fifty'),
  );
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();

  await page.goto(`${path}/share`);
  await page.getByRole('button', { name: 'Create a public link' }).click();
  const publicUrl = await page.getByLabel('Public link').inputValue();

  await createDocument(page, 'Old shopping list', 'milk, bread');
  page.once('dialog', (dialog) => dialog.accept());
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();

  await page.goto('/spaces');
  const spaceLink = page.locator('table.users tbody a[href^="/spaces/"]').first();
  const spacePage = await spaceLink.getAttribute('href');
  const spaceName = (await spaceLink.innerText()).trim();

  // A colleague, so the users page shows what it shows for everyone else
  // (the password reset field), as a team sees it.
  await page.goto('/admin/users');
  if (!(await page.locator('table.users').innerText()).includes(COLLEAGUE)) {
    await page.getByLabel('Username').fill(COLLEAGUE);
    await page.getByLabel('Password (at least 10 characters; tell them to change it)').fill('a long enough password');
    await page.getByRole('button', { name: 'Add account' }).click();
    await page.locator('.banner').first().waitFor();
    await page.goto('/admin/users');
  }
  const adminPage = await page.locator('table.users a').first().getAttribute('href');
  const adminName = await page.locator('table.users a').first().innerText();

  const at = (name, url, heading) => ({
    name,
    async open(p) {
      await p.goto(url);
      await p.getByRole('heading', { level: 1, name: heading }).first().waitFor();
    },
  });

  return {
    signedIn: [
      at('list', '/', 'Documents'),
      at('document', path, title),
      at('new', '/new', 'New document'),
      at('editor', `${path}/edit`, 'Edit document'),
      at('history', `${path}/history`, 'History'),
      at('revision', `${path}/r/1`, title),
      at('diff', `${path}/diff?from=1&to=2`, 'Changes from revision 1 to 2'),
      at('diff-rendered', `${path}/diff?from=1&to=2&view=rendered`, 'Changes from revision 1 to 2'),
      at('template', `${path}/template`, 'Template'),
      at('search', `/search?q=${word}`, 'Search'),
      at('trash', '/trash', 'Trash'),
      at('changes', '/changes', 'Recent changes'),
      at('inbox', '/inbox', 'Inbox'),
      at('share', `${path}/share`, 'Sharing'),
      at('account', '/account', 'Your account'),
      at('admin-users', '/admin/users', 'Users'),
      at('admin-audit', '/admin/audit', 'Audit log'),
      at('admin-user', adminPage, adminName),
      at('spaces', '/spaces', 'Spaces'),
      at('space', spacePage, spaceName),
      at('groups', '/admin/groups', 'Groups'),
      at('invite', '/invitations', 'Invite people'),
      at('move', `${path}/move?to=personal`, 'Move to another space'),
      {
        name: 'conflict',
        async open(p) {
          await p.goto(`${path}/edit`);
          // An editor opened before the last save: its version is one behind.
          await p.locator('form.editor input[name="version"]').evaluate((el) => {
            el.value = String(Number(el.value) - 1);
          });
          // Rewriting what the last save changed cannot merge: a conflict.
          await p.locator('form.editor textarea[name="body"]').fill('Written in an old tab.');
          await p.getByRole('button', { name: 'Save' }).click();
          await p.getByRole('heading', { level: 1, name: 'Edit conflict' }).waitFor();
        },
      },
    ],
    signedOut: [at('login', '/login', 'Sign in'), at('public-link', publicUrl, title)],
  };
}

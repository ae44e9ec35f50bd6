import type { Page } from '@playwright/test';
import { createContact, expect, recordResponses, signIn, test } from './fixtures';

test('a rep signs in, searches, creates, edits and trashes a contact, and signs out', async ({ page }) => {
  const leakedTokens = recordResponses(page);
  const unique = `Zephyr${Date.now().toString(36)}`;

  await signIn(page, 'alex');
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByText(/\d[\d,]* contacts/)).toBeVisible();

  await page.getByRole('button', { name: 'New contact' }).click();
  const form = page.getByRole('dialog', { name: 'New contact' });
  await form.getByLabel('First name').fill(unique);
  await form.getByLabel('Last name').fill('Original');
  await page.keyboard.press('Escape');
  const discard = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
  await discard.getByRole('button', { name: 'Keep editing' }).click();
  await expect(discard).toBeHidden();
  await expect(form.getByLabel('Last name')).toHaveValue('Original');
  await form.getByLabel('E-mail').fill('not-an-address');
  await form.getByRole('button', { name: 'Save contact' }).click();
  await expect(form.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('E-mail').fill(`${unique.toLowerCase()}@example.com`);
  await form.getByLabel('Phone', { exact: true }).fill('(212) 555-0199');
  await form.getByRole('button', { name: 'Save contact' }).click();
  await expect(form).toBeHidden();

  const search = page.getByRole('searchbox', { name: 'Search contacts' });
  await search.fill(unique);
  await expect(grid.getByRole('row')).toHaveCount(2);
  await expect(grid.getByRole('row').nth(1)).toContainText(`${unique} Original`);
  await expect(grid.getByRole('row').nth(1)).toContainText('(212) 555-0199');

  await grid.getByRole('button', { name: new RegExp(`Edit ${unique}`) }).click();
  const edit = page.getByRole('dialog', { name: new RegExp(`Edit ${unique}`) });
  await edit.getByLabel('Last name').fill('Edited');
  await edit.getByRole('button', { name: 'Save contact' }).click();
  await expect(edit).toBeHidden();
  await expect(grid.getByRole('row').nth(1)).toContainText(`${unique} Edited`);
  await grid.getByRole('button', { name: new RegExp(`Edit ${unique}`) }).click();
  await edit.getByLabel('Last name').fill('Abandoned');
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await discard.getByRole('button', { name: 'Discard changes' }).click();
  await expect(edit).toBeHidden();
  await expect(grid.getByRole('row').nth(1)).toContainText(`${unique} Edited`);

  await grid.getByRole('checkbox', { name: new RegExp(`Select ${unique}`) }).check();
  await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Move to trash' }).click();
  const confirm = page.getByRole('alertdialog', { name: /to trash\?/ });
  await confirm.getByRole('button', { name: 'Move to trash' }).click();
  await expect(page.getByRole('heading', { name: 'No contacts match' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Bulk change' })).toContainText('1 contact moved to trash.');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto('/contacts');
  await expect(page).toHaveURL(/\/sign-in/);

  expect(await leakedTokens()).toEqual([]);
});

test('a wrong password is refused with a message, and the grid pages and filters by folder', async ({ page }) => {
  const leakedTokens = recordResponses(page);
  await page.goto('/sign-in');
  await page.getByLabel('Username').fill('blake');
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText(/wrong username or password/i);

  await signIn(page, 'vendor');
  const pageNumber = page.getByRole('spinbutton', { name: 'Page' });
  await expect(pageNumber).toHaveValue('1');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(pageNumber).toHaveValue('2');

  const total = async () =>
    Number(
      (
        await page
          .getByText(/\d[\d,]* contacts/)
          .first()
          .innerText()
      ).replace(/\D/g, ''),
    );
  const all = await total();
  await page.getByRole('navigation', { name: 'Folders' }).getByRole('link').nth(1).click();
  await expect.poll(total).toBeLessThan(all);
  await expect(pageNumber).toHaveValue('1');

  // The tag filter offers every tag, past the API's page of 100.
  const titles = Array.from({ length: 120 }, (_, i) => `zz-e2e-${String(i).padStart(3, '0')}`);
  const created = await page.request.post('/rest/1/contacts', {
    headers: { 'X-Ringbook-Request': '1' },
    data: { first_name: 'Tagged', last_name: 'Many', tags: titles },
  });
  expect(created.status()).toBe(201);
  await page.goto('/contacts');
  const tagFilter = page.getByRole('combobox', { name: 'Filter by tag' });
  await tagFilter.selectOption({ label: 'zz-e2e-119' });
  await expect(page.getByText('1 contact', { exact: true })).toBeVisible();
  await expect(page.getByRole('grid').getByRole('row').nth(1)).toContainText('Tagged Many');

  expect(await leakedTokens()).toEqual([]);
});

async function readContact(page: Page, id: string) {
  return (await (await page.request.get(`/rest/1/contacts/${id}`)).json()).contacts.contacts[0];
}

async function startNewContact(page: Page, first: string, last: string, field: 'E-mail' | 'Phone', value: string) {
  await page.getByRole('button', { name: 'New contact' }).click();
  const form = page.getByRole('dialog', { name: 'New contact' });
  await form.getByLabel('First name').fill(first);
  await form.getByLabel('Last name').fill(last);
  await form.getByLabel(field, { exact: true }).fill(value);
  await form.getByRole('button', { name: 'Save contact' }).click();
  return form;
}

test('a new contact with an existing e-mail or phone: update the match, create a separate one, or open it', async ({ page }) => {
  const u = Date.now().toString(36);
  const email = `dana.${u}@example.com`;
  const phone = `(415) 555-${String(Date.now() % 10000).padStart(4, '0')}`;
  await signIn(page, 'alex');
  const id = await createContact(page.request, { first_name: 'Dana', last_name: `Orig${u}`, email, phone });

  // Update the existing contact with the typed values, after seeing what changes.
  const form = await startNewContact(page, 'Totally', `Different${u}`, 'E-mail', email.toUpperCase());
  const review = page.getByRole('dialog', { name: 'A contact with this e-mail or phone exists' });
  await expect(review.getByRole('list', { name: 'Existing contacts' })).toContainText(`Dana Orig${u}`);
  await review.getByRole('button', { name: `Update Dana Orig${u}…` }).click();
  const update = page.getByRole('dialog', { name: `Update Dana Orig${u}?` });
  const changes = update.getByRole('table', { name: 'Changes to the existing contact' });
  await expect(changes.getByRole('row', { name: /First name/ })).toContainText('DanaTotally');
  await expect(changes.getByRole('row', { name: /Last name/ })).toContainText(`Orig${u}Different${u}`);
  await expect(changes.getByRole('row', { name: /Phone/ })).toHaveCount(0);
  await update.getByRole('button', { name: 'Update contact' }).click();
  await expect(form).toBeHidden();
  const updated = await readContact(page, id);
  expect([updated.first_name, updated.last_name, updated.primary_phone.phone.replace(/\D/g, '')]).toEqual([
    'Totally',
    `Different${u}`,
    phone.replace(/\D/g, ''),
  ]);

  // Create a separate contact: both exist afterwards, the first one unchanged.
  await startNewContact(page, 'Second', `Person${u}`, 'E-mail', email);
  await page
    .getByRole('dialog', { name: 'A contact with this e-mail or phone exists' })
    .getByRole('button', { name: 'Create a separate contact' })
    .click();
  await expect(page.getByRole('dialog', { name: 'New contact' })).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(email);
  await expect(page.getByRole('grid').getByRole('row')).toHaveCount(3);
  expect((await readContact(page, id)).first_name).toBe('Totally');

  // Open the existing contact instead (the match by phone, written differently).
  await startNewContact(page, 'Third', `Try${u}`, 'Phone', `1${phone.replace(/\D/g, '')}`);
  await page
    .getByRole('dialog', { name: 'A contact with this e-mail or phone exists' })
    .getByRole('link', { name: `Open Totally Different${u}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/contacts/${id}$`));
});

test("the duplicate review's Update adds a new phone and e-mail beside the contact's own, never replacing them", async ({ page }) => {
  const u = Date.now().toString(36);
  const email = `erin.${u}@example.com`;
  const tail = String(Date.now() % 10000).padStart(4, '0');
  const [first, second] = [`(415) 556-${tail}`, `(415) 557-${tail}`];
  await signIn(page, 'alex');
  const id = await createContact(page.request, { first_name: 'Erin', last_name: `Keep${u}`, email, phone: first });

  await page.getByRole('button', { name: 'New contact' }).click();
  const form = page.getByRole('dialog', { name: 'New contact' });
  await form.getByLabel('First name').fill('Erin');
  await form.getByLabel('Last name').fill(`Keep${u}`);
  await form.getByLabel('E-mail', { exact: true }).fill(email);
  await form.getByLabel('Phone', { exact: true }).fill(second);
  await form.getByRole('button', { name: 'Save contact' }).click();
  await page
    .getByRole('dialog', { name: 'A contact with this e-mail or phone exists' })
    .getByRole('button', { name: `Update Erin Keep${u}…` })
    .click();
  const update = page.getByRole('dialog', { name: `Update Erin Keep${u}?` });
  const changes = update.getByRole('table', { name: 'Changes to the existing contact' });
  await expect(changes.getByRole('row', { name: /Phone/ })).toContainText(`Adds: ${second}`);
  await update.getByRole('button', { name: 'Update contact' }).click();
  await expect(form).toBeHidden();

  const updated = await readContact(page, id);
  expect(updated.primary_phone.phone).toBe(first);
  expect(updated.phones.map((p: { phone: string }) => p.phone)).toEqual(expect.arrayContaining([first, second]));
  expect(updated.primary_email.email_address).toBe(email);

  // Found by its phone, with an e-mail address it does not have: the address goes beside its own.
  const other = `erin.work.${u}@example.org`;
  await page.getByRole('button', { name: 'New contact' }).click();
  await form.getByLabel('First name').fill('Erin');
  await form.getByLabel('E-mail', { exact: true }).fill(other);
  await form.getByLabel('Phone', { exact: true }).fill(first);
  await form.getByRole('button', { name: 'Save contact' }).click();
  await page
    .getByRole('dialog', { name: 'A contact with this e-mail or phone exists' })
    .getByRole('button', { name: `Update Erin Keep${u}…` })
    .click();
  await expect(changes.getByRole('row', { name: /E-mail/ })).toContainText(`Adds: ${other}`);
  await update.getByRole('button', { name: 'Update contact' }).click();
  await expect(form).toBeHidden();
  const again = await readContact(page, id);
  expect(again.primary_email.email_address).toBe(email);
  expect(again.emails.map((e: { email_address: string }) => e.email_address)).toEqual(expect.arrayContaining([email, other]));
});

test('two people edit one contact: the second sees what changed and applies their values', async ({ page, browser }) => {
  const u = Date.now().toString(36);
  await signIn(page, 'alex');
  const id = await createContact(page.request, { first_name: 'Morgan', last_name: `Shared${u}`, city: 'Austin' });

  const managerContext = await browser.newContext();
  const manager = await managerContext.newPage();
  await signIn(manager, 'manager');

  const openEditor = async (p: Page) => {
    await p.goto(`/contacts?search=Shared${u}`);
    await p
      .getByRole('grid')
      .getByRole('button', { name: `Edit Morgan Shared${u}` })
      .click();
    const dialog = p.getByRole('dialog', { name: `Edit Morgan Shared${u}` });
    await expect(dialog.getByLabel('City')).toHaveValue('Austin');
    return dialog;
  };
  const mine = await openEditor(page);
  const theirs = await openEditor(manager);

  await theirs.getByLabel('City').fill('Boston');
  await theirs.getByRole('button', { name: 'Save contact' }).click();
  await expect(theirs).toBeHidden();

  await mine.getByLabel('First name').fill('Morgana');
  await mine.getByLabel('Add a note').fill('Prefers e-mail.');
  await mine.getByRole('button', { name: 'Save contact' }).click();
  const conflict = page.getByRole('alertdialog', { name: 'Someone else changed this contact' });
  const table = conflict.getByRole('table', { name: 'What changed' });
  await expect(table.getByRole('row', { name: /City/ })).toContainText('AustinBostonNot changed by you');
  await expect(table.getByRole('row', { name: /First name/ })).toContainText('MorganMorganMorgana');
  expect((await readContact(page, id)).first_name).toBe('Morgan');

  await conflict.getByRole('button', { name: 'Apply my changes' }).click();
  await expect(mine).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Contact saved with your changes' })).toBeVisible();
  const saved = await readContact(page, id);
  expect([saved.first_name, saved.primary_address.city]).toEqual(['Morgana', 'Boston']);
  expect(saved.notes.notes).toContain('Prefers e-mail.');
  await managerContext.close();
});

test('moving contacts to trash offers Undo', async ({ page }) => {
  const u = Date.now().toString(36);
  await signIn(page, 'blake');
  const ids = [
    await createContact(page.request, { first_name: 'Undo', last_name: `One${u}` }),
    await createContact(page.request, { first_name: 'Undo', last_name: `Two${u}` }),
  ];
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(u);
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row')).toHaveCount(3);
  await grid.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Move to trash' }).click();
  await page.getByRole('alertdialog', { name: 'Move 2 contacts to trash?' }).getByRole('button', { name: 'Move to trash' }).click();
  const result = page.getByRole('region', { name: 'Bulk change' });
  await expect(result).toContainText('2 contacts moved to trash.');
  await expect(page.getByRole('heading', { name: 'No contacts match' })).toBeVisible();

  await result.getByRole('button', { name: 'Undo' }).click();
  await expect(result).toContainText('2 contacts restored from the trash.');
  await expect(grid.getByRole('row')).toHaveCount(3);
  for (const id of ids) expect((await readContact(page, id)).trashed).toBe('0');
});

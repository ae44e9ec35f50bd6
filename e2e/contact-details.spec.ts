import type { APIRequestContext, Page } from '@playwright/test';
import { createContact, expect, signIn, test, WRITE } from './fixtures';

/**
 * A drop-down field exists once a contact names it (with no value: it has no options yet); a value given by its label
 * then adds that option.
 */
async function seedDropDown(request: APIRequestContext, name: string, options: string[]) {
  const seed = await createContact(request, { first_name: 'Options', last_name: name, custom_fields: [{ name, type: 6, value: null }] });
  const fields = await (await request.get('/rest/1/customfields', { params: { page_size: 100 } })).json();
  const field = fields.customfields.customfields.find((f: { display_name: string }) => f.display_name === name);
  for (const value of options) {
    const set = await request.put(`/rest/1/contacts/${seed}/customfields/${field.custom_field_id}`, { headers: WRITE, data: { value } });
    expect(set.status()).toBe(200);
  }
}

/** From the grid: the name's link once the grid has one, else the contact's address (the grid's button opens an editor). */
async function openFromGrid(page: Page, name: string, id: string) {
  await page.goto('/contacts');
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(name);
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row').filter({ hasText: name })).toHaveCount(1);
  const link = grid.getByRole('link', { name, exact: true });
  if (await link.count()) await link.click();
  else await page.goto(`/contacts/${id}`);
  await expect(page).toHaveURL(new RegExp(`/contacts/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

const status = (page: Page, text: string) => expect(page.getByRole('status').filter({ hasText: text })).toBeVisible();

test('a rep opens a contact and works its phones, e-mails, tags, custom fields and notes, and the audit log shows old → new', async ({
  page,
}) => {
  await signIn(page, 'alex');
  const run = Date.now().toString(36);
  const name = `Quinn${run} Marlowe`;
  const stage = `Stage ${run}`;
  await seedDropDown(page.request, stage, ['Lead', 'Won']);
  const id = await createContact(page.request, {
    first_name: `Quinn${run}`,
    last_name: 'Marlowe',
    phone: '(212) 555-0142',
    email: `quinn.${run}@example.com`,
    tags: ['VIP'],
  });

  await openFromGrid(page, name, id);

  const phones = page.getByRole('list', { name: 'Phone numbers' });
  await page.getByRole('button', { name: 'Add phone' }).click();
  const phoneForm = page.getByRole('form', { name: 'Add a phone number' });
  await phoneForm.getByLabel('Phone number').fill('(646) 555-0177');
  await phoneForm.getByLabel('Type').selectOption({ label: 'Work' });
  await phoneForm.getByRole('button', { name: 'Add phone' }).click();
  await expect(phones.getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Add phone' })).toBeFocused();
  await page.getByRole('button', { name: 'Make (646) 555-0177 primary' }).click();
  await expect(phones.getByRole('listitem').filter({ hasText: '(646) 555-0177' })).toContainText('Primary');
  await expect(phones.getByRole('listitem').filter({ hasText: '(212) 555-0142' })).not.toContainText('Primary');

  const emails = page.getByRole('list', { name: 'E-mail addresses' });
  await page.getByRole('button', { name: 'Add e-mail' }).click();
  const emailForm = page.getByRole('form', { name: 'Add an e-mail address' });
  await emailForm.getByLabel('E-mail address').fill('not-an-address');
  await emailForm.getByRole('button', { name: 'Add e-mail' }).click();
  await expect(emailForm.getByLabel('E-mail address')).toHaveAttribute('aria-invalid', 'true');
  await emailForm.getByLabel('E-mail address').fill(`q.marlowe.${run}@example.org`);
  await emailForm.getByRole('button', { name: 'Add e-mail' }).click();
  await expect(emails.getByRole('listitem')).toHaveCount(2);
  await page.getByRole('button', { name: `Make q.marlowe.${run}@example.org primary` }).click();
  await expect(emails.getByRole('listitem').filter({ hasText: `q.marlowe.${run}@example.org` })).toContainText('Primary');

  const tags = page.getByRole('list', { name: 'Tags on this contact' });
  const addTag = page.getByRole('combobox', { name: 'Add a tag' });
  await addTag.fill('referr');
  await page.getByRole('option', { name: 'Referral' }).click();
  await expect(tags).toContainText('Referral');
  await addTag.fill(`e2e-fresh-${run}`);
  await addTag.press('ArrowDown');
  await expect(page.getByRole('option', { name: `Create tag “e2e-fresh-${run}”` })).toHaveAttribute('aria-selected', 'true');
  await addTag.press('Enter');
  await expect(tags).toContainText(`e2e-fresh-${run}`);
  await page.getByRole('button', { name: 'Remove tag VIP' }).click();
  await expect(tags.getByRole('listitem')).toHaveText([/Referral/, new RegExp(`e2e-fresh-${run}`)]);

  await page.getByLabel('Company', { exact: true }).fill('Acme Corp');
  await page.getByRole('button', { name: 'Save Company' }).click();
  await status(page, 'Company saved');
  await page.getByLabel('Annual revenue', { exact: true }).fill('125000');
  await page.getByRole('button', { name: 'Save Annual revenue' }).click();
  await status(page, 'Annual revenue saved');
  await page.getByLabel('Renewal date', { exact: true }).fill('2027-03-01');
  await page.getByRole('button', { name: 'Save Renewal date' }).click();
  await status(page, 'Renewal date saved');
  await page.getByRole('checkbox', { name: 'Opted in' }).check();
  await status(page, 'Opted in saved');
  await page.getByLabel(stage, { exact: true }).selectOption('Won');
  await page.getByRole('button', { name: `Save ${stage}` }).click();
  await status(page, `${stage} saved`);

  await page.getByLabel('New note').fill(`Asked for a call back in March (${run}).`);
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByRole('list', { name: 'Notes history' }).getByRole('listitem').first()).toContainText(
    `Asked for a call back in March (${run}).`,
  );

  await page.reload();
  await expect(page.getByLabel('Company', { exact: true })).toHaveValue('Acme Corp');
  await expect(page.getByLabel('Annual revenue', { exact: true })).toHaveValue('125000');
  await expect(page.getByLabel('Renewal date', { exact: true })).toHaveValue('2027-03-01');
  await expect(page.getByRole('checkbox', { name: 'Opted in' })).toBeChecked();
  await expect(page.getByLabel(stage, { exact: true })).toHaveValue('Won');

  const audit = page.getByRole('region', { name: 'Audit log' }).getByRole('table');
  await expect(audit.getByRole('row').filter({ hasText: 'Primary phone' })).toContainText('(212) 555-0142 → (646) 555-0177');
  await expect(audit.getByRole('row').filter({ hasText: 'Primary e-mail' })).toContainText(
    `quinn.${run}@example.com → q.marlowe.${run}@example.org`,
  );
  await expect(audit.getByRole('row').filter({ hasText: 'Company' })).toContainText('— → Acme Corp');
  await expect(audit.getByRole('row').filter({ hasText: 'Tag removed' })).toContainText('VIP → —');
});

test('an edit made elsewhere meanwhile is not overwritten: the page says so and reloads', async ({ page }) => {
  await signIn(page, 'blake');
  const run = Date.now().toString(36);
  const id = await createContact(page.request, { first_name: `Rowan${run}`, last_name: 'Stale', rating: 2 });
  await page.goto(`/contacts/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Rowan${run} Stale` })).toBeVisible();

  const other = await page.request.put(`/rest/1/contacts/${id}`, { headers: WRITE, data: { last_name: 'Elsewhere' } });
  expect(other.status()).toBe(200);

  await page.getByRole('button', { name: 'Edit details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit details' });
  await dialog.getByLabel('Rating').selectOption({ label: '5 stars' });
  await dialog.getByRole('button', { name: 'Save details' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Someone else changed this contact');
  await dialog.getByRole('button', { name: 'Reload the contact' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Rowan${run} Elsewhere` })).toBeVisible();
  await dialog.getByRole('button', { name: 'Save details' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('5 of 5 stars')).toBeAttached();
});

test('a trashed contact is found on the trash page and restored', async ({ page }) => {
  await signIn(page, 'casey');
  const run = Date.now().toString(36);
  const name = `Tove${run} Binley`;
  const id = await createContact(page.request, { first_name: `Tove${run}`, last_name: 'Binley', phone: '(312) 555-0190' });

  await page.goto(`/contacts/${id}`);
  await page.getByRole('button', { name: 'Move to trash' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Move ${name} to the trash?` });
  await confirm.getByRole('button', { name: 'Move to trash' }).click();
  await expect(page.getByText('This contact is in the trash')).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash' }).click();
  await expect(page.getByRole('link', { name: 'Trash' })).toHaveAttribute('aria-current', 'page');
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.filter({ hasText: name })).toHaveCount(1);
  await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  await page
    .getByRole('region', { name: 'Selected contacts' })
    .getByRole('button', { name: `Restore ${name}` })
    .click();
  await status(page, `${name} restored`);
  await expect(rows.filter({ hasText: name })).toHaveCount(0);

  await page.getByRole('link', { name: 'Contacts', exact: true }).click();
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(`Tove${run}`);
  await expect(page.getByRole('grid').getByRole('row').filter({ hasText: name })).toHaveCount(1);
});

test('the contact page shows the address the API stores and edits it; the dialer shows the same lines', async ({ page }) => {
  await signIn(page, 'alex');
  const run = Date.now().toString(36);
  const id = await createContact(page.request, {
    first_name: `Addie${run}`,
    last_name: 'Street',
    address1: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
  });
  await page.goto(`/contacts/${id}`);
  const section = page.getByRole('region', { name: 'Address' });
  await expect(section.getByText('1 Main St')).toBeVisible();
  await expect(section.getByText('Springfield, IL 62701')).toBeVisible();

  await section.getByRole('button', { name: 'Edit address' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit address' });
  await expect(dialog.getByLabel('Street address')).toHaveValue('1 Main St');
  await dialog.getByLabel('Address line 2').fill('Suite 200');
  await dialog.getByLabel('City').fill('Chicago');
  await dialog.getByLabel('ZIP code').fill('60601');
  await dialog.getByRole('button', { name: 'Save address' }).click();
  await expect(dialog).toBeHidden();
  await status(page, 'Address saved');
  await expect(section.getByText('Suite 200')).toBeVisible();
  await expect(section.getByText('Chicago, IL 60601')).toBeVisible();

  const record = await (await page.request.get(`/rest/1/contacts/${id}`)).json();
  expect(record.contacts.contacts[0].primary_address).toMatchObject({
    address: '1 Main St',
    address_2: 'Suite 200',
    city: 'Chicago',
    state: 'IL',
    zip: '60601',
  });
});

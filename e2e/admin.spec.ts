import type { Page } from '@playwright/test';
import { createContact, expect, recordResponses, signIn, test, WRITE } from './fixtures';

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
const rowOf = (page: Page, text: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: text, exact: true }) });

test('the vendor creates, renames and deletes a tag and a custom field, and contacts show each change', async ({ page }) => {
  await signIn(page, 'vendor');
  const run = Date.now().toString(36);
  const [tag, renamedTag] = [`e2e-tag-${run}`, `e2e-renamed-${run}`];
  const [field, renamedField] = [`Region ${run}`, `Territory ${run}`];

  await nav(page, 'Tags').click();
  await expect(nav(page, 'Tags')).toHaveAttribute('aria-current', 'page');
  await page.getByLabel('New tag').fill(tag);
  await page.getByRole('button', { name: 'Create tag' }).click();
  await expect(rowOf(page, tag)).toContainText('0');

  await nav(page, 'Custom fields').click();
  await page.getByRole('button', { name: 'New custom field' }).click();
  const create = page.getByRole('dialog', { name: 'New custom field' });
  await create.getByLabel('Name').fill(field);
  await create.getByLabel('Type').selectOption({ label: 'Text' });
  await create.getByRole('button', { name: 'Create field' }).click();
  await expect(create).toBeHidden();
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.last()).toContainText(field);
  await page.getByRole('button', { name: `Move ${field} up` }).click();
  await expect(rows.nth(-2)).toContainText(field);

  const id = await createContact(page.request, {
    first_name: `Tagged${run}`,
    last_name: 'Fielder',
    tags: [tag],
    custom_fields: [{ name: field, type: 1, value: 'North' }],
  });

  await page.getByRole('button', { name: `Rename ${field}` }).click();
  const renameField = page.getByRole('dialog', { name: `Rename the custom field ${field}` });
  await expect(renameField).toContainText('1 contact');
  await renameField.getByLabel('Name').fill(renamedField);
  await renameField.getByRole('button', { name: 'Rename field' }).click();
  await expect(rowOf(page, renamedField)).toContainText('1');

  await nav(page, 'Tags').click();
  await page.getByRole('button', { name: `Rename ${tag}` }).click();
  const renameTag = page.getByRole('dialog', { name: `Rename the tag ${tag}` });
  await renameTag.getByLabel('Title').fill(renamedTag);
  await renameTag.getByRole('button', { name: 'Rename tag' }).click();
  await expect(rowOf(page, renamedTag)).toContainText('1');

  await page.goto(`/contacts/${id}`);
  await expect(page.getByRole('list', { name: 'Tags on this contact' })).toHaveText(renamedTag);
  await expect(page.getByLabel(renamedField, { exact: true })).toHaveValue('North');

  await nav(page, 'Tags').click();
  await page.getByRole('button', { name: `Delete ${renamedTag}` }).click();
  const deleteTag = page.getByRole('alertdialog', { name: `Delete the tag ${renamedTag}?` });
  await expect(deleteTag).toContainText('Remove the tag from 1 contact and delete it?');
  await deleteTag.getByRole('button', { name: 'Delete tag' }).click();
  await expect(rowOf(page, renamedTag)).toHaveCount(0);

  await nav(page, 'Custom fields').click();
  await page.getByRole('button', { name: `Delete ${renamedField}` }).click();
  const deleteField = page.getByRole('alertdialog', { name: `Delete the custom field ${renamedField}?` });
  await expect(deleteField).toContainText(`1 contact holds a value for ${renamedField}`);
  await expect(deleteField).toContainText('removes those values for good');
  await deleteField.getByRole('button', { name: 'Delete field' }).click();
  await expect(rowOf(page, renamedField)).toHaveCount(0);

  await page.goto(`/contacts/${id}`);
  await expect(page.getByRole('region', { name: 'Tags' })).toContainText('No tags yet.');
  await expect(page.getByLabel(renamedField, { exact: true })).toHaveCount(0);
});

test('the vendor makes a drop-down field with options, then renames, adds and removes options; a contact follows the rename', async ({
  page,
}) => {
  await signIn(page, 'vendor');
  const run = Date.now().toString(36);
  const field = `Stage ${run}`;

  await nav(page, 'Custom fields').click();
  await page.getByRole('button', { name: 'New custom field' }).click();
  const create = page.getByRole('dialog', { name: 'New custom field' });
  await create.getByLabel('Name').fill(field);
  await create.getByLabel('Type').selectOption({ label: 'Drop-down' });
  const options = create.getByRole('group', { name: 'Options' });
  await options.getByRole('button', { name: 'Add option' }).click();
  await expect(options.getByRole('textbox', { name: 'Option 1', exact: true })).toBeFocused();
  await page.keyboard.type('Lead');
  await options.getByRole('button', { name: 'Add option' }).click();
  await options.getByRole('textbox', { name: 'Option 2', exact: true }).fill('Won');
  await options.getByRole('button', { name: 'Add option' }).click();
  await options.getByRole('textbox', { name: 'Option 3', exact: true }).fill('lead');
  await create.getByRole('button', { name: 'Create field' }).click();
  await expect(create.getByRole('alert')).toContainText('The option “lead” is listed twice.');
  await options.getByRole('button', { name: 'Remove option lead', exact: true }).click();
  await create.getByRole('button', { name: 'Create field' }).click();
  await expect(create).toBeHidden();
  await expect(rowOf(page, field)).toContainText('Options: Lead, Won');

  const id = await createContact(page.request, { first_name: `Staged${run}`, custom_fields: [{ name: field, type: 6, value: 'Lead' }] });

  await page.getByRole('button', { name: `Edit options of ${field}` }).click();
  const edit = page.getByRole('dialog', { name: `Options of ${field}` });
  await edit.getByRole('textbox', { name: 'Option 1', exact: true }).fill('Prospect');
  await edit.getByRole('button', { name: 'Remove option Won', exact: true }).click();
  await edit.getByRole('button', { name: 'Add option' }).click();
  await edit.getByRole('textbox', { name: 'Option 2', exact: true }).fill('Lost');
  await edit.getByRole('button', { name: 'Save options' }).click();
  await expect(edit).toBeHidden();
  await expect(rowOf(page, field)).toContainText('Options: Prospect, Lost');

  await page.getByRole('button', { name: `Edit options of ${field}` }).click();
  await edit.getByRole('button', { name: 'Remove option Prospect', exact: true }).click();
  await edit.getByRole('button', { name: 'Save options' }).click();
  await expect(edit.getByRole('alert')).toContainText('1 contact(s) hold "Prospect"');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  await page.goto(`/contacts/${id}`);
  await expect(page.getByLabel(field, { exact: true })).toHaveValue('Prospect');
});

test('a folder with a sub-folder is made, a contact filed in the sub-folder, and the parent deleted with its contacts moved', async ({
  page,
}) => {
  await signIn(page, 'vendor');
  const run = Date.now().toString(36);
  const [parent, child, target] = [`Parent ${run}`, `Child ${run}`, `Target ${run}`];
  const made = await page.request.post('/rest/1/folders', { headers: WRITE, data: { name: target } });
  expect(made.status()).toBe(200);
  const id = await createContact(page.request, { first_name: `Filed${run}`, last_name: 'Away' });

  await page.goto('/contacts');
  const folders = page.getByRole('navigation', { name: 'Folders' });
  await folders.getByRole('button', { name: 'New folder' }).click();
  const newFolder = page.getByRole('dialog', { name: 'New folder' });
  await newFolder.getByLabel('Name').fill(parent);
  await newFolder.getByLabel('Description').fill('Made by the folder journey');
  await newFolder.getByRole('button', { name: 'Create folder' }).click();
  await expect(folders.getByRole('link', { name: new RegExp(`^${parent}, 0 contacts$`) })).toBeVisible();

  /* The folder's menu by keyboard: Enter opens it on its first item. */
  await folders.getByRole('button', { name: `Actions for folder ${parent}` }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'New sub-folder…' })).toBeFocused();
  await page.keyboard.press('Enter');
  const sub = page.getByRole('dialog', { name: `New sub-folder in ${parent}` });
  await sub.getByLabel('Name').fill(child);
  await sub.getByRole('button', { name: 'Create folder' }).click();
  await expect(folders.getByRole('link', { name: new RegExp(`^${child}, 0 contacts$`) })).toBeVisible();

  await page.goto(`/contacts/${id}`);
  await page.getByRole('button', { name: 'Move to folder' }).click();
  const move = page.getByRole('dialog', { name: 'Move to folder' });
  await move.getByLabel('Folder').selectOption({ label: `${parent} › ${child}` });
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(move).toBeHidden();
  await expect(page.getByRole('region', { name: `Filed${run} Away` })).toContainText(`Folder${child}`);

  await page.goto('/contacts');
  await expect(folders.getByRole('link', { name: new RegExp(`^${child}, 1 contact$`) })).toBeVisible();
  await folders.getByRole('button', { name: `Actions for folder ${parent}` }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  const remove = page.getByRole('alertdialog', { name: `Delete the folder ${parent}?` });
  await expect(remove).toContainText(`${parent} holds 0 contacts. Its 1 sub-folder (${child}) is deleted too, with 1 more contact.`);
  await remove.getByLabel('Move the 1 contact to').selectOption({ label: target });
  await remove.getByRole('button', { name: 'Delete folder' }).click();
  await expect(remove).toBeHidden();
  await expect(folders.getByRole('link', { name: new RegExp(`^${parent}, `) })).toHaveCount(0);
  await expect(folders.getByRole('link', { name: new RegExp(`^${target}, 1 contact$`) })).toBeVisible();

  await page.goto(`/contacts/${id}`);
  await expect(page.getByRole('region', { name: `Filed${run} Away` })).toContainText(`Folder${target}`);
});

test('the vendor adds a member under a manager; the manager sees it in the team, read-only', async ({ page }) => {
  const leakedTokens = recordResponses(page);
  await signIn(page, 'vendor');
  const run = Date.now().toString(36);
  const name = `Noor${run} Haddad`;

  await nav(page, 'Members').click();
  await page.getByRole('button', { name: 'New member' }).click();
  const form = page.getByRole('dialog', { name: 'New member' });
  await form.getByLabel('First name').fill(`Noor${run}`);
  await form.getByLabel('Last name').fill('Haddad');
  await form.getByLabel('E-mail').fill(`noor.${run}@example.com`);
  await form.getByLabel('Username').fill(`noor${run}`);
  await form.getByLabel('Password').fill('short');
  await form.getByLabel('Manager').selectOption({ label: 'Morgan Reyes (Manager)' });
  await form.getByRole('button', { name: 'Create member' }).click();
  await expect(form.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Password').fill('a-long-enough-password');
  await form.getByRole('button', { name: 'Create member' }).click();
  await expect(form).toBeHidden();

  const team = page.getByRole('list', { name: 'Team of Morgan Reyes' });
  await expect(team.getByRole('listitem').filter({ hasText: name })).toContainText('0 contacts');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, 'manager');
  await expect(nav(page, 'Tags')).toHaveCount(0);
  await nav(page, 'Members').click();
  await expect(page.getByRole('list', { name: 'Team of Morgan Reyes' })).toContainText(name);
  await expect(page.getByRole('button', { name: /^Actions for/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New member' })).toHaveCount(0);
  expect(await leakedTokens()).toEqual([]);
});

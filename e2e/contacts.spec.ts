import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const DEMO_PASSWORD = 'ringbook-demo';
const TOKEN_PATTERN = /bearer_token|rb_[A-Za-z0-9_-]{40,}/;

/** Every response body the browser receives, to prove no bearer token ever reaches it. */
function recordResponses(page: Page) {
  const bodies: Promise<string>[] = [];
  page.on('response', (response) => {
    bodies.push(response.text().catch(() => ''));
  });
  return async () => (await Promise.all(bodies)).filter((b) => TOKEN_PATTERN.test(b));
}

async function signIn(page: Page, username: string) {
  await page.goto('/contacts');
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/contacts/);
}

test('a rep signs in, searches, creates, edits and trashes a contact, and signs out', async ({ page }) => {
  const leakedTokens = recordResponses(page);
  const unique = `Zephyr${Date.now().toString(36)}`;

  await signIn(page, 'alex');
  const grid = page.getByRole('table');
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

  await grid.getByRole('button', { name: new RegExp(unique) }).click();
  const edit = page.getByRole('dialog', { name: new RegExp(`Edit ${unique}`) });
  await edit.getByLabel('Last name').fill('Edited');
  await edit.getByRole('button', { name: 'Save contact' }).click();
  await expect(edit).toBeHidden();
  await expect(grid.getByRole('row').nth(1)).toContainText(`${unique} Edited`);
  await grid.getByRole('button', { name: new RegExp(unique) }).click();
  await edit.getByLabel('Last name').fill('Abandoned');
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await discard.getByRole('button', { name: 'Discard changes' }).click();
  await expect(edit).toBeHidden();
  await expect(grid.getByRole('row').nth(1)).toContainText(`${unique} Edited`);

  await grid.getByRole('checkbox', { name: new RegExp(`Select ${unique}`) }).check();
  await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Move to trash' }).click();
  const confirm = page.getByRole('dialog', { name: /to trash\?/ });
  await confirm.getByRole('button', { name: 'Move to trash' }).click();
  await expect(page.getByRole('heading', { name: 'No contacts match' })).toBeVisible();

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
  const status = page.getByText(/Page 1 of \d+/);
  await expect(status).toBeVisible();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText(/Page 2 of \d+/)).toBeVisible();

  const total = async () => Number((await page.getByText(/\d[\d,]* contacts/).first().innerText()).replace(/\D/g, ''));
  const all = await total();
  await page.getByRole('navigation', { name: 'Folders' }).getByRole('link').nth(1).click();
  await expect.poll(total).toBeLessThan(all);
  await expect(page.getByText(/Page 1 of \d+/)).toBeVisible();

  // The tag filter offers every tag, past the API's page of 100.
  const titles = Array.from({ length: 120 }, (_, i) => `zz-e2e-${String(i).padStart(3, '0')}`);
  const created = await page.request.post('/rest/1/contacts', {
    headers: { 'X-Ringbook-Request': '1' }, data: { first_name: 'Tagged', last_name: 'Many', tags: titles },
  });
  expect(created.status()).toBe(201);
  await page.goto('/contacts');
  const tagFilter = page.getByRole('combobox', { name: 'Filter by tag' });
  await tagFilter.selectOption({ label: 'zz-e2e-119' });
  await expect(page.getByText('1 contact', { exact: true })).toBeVisible();
  await expect(page.getByRole('table').getByRole('row').nth(1)).toContainText('Tagged Many');

  expect(await leakedTokens()).toEqual([]);
});

import { createContact, createMember, expect, signIn, test } from './fixtures';

/*
 * A developer (a member the vendor adds) opens the API reference from the account menu, follows its hint to Settings
 * to make a personal access token (shown once), comes back, finds the contacts list, pastes the token and tries the
 * request: the page sends it with the token, not the session, and shows the status and the body.
 */
test('the API reference lists the operations and tries one with a token made in Settings', async ({ page }) => {
  const stamp = Date.now();
  const username = `dev${stamp}`;
  await signIn(page, 'vendor');
  await createMember(page.request, { username, first_name: 'Devon', last_name: 'Oper' });
  await page.context().clearCookies();
  await signIn(page, username);
  await createContact(page.request, { first_name: 'Ottoline', last_name: `Reference${stamp}` });

  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/developers$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();

  await page.getByRole('link', { name: 'Settings, Personal access tokens' }).click();
  await expect(page).toHaveURL(/\/settings#tokens$/);
  const tokens = page.getByRole('region', { name: 'Personal access tokens' });
  await expect(tokens).toBeInViewport();
  await tokens.getByLabel('Token name').fill('API reference');
  await tokens.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByRole('dialog', { name: 'Token API reference' });
  const token = (await shown.getByLabel('Personal access token').textContent())!;
  expect(token).toMatch(/^rbp_/);
  await shown.getByRole('button', { name: 'Done' }).click();
  await page.goBack();
  await expect(page).toHaveURL(/\/developers$/);

  const contacts = page.getByRole('region', { name: 'Contacts', exact: true });
  const list = contacts.getByRole('button', { name: /^GET \/rest\/1\/contacts List contacts/ });
  await list.click();
  await expect(list).toHaveAttribute('aria-expanded', 'true');
  await expect(contacts.getByText('search', { exact: true }).first()).toBeVisible();

  const form = page.getByRole('form', { name: 'Try GET /rest/1/contacts' });
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(form.getByRole('alert')).toHaveText('Paste a personal access token above first.');

  await page.getByLabel('Personal access token').fill(token);
  await form.getByLabel('search (query)').fill(`Reference${stamp}`);
  await form.getByRole('button', { name: 'Send request' }).click();
  const response = form.getByRole('region', { name: 'Response' });
  await expect(response).toContainText('Status 200');
  await expect(response.getByLabel('Response body')).toContainText('"first_name": "Ottoline"');
  await expect(response.getByLabel('Response body')).toContainText('"total_results": 1');

  /* The token is kept nowhere: not in the page's storage, and gone after a reload. */
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(stored).not.toContain(token);
  await page.reload();
  await expect(page.getByLabel('Personal access token')).toHaveValue('');
});

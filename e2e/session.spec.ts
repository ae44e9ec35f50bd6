import { createContact, DEMO_PASSWORD, expect, signIn, test, WRITE } from './fixtures';

test('a wrong password focuses the message; signing in focuses the page heading', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Username').fill('casey');
  await page.getByLabel('Password').fill('not the password');
  await page.getByLabel('Password').press('Enter');
  const message = page.getByRole('alert').getByText(/wrong username or password/i);
  await expect(message).toBeFocused();

  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await expect(page).toHaveURL(/\/contacts/);
  await expect(page.getByRole('heading', { level: 1, name: 'All contacts' })).toBeFocused();
});

test('the session ends while a note is typed: the user signs in again in place and the save goes through', async ({ page }) => {
  const unique = `Lapse${Date.now().toString(36)}`;
  await signIn(page, 'alex');
  const id = await createContact(page.request, { first_name: unique, last_name: 'Session' });

  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(unique);
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row')).toHaveCount(2);
  await grid.getByRole('button', { name: `Edit ${unique} Session` }).click();
  const form = page.getByRole('dialog', { name: `Edit ${unique} Session` });
  const note = `Called back after the lapse ${unique}`;
  await form.getByLabel('Add a note').fill(note);

  // The session ends on the server (as an idle time-out would end it), behind the page's back.
  expect((await page.request.post('/auth/logout', { headers: WRITE })).status()).toBe(204);

  await form.getByRole('button', { name: 'Save contact' }).click();
  const again = page.getByRole('dialog', { name: 'Your session ended' });
  await expect(again).toBeVisible();
  await expect(again.getByLabel('Username')).toHaveValue('alex');
  await expect(page).toHaveURL(/\/contacts/);
  await again.getByLabel('Password').fill(DEMO_PASSWORD);
  await again.getByRole('button', { name: 'Sign in' }).click();

  await expect(again).toBeHidden();
  await expect(form).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Contact saved' })).toBeVisible();
  const record = (await (await page.request.get(`/rest/1/contacts/${id}`)).json()).contacts.contacts[0];
  expect(record.notes.notes).toContain(note);

  // No message outlives its session: signing out leaves no "Contact saved" on the sign-in page.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByText('Contact saved')).toHaveCount(0);
});

test('giving up on signing in again goes to the sign-in page, and back to where the user was', async ({ page }) => {
  await signIn(page, 'blake');
  // The search's page must have arrived before the session is ended, so that it is the next page that finds it ended.
  const searched = page.waitForResponse((r) => r.url().includes('search=example') && r.ok());
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill('example');
  await expect(page).toHaveURL(/search=example/);
  await searched;
  await expect(page.getByRole('button', { name: 'Next page' })).toBeEnabled();
  await page.context().clearCookies();

  await page.getByRole('button', { name: 'Next page' }).click();
  const again = page.getByRole('dialog', { name: 'Your session ended' });
  await again.getByRole('button', { name: 'Go to the sign-in page instead' }).click();
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await expect(page.getByRole('alert')).toContainText('Your session ended');
  await page.getByLabel('Username').fill('blake');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/contacts\?.*search=example/);
});

test('a sign-out the server never confirms is reported as failed, and retried', async ({ page }) => {
  await signIn(page, 'casey');
  await page.route('**/auth/logout', (route) => route.abort('connectionrefused'));

  await page.getByRole('button', { name: 'Sign out' }).click();
  const failure = page.getByRole('alertdialog', { name: 'Sign-out failed' });
  await expect(failure).toContainText('You are still signed in');
  await expect(page.getByText(/signed out on this device/i)).toHaveCount(0);
  await expect(page).toHaveURL(/\/contacts/);
  expect((await page.request.get('/auth/session')).status()).toBe(200);

  await page.unroute('**/auth/logout');
  await failure.getByRole('button', { name: 'Retry sign-out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  expect((await page.request.get('/auth/session')).status()).toBe(401);
});

import { createMember, expect, signIn, test } from './fixtures';

/*
 * Taking access away and changing it (issue 19, finding 1): the vendor sets a member's password and replaces its API
 * token from the members screen; the member changes its own password from the account menu, which signs its other
 * sessions out.
 */
test('the vendor sets a password and replaces a token; the member changes its own password, and its other session ends', async ({
  page,
  browser,
}) => {
  // Five passwords are hashed (scrypt at OWASP's cost) and four sign-ins checked: more than the default minute on a busy machine.
  test.setTimeout(120_000);
  await signIn(page, 'vendor');
  const run = Date.now().toString(36);
  const username = `access${run}`;
  await createMember(page.request, { username, first_name: 'Ada', last_name: `Access${run}`, password: 'first password 1' });

  await page.goto('/admin/members');
  const actions = page.getByRole('button', { name: `Actions for Ada Access${run}` });
  await actions.click();
  await page.getByRole('menuitem', { name: 'Set a new password…' }).click();
  const set = page.getByRole('dialog', { name: `Set a new password for Ada Access${run}` });
  await set.getByRole('textbox', { name: 'New password', exact: true }).fill('second password 2');
  await set.getByRole('textbox', { name: 'New password again' }).fill('second password 2');
  await set.getByRole('button', { name: 'Set password' }).click();
  await expect(set).toBeHidden();
  await expect(page.getByRole('status')).toContainText(`New password set for Ada Access${run}`);

  await actions.click();
  await page.getByRole('menuitem', { name: 'Replace API token…' }).click();
  await page
    .getByRole('alertdialog', { name: `Replace the API token of Ada Access${run}?` })
    .getByRole('button', { name: 'Replace token' })
    .click();
  await expect(page.getByRole('status')).toContainText('the old one no longer works');

  // The member, in two browsers of its own.
  const [first, second] = [await browser.newContext(), await browser.newContext()];
  const [here, elsewhere] = [await first.newPage(), await second.newPage()];
  for (const p of [here, elsewhere]) {
    await p.goto('/sign-in');
    await p.getByLabel('Username').fill(username);
    await p.getByLabel('Password').fill('second password 2');
    await p.getByRole('button', { name: 'Sign in' }).click();
    await expect(p).toHaveURL(/\/contacts/);
  }
  await here.getByRole('button', { name: 'Account' }).click();
  await here.getByRole('menuitem', { name: 'Change password…' }).click();
  const change = here.getByRole('dialog', { name: 'Change your password' });
  await change.getByRole('textbox', { name: 'Current password' }).fill('not the password');
  await change.getByRole('textbox', { name: 'New password', exact: true }).fill('third password 3');
  await change.getByRole('textbox', { name: 'New password again' }).fill('third password 3');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(change).toContainText('Current password is not the password you sign in with.');
  await change.getByRole('textbox', { name: 'Current password' }).fill('second password 2');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(change).toBeHidden();
  await expect(here.getByRole('status')).toContainText('Password changed; your other sessions were signed out');

  // This session goes on; the other one has ended and asks to sign in again.
  await here.reload();
  await expect(here.getByRole('heading', { level: 1, name: 'All contacts', exact: true })).toBeVisible();
  await elsewhere.reload();
  await expect(elsewhere).toHaveURL(/\/sign-in/);
  await Promise.all([first.close(), second.close()]);
});

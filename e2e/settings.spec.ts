import { type Browser, type Page } from '@playwright/test';
import { createMember, DEMO_PASSWORD, expect, signIn, test, WRITE } from './fixtures';

/*
 * The settings screen (issue 15, "Settings"): a member changes its dial settings and sees them kept, by the screen and
 * by the API; a calling window that ends before it starts is refused in the form; the vendor turns recording off and
 * rotates the callback secret; a rep sees recording read-only. Members are made by the vendor through the API.
 */
const SETTINGS = '/rest/1/dialsession/settings';
const settingsOf = async (page: Page) => (await (await page.request.get(SETTINGS)).json()).settings.settings;

async function signInAs(browser: Browser, username: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/contacts/);
  return page;
}

test('a rep keeps its dial settings, is refused a backwards calling window, and sees recording read-only; the vendor turns recording off and rotates the secret', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'vendor');
  const run = Date.now().toString(36);
  const username = `settings${run}`;
  await createMember(page.request, { username, first_name: 'Sam', last_name: `Settings${run}` });

  // The vendor: recording off, for the whole organisation.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  const record = page.getByRole('checkbox', { name: 'Record calls' });
  await expect(record).toBeChecked();
  await record.uncheck();
  await expect(page.getByRole('textbox', { name: 'Keep recordings and transcripts (days)' })).toHaveValue('365');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status')).toContainText('Settings saved');
  expect((await settingsOf(page)).record_calls).toBe('0');

  // The secret: masked, revealed on demand, rotated after a confirmation; the API answers the new one.
  const before = (await settingsOf(page)).callback_secret as string;
  const secret = page.getByLabel('Callback secret');
  await expect(secret).not.toContainText(before);
  await page.getByRole('button', { name: 'Reveal secret' }).click();
  await expect(secret).toHaveText(before);
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Rotate the callback secret?' });
  await confirm.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('status')).toContainText('Callback secret rotated');
  const after = (await settingsOf(page)).callback_secret as string;
  expect(after).toMatch(/^whsec_/);
  expect(after).not.toBe(before);
  await expect(secret).toHaveText(after);

  // The rep, at 390 px: its own settings, and recording as the vendor left it, read-only.
  const rep = await signInAs(browser, username);
  await rep.goto('/settings');
  await expect(rep.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  const recording = rep.getByRole('region', { name: 'Recording' });
  await expect(recording).toContainText('Calls are not recorded.');
  await expect(recording).toContainText("Only your organisation's vendor account can change this.");
  await expect(rep.getByRole('checkbox', { name: 'Record calls' })).toHaveCount(0);
  await expect(rep.getByRole('button', { name: 'Rotate secret' })).toHaveCount(0);

  const library = (await (await rep.request.get('/rest/1/content')).json()).content.emails as {
    message_id: string;
    display_name: string;
    system_message: number;
  }[];
  const message = library[0]!;
  await rep.getByRole('textbox', { name: 'Ring time (seconds)' }).fill('45');
  await rep.getByLabel('Calling hours from').fill('09:30');
  await rep.getByLabel('Calling hours until').fill('17:00');
  await rep.getByRole('combobox', { name: 'Interested', exact: true }).selectOption(message.message_id);
  await rep.getByRole('button', { name: 'Save settings' }).click();
  await expect(rep.getByRole('status')).toContainText('Settings saved');
  expect(await rep.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await rep.reload();
  await expect(rep.getByRole('textbox', { name: 'Ring time (seconds)' })).toHaveValue('45');
  await expect(rep.getByLabel('Calling hours from')).toHaveValue('09:30');
  await expect(rep.getByLabel('Calling hours until')).toHaveValue('17:00');
  await expect(rep.getByRole('combobox', { name: 'Interested', exact: true })).toHaveValue(message.message_id);
  await expect(rep.getByRole('combobox', { name: 'Busy' })).toHaveValue('');
  expect(await settingsOf(rep)).toMatchObject({
    dialsecs: '45',
    calltime_min: '0930',
    calltime_max: '1700',
    interested: message.message_id,
    busy: null,
    record_calls: '0',
  });

  // The rep's own message: a merge field the server would not know is refused in the form; the message is made, listed
  // beside the read-only system ones, and chosen for a disposition.
  const messages = rep.getByRole('region', { name: 'Messages' });
  await expect(messages.getByText('System').first()).toBeVisible();
  await messages.getByRole('button', { name: 'New message' }).click();
  const dialog = rep.getByRole('dialog', { name: 'New message' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(`Missed you ${run}`);
  await dialog.getByRole('textbox', { name: 'Subject' }).fill('Sorry I missed you, {firstname}');
  await dialog.getByRole('textbox', { name: 'Message' }).fill('Hi {first_name},\nI tried to reach you today. {member_first_name}');
  await dialog.getByRole('button', { name: 'Create message' }).click();
  const subject = dialog.getByRole('textbox', { name: 'Subject' });
  await expect(subject).toHaveAccessibleDescription(/Subject names merge fields we do not know: \{firstname\}/);
  await subject.fill('Sorry I missed you, {first_name}');
  await dialog.getByRole('button', { name: 'Create message' }).click();
  await expect(dialog).toBeHidden();
  await expect(rep.getByRole('status')).toContainText(`Message “Missed you ${run}” created`);
  await expect(messages.getByRole('button', { name: `Edit Missed you ${run}` })).toBeVisible();
  const made = ((await (await rep.request.get('/rest/1/content?list=user')).json()).content.emails as typeof library).find(
    (m) => m.display_name === `Missed you ${run}`,
  )!;
  await rep.getByRole('combobox', { name: 'No answer' }).selectOption({ label: `Missed you ${run}` });
  await rep.getByRole('button', { name: 'Save settings' }).click();
  await expect(rep.getByRole('status')).toContainText('Settings saved');
  expect(await settingsOf(rep)).toMatchObject({ noanswer: made.message_id, interested: message.message_id });

  // A window that ends before it starts is refused in the form, under the field to change; nothing is sent.
  const puts: string[] = [];
  rep.on('request', (r) => {
    if (r.method() === 'PUT') puts.push(r.url());
  });
  await rep.getByLabel('Calling hours from').fill('18:00');
  await rep.getByLabel('Calling hours until').fill('09:00');
  await rep.getByRole('button', { name: 'Save settings' }).click();
  const until = rep.getByLabel('Calling hours until');
  await expect(until).toHaveAttribute('aria-invalid', 'true');
  await expect(until).toHaveAccessibleDescription(/Calling hours until must not be earlier than the start \(18:00\)\./);
  await expect(until).toBeFocused();
  expect(puts).toEqual([]);
  expect(await settingsOf(rep)).toMatchObject({ calltime_min: '0930', calltime_max: '1700' });
  await rep.context().close();

  // Recording back on, as the demo had it.
  expect((await page.request.put(SETTINGS, { headers: WRITE, data: { record_calls: 1 } })).status()).toBe(200);
});

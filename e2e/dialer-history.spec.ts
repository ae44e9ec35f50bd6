import type { APIRequestContext, Page } from '@playwright/test';
import { createContact, createMember, DEMO_PASSWORD, expect, signIn, test, WRITE } from './fixtures';

/*
 * Issue 15, the dialer's reach: one running session per rep (starting another asks to resume or end it), the way
 * back to it from any screen, drafts kept through a reload, the call controls first at 390 px, and calls started
 * from the contact page and from phone numbers, then listed on the contact page. Each journey signs in as a member
 * of its own, made by the vendor, so no other journey's session is in its way.
 */

/** A new member of the vendor's organisation (the demo password), signed in on `page`. */
async function signInAsNewMember(page: Page, request: APIRequestContext, name: string): Promise<string> {
  expect((await request.post('/auth/login', { headers: WRITE, data: { username: 'vendor', password: DEMO_PASSWORD } })).status()).toBe(200);
  const username = `${name.toLowerCase()}${Date.now().toString(36)}`;
  await createMember(request, { username, first_name: name, last_name: 'Dialer' });
  await signIn(page, username);
  return String((await (await page.request.get('/auth/session')).json()).member.user_id);
}

type Session = { dialsession_id: string; status: string };

async function sessionsOf(page: Page, memberId: string): Promise<Session[]> {
  const reply = await page.request.get('/rest/1/dialsession', { params: { member_id: memberId, page_size: 100 } });
  expect(reply.status()).toBe(200);
  return (await reply.json()).dialsessions.dialsessions;
}

const sessionIdOf = (page: Page) => /\/dialer\/(\d+)/.exec(page.url())?.[1] ?? '';
const status = (page: Page) => page.getByRole('status', { name: 'Call status' });

async function endSession(page: Page, id: string) {
  expect((await page.request.post(`/rest/1/dialsession/${id}/end`, { headers: WRITE, data: {} })).status()).toBe(200);
}

test('a second session asks first: cancel changes nothing, resume goes back, or end it and start the new one; the banner leads back', async ({
  page,
  request,
}) => {
  const memberId = await signInAsNewMember(page, request, 'Rita');
  const ann = await createContact(page.request, { first_name: 'Ann', last_name: 'Running', phone: '312-472-0310' });
  const ben = await createContact(page.request, { first_name: 'Ben', last_name: 'Running', phone: '312-472-0320' });

  await page.goto(`/contacts/${ann}`);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page).toHaveURL(/\/dialer\/\d+$/);
  const first = sessionIdOf(page);
  await expect(status(page)).toContainText('Ready to call');
  await expect(page.getByRole('heading', { name: 'Ann Running' })).toBeVisible();
  // The dialer itself shows no banner.
  await expect(page.getByRole('complementary', { name: 'Running dial session' })).toHaveCount(0);

  // From any other screen, the banner leads back.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
  const banner = page.getByRole('complementary', { name: 'Running dial session' });
  await expect(banner).toContainText(`Dial session ${first} running`);
  await banner.getByRole('link', { name: 'Return to dialer' }).click();
  await expect(page).toHaveURL(new RegExp(`/dialer/${first}$`));
  await expect(page.getByRole('heading', { name: 'Ann Running' })).toBeVisible();

  // Starting another asks first; Escape leaves everything as it was.
  await page.goto(`/contacts/${ben}`);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const ask = page.getByRole('dialog', { name: 'A dial session is running' });
  await expect(ask).toContainText(`You are running dial session ${first}`);
  await page.keyboard.press('Escape');
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/contacts/${ben}$`));
  expect(await sessionsOf(page, memberId)).toEqual([expect.objectContaining({ dialsession_id: first, status: 'active' })]);

  // Resume goes back to the running one, and makes nothing new.
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await ask.getByRole('button', { name: `Resume session ${first}` }).click();
  await expect(page).toHaveURL(new RegExp(`/dialer/${first}$`));
  await expect(page.getByRole('heading', { name: 'Ann Running' })).toBeVisible();
  expect(await sessionsOf(page, memberId)).toHaveLength(1);

  // The grid's launcher asks the same before it makes anything; Cancel leaves things as they were.
  await page.goto('/contacts');
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill('Running');
  // The member's two contacts are the whole list before the search lands too: wait for the search itself, or the
  // selection made now is cleared when it lands (a new filter starts a new selection).
  await expect(page).toHaveURL(/search=Running/);
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row')).toHaveCount(3);
  await grid.getByRole('checkbox', { name: /Select Ben Running/ }).check();
  await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Dial' }).click();
  const launcher = page.getByRole('dialog', { name: 'Start a dial session' });
  await launcher.getByRole('radio', { name: 'Preview' }).check();
  await launcher.getByRole('button', { name: 'Start dialing' }).click();
  await expect(ask).toContainText(`You are running dial session ${first}`);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(launcher).toBeHidden();
  await expect(page).toHaveURL(/\/contacts/);
  expect(await sessionsOf(page, memberId)).toHaveLength(1);

  // End it and start this one: the first ends, the second runs.
  await page.goto(`/contacts/${ben}`);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await ask.getByRole('button', { name: 'End it and start this one' }).click();
  await expect(page).toHaveURL(/\/dialer\/\d+$/);
  const second = sessionIdOf(page);
  expect(second).not.toBe(first);
  await expect(page.getByRole('heading', { name: 'Ben Running' })).toBeVisible();
  await expect(status(page)).toContainText('Ready to call');
  const sessions = await sessionsOf(page, memberId);
  expect(Object.fromEntries(sessions.map((s) => [s.dialsession_id, s.status]))).toEqual({ [first]: 'ended', [second]: 'active' });

  // The dialer of another session (here the ended one) still shows the way back to the running one.
  await page.goto(`/dialer/${first}`);
  await expect(status(page)).toContainText('Session complete');
  await expect(banner).toContainText(`Dial session ${second} running`);

  // A session made elsewhere (the API's redirect) cannot start while this one runs: the dialer asks the same.
  // (With a key of its own: the same body within 60 s would otherwise answer the first session, made with it.)
  const made = await page.request.post('/rest/1/dialsession', {
    headers: { ...WRITE, 'Idempotency-Key': `third-${Date.now()}` },
    data: { contacts: [{ contact_user_id: ann }], preview_mode: 1 },
  });
  expect(made.status()).toBe(201);
  const third = String((await made.json()).dialsessions.dialsession_id);
  await page.goto(`/dialer/${third}`);
  await expect(ask).toContainText(`You are running dial session ${second}`);
  await ask.getByRole('button', { name: 'End it and start this one' }).click();
  await expect(ask).toBeHidden();
  await expect(status(page)).toContainText('Ready to call');
  await expect(page.getByRole('heading', { name: 'Ann Running' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  const now = Object.fromEntries((await sessionsOf(page, memberId)).map((s) => [s.dialsession_id, s.status]));
  expect(now).toEqual({ [first]: 'ended', [second]: 'ended', [third]: 'active' });

  // Once it ends, no banner.
  await endSession(page, third);
  await page.goto('/contacts');
  await expect(page.getByRole('heading', { level: 1, name: 'All contacts' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Running dial session' })).toHaveCount(0);
});

test('at 390 px the call controls come first; a reload keeps the unsent note and the unsaved edit', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsNewMember(page, request, 'Dora');
  const id = await createContact(page.request, { first_name: 'Cleo', last_name: 'Draft', phone: '312-472-0330' });

  await page.goto(`/contacts/${id}`);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(status(page)).toContainText('Ready to call');
  const sessionId = sessionIdOf(page);
  const call = page.getByRole('button', { name: 'Call', exact: true });
  await expect(call).toBeEnabled();
  // Measured on the page (not the viewport): the Call button lies within the first screen, above the contact's details.
  const callBottom = await call.evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY);
  expect(callBottom).toBeLessThanOrEqual(844);
  const hangUpBottom = await page
    .getByRole('button', { name: 'Hang up' })
    .evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY);
  expect(hangUpBottom).toBeLessThanOrEqual(844);
  const detailsTop = await page
    .getByRole('heading', { level: 2, name: 'Cleo Draft' })
    .evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
  expect(callBottom).toBeLessThan(detailsTop);
  // Nothing is wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  const note = page.getByRole('textbox', { name: 'Note', exact: true });
  const editor = page.getByRole('form', { name: 'Edit contact' });
  await note.fill('Asked for the price list.');
  await editor.getByRole('textbox', { name: 'First name' }).fill('Cleopatra');
  await expect(page.getByText('Draft restored')).toHaveCount(0);

  await page.reload();
  await expect(status(page)).toContainText('Ready to call');
  await expect(note).toHaveValue('Asked for the price list.');
  await expect(editor.getByRole('textbox', { name: 'First name' })).toHaveValue('Cleopatra');
  await expect(page.getByRole('form', { name: 'Add a note' })).toContainText('Draft restored');
  await expect(editor).toContainText('Draft restored');
  // Nothing was sent meanwhile.
  const before = (await (await page.request.get(`/rest/1/contacts/${id}`)).json()).contacts.contacts[0];
  expect(before.first_name).toBe('Cleo');

  // Sent and saved: the drafts are gone, and a reload brings back nothing.
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByRole('list', { name: 'Notes history' })).toContainText('Asked for the price list.');
  await expect(note).toHaveValue('');
  await editor.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Cleopatra Draft' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Cleopatra Draft' })).toBeVisible();
  await expect(note).toHaveValue('');
  await expect(page.getByText('Draft restored')).toHaveCount(0);
  expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('ringbook.dialer-draft.')))).toEqual([]);
  await endSession(page, sessionId);
});

test('the contact page calls through Ringbook and lists the call; a phone number in the grid calls that number', async ({
  page,
  request,
}) => {
  await signInAsNewMember(page, request, 'Pia');
  const run = Date.now().toString(36);
  const id = await createContact(page.request, {
    first_name: 'Dev',
    last_name: `Caller${run}`,
    phone: '312-472-0340',
    additional_phone: [{ number: '312-472-0341', phone_type: 2, phone_label: 'Office' }],
  });

  await page.goto(`/contacts/${id}`);
  const calls = page.getByRole('region', { name: 'Calls' });
  await expect(calls).toContainText('No calls yet.');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page).toHaveURL(/\/dialer\/\d+$/);
  const first = sessionIdOf(page);
  await expect(status(page)).toContainText('Ready to call');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(status(page)).toContainText('Connected');
  await page.getByRole('button', { name: 'Hang up' }).click();
  await expect(status(page)).toContainText('Call ended');
  await page.getByRole('button', { name: 'Interested', exact: true }).click();
  await expect(status(page)).toContainText('Session complete');

  const logged = (await (await page.request.get('/rest/1/calls', { params: { contact_id: id } })).json()).calls.calls;
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatchObject({ session_id: first, phone: '3124720340', disposition: 'Interested', connected: '1' });
  await page.getByRole('link', { name: `Back to Dev Caller${run}` }).click();
  await expect(page).toHaveURL(new RegExp(`/contacts/${id}$`));
  const list = calls.getByRole('list', { name: 'Calls of this contact' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('Interested');
  await expect(list).toContainText('Pia Dialer');
  await expect(list.getByRole('link')).toHaveAttribute('href', `/calls/${logged[0].call_id}`);

  // A number on the contact page, not the primary one: a session on that number, called at once.
  await page.getByRole('list', { name: 'Phone numbers' }).getByRole('button', { name: 'Call (312) 472-0341' }).click();
  await expect(page).toHaveURL(/\/dialer\/\d+$/);
  await expect(status(page)).toContainText('Connected');
  const second = sessionIdOf(page);
  await page.getByRole('button', { name: 'Hang up' }).click();
  await page.getByRole('button', { name: 'Call Back', exact: true }).click();
  await expect(status(page)).toContainText('Session complete');
  // A reload does not call again.
  await page.reload();
  await expect(status(page)).toContainText('Session complete');

  // The grid's phone number: the primary one, called through a session of its own.
  await page.goto('/contacts');
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(`Caller${run}`);
  await expect(page).toHaveURL(new RegExp(`search=Caller${run}`));
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row')).toHaveCount(2);
  await grid.getByRole('button', { name: 'Call (312) 472-0340' }).click();
  await expect(page).toHaveURL(/\/dialer\/\d+$/);
  await expect(status(page)).toContainText('Connected');
  const third = sessionIdOf(page);
  await page.getByRole('button', { name: 'Hang up' }).click();
  await page.getByRole('button', { name: 'Not Interested', exact: true }).click();
  await expect(status(page)).toContainText('Session complete');

  const all = (await (await page.request.get('/rest/1/calls', { params: { contact_id: id } })).json()).calls.calls as {
    session_id: string;
    phone: string;
  }[];
  expect(all.map((c) => [c.session_id, c.phone]).sort()).toEqual(
    [
      [first, '3124720340'],
      [second, '3124720341'],
      [third, '3124720340'],
    ].sort(),
  );
  await page.goto(`/contacts/${id}`);
  await expect(calls.getByRole('list', { name: 'Calls of this contact' }).getByRole('listitem')).toHaveCount(3);
});

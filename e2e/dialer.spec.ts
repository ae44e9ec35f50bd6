import type { APIRequestContext, Page } from '@playwright/test';
import { verifySignature } from '../server/callbacks/signing';
import { startReceiver, type Received } from '../server/test/receiver';
import { DEMO_PASSWORD, expect, signIn, test, WRITE } from './fixtures';

type NewContact = { first: string; last: string; phone: string; tag: string; dnc?: boolean };
type Created = { id: string; name: string; dateAdded: string };

async function createContact(request: APIRequestContext, c: NewContact): Promise<Created> {
  const response = await request.post('/rest/1/contacts', {
    headers: WRITE,
    data: { first_name: c.first, last_name: c.last, phone: c.phone, tags: [c.tag], do_not_call: c.dnc ? 1 : 0 },
  });
  expect(response.status()).toBe(201);
  const record = (await response.json()).contacts.contacts;
  expect(record.duplicate_action).toBe('created');
  return { id: String(record.contact_user_id), name: `${c.first} ${c.last}`, dateAdded: record.date_added };
}

/** Contacts are dialed newest first (the grid's order), so they are created last to first. */
async function createInDialOrder(request: APIRequestContext, contacts: NewContact[]): Promise<Created[]> {
  const created: Created[] = [];
  for (const c of [...contacts].reverse()) created.unshift(await createContact(request, c));
  return created;
}

async function filterByTag(page: Page, tag: string, rows: number) {
  await page.goto('/contacts');
  await page.getByRole('combobox', { name: 'Filter by tag' }).selectOption({ label: tag });
  await expect(page.getByRole('grid').getByRole('row')).toHaveCount(rows + 1);
}

const queueEntry = (page: Page, name: string) =>
  page
    .getByRole('region', { name: /^Queue/ })
    .getByRole('listitem')
    .filter({ hasText: name });

/**
 * Each dialed contact is displayed, then its call begins, then it is done (a contact's api_calldone waits for the next
 * one's display); the DNC contact is only reported done, as "Skipped - DNC".
 */
function expectCallbacksInOrder(received: Received[], calls: { call_id: string; user_id: string }[], dialed: Created[], skipped: Created) {
  const contactOfCall = new Map(calls.map((c) => [c.call_id, c.user_id]));
  const events = received.map((r) => {
    const body = JSON.parse(r.body);
    const type = r.path.slice(1);
    const contact =
      type === 'api_contact_displayed'
        ? String(body.contact_user_id)
        : type === 'api_callbegin'
          ? contactOfCall.get(body.call_id)
          : String(body.contact.user_id);
    return { type, contact, status: type === 'api_calldone' ? body.status : undefined };
  });
  const ofType = (type: string) => events.filter((e) => e.type === type).map((e) => e.contact);
  expect(ofType('api_contact_displayed')).toEqual(dialed.map((c) => c.id));
  expect(ofType('api_callbegin')).toEqual(dialed.map((c) => c.id));
  expect(ofType('api_calldone')).toEqual([skipped, ...dialed].map((c) => c.id));
  for (const c of dialed) {
    const at = (type: string) => events.findIndex((e) => e.type === type && e.contact === c.id);
    expect(at('api_contact_displayed')).toBeLessThan(at('api_callbegin'));
    expect(at('api_callbegin')).toBeLessThan(at('api_calldone'));
  }
  expect(events.find((e) => e.contact === skipped.id)).toMatchObject({ type: 'api_calldone', status: 'Skipped - DNC' });
  expect(events.filter((e) => e.type === 'api_calldone' && e.contact !== skipped.id).map((e) => e.status)).toEqual([
    'Interested',
    'Voicemail',
    'No Answer',
    'Busy',
    'Bad Phone',
  ]);
}

test('power mode: answered, machine, no answer, busy, not in service and DNC, with signed callbacks', async ({ page, request }) => {
  const receiver = await startReceiver();
  try {
    await signIn(page, 'alex');
    const run = Date.now().toString(36);
    const tag = `dial-power-${run}`;
    const last = `Power${run}`;
    const people = await createInDialOrder(page.request, [
      { first: 'Pat', last, phone: '312-472-0200', tag },
      { first: 'Dana', last, phone: '312-472-0201', tag, dnc: true },
      { first: 'Max', last, phone: '312-472-0205', tag },
      { first: 'Nell', last, phone: '312-472-0207', tag },
      { first: 'Bea', last, phone: '312-472-0208', tag },
      { first: 'Otto', last, phone: '312-472-0209', tag },
    ]);
    const [pat, dana, max, nell, bea, otto] = people as [Created, Created, Created, Created, Created, Created];

    await filterByTag(page, tag, 6);
    await page.getByRole('button', { name: 'Dial all' }).click();
    const launcher = page.getByRole('dialog', { name: 'Start a dial session' });
    await launcher.getByRole('radio', { name: 'Power' }).check();
    await expect(launcher.getByRole('status')).toContainText('5 will be dialed; 1 skipped: DNC (1).');
    await launcher.getByRole('button', { name: 'Cancel' }).click();

    // The launcher sets no callbacks: this session is made through the API with the same filter, plus callbacks.
    const tagged = (await (await page.request.get(`/rest/1/contacts/${pat.id}`)).json()).contacts.contacts[0];
    const tagId = String(tagged.tags.find((t: { title: string }) => t.title === tag).id);
    const made = await page.request.post('/rest/1/dialsession', {
      headers: WRITE,
      data: {
        contact_filter: { tag_id: tagId },
        preview_mode: 0,
        send_skips: 1,
        callbacks: ['api_contact_displayed', 'api_callbegin', 'api_calldone'].map((type) => ({
          callback_type: type,
          callback: `${receiver.url}/${type}`,
        })),
      },
    });
    expect(made.status()).toBe(201);
    const session = (await made.json()).dialsessions;
    expect(session.redirect_url).toMatch(/\/sso\/dialer\?key=/);
    const landing = await page.goto(session.redirect_url);
    expect(landing?.request().redirectedFrom()?.url()).toContain('/sso/dialer');
    await expect(page).toHaveURL(new RegExp(`/dialer/${session.dialsession_id}$`));

    const status = page.getByRole('status', { name: 'Call status' });
    await expect(status).toContainText('Connected');
    await expect(page.getByRole('heading', { name: pat.name })).toBeVisible();
    await expect(page.getByRole('timer', { name: 'Call timer' })).toContainText('Talk');
    await page.getByRole('textbox', { name: 'Note', exact: true }).fill('Wants a demo on Thursday.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect(page.getByRole('list', { name: 'Notes history' })).toContainText('Wants a demo on Thursday.');
    const interested = page.getByRole('button', { name: 'Interested', exact: true });
    await expect(interested).toHaveAttribute('aria-keyshortcuts', '6');
    await interested.click();

    await expect(status).toContainText('Answering machine');
    await expect(page.getByRole('heading', { name: max.name })).toBeVisible();
    await expect(queueEntry(page, dana.name)).toContainText('Skipped - DNC');
    await expect(page.getByRole('combobox', { name: 'Voicemail' })).toBeVisible();
    await page.getByRole('button', { name: 'Drop voicemail' }).click();

    await expect(status).toContainText('Session complete', { timeout: 20_000 });
    await expect(status).toContainText('Last: Bad Phone');
    const results: [Created, string][] = [
      [pat, 'Interested'],
      [dana, 'Skipped - DNC'],
      [max, 'Voicemail'],
      [nell, 'No Answer'],
      [bea, 'Busy'],
      [otto, 'Bad Phone'],
    ];
    for (const [who, result] of results) await expect(queueEntry(page, who.name)).toContainText(result);
    await expect(page.getByRole('progressbar', { name: 'Session progress' })).toHaveAttribute('aria-valuetext', '6 of 6');

    // What the API keeps of it.
    const read = await (await page.request.get(`/rest/1/dialsession/${session.dialsession_id}`)).json();
    const calls: { call_id: string; user_id: string; disposition: string; connected: string; voicemail: string; note: string }[] =
      read.dialsessions.dialsessions.calls;
    const dialed = [pat, max, nell, bea, otto];
    expect(calls.map((c) => [c.user_id, c.disposition]).sort()).toEqual(
      [
        [pat.id, 'Interested'],
        [max.id, 'Voicemail'],
        [nell.id, 'No Answer'],
        [bea.id, 'Busy'],
        [otto.id, 'Bad Phone'],
      ].sort(),
    );
    const patCall = calls.find((c) => c.user_id === pat.id)!;
    expect(patCall).toMatchObject({ connected: '1', note: 'Wants a demo on Thursday.' });
    expect(calls.find((c) => c.user_id === max.id)).toMatchObject({ voicemail: '1' });
    const record = (await (await page.request.get(`/rest/1/contacts/${pat.id}`)).json()).contacts.contacts[0];
    expect(record.notes.notes).toContain('Wants a demo on Thursday.');
    expect(record).toMatchObject({ call_result: 'Interested', total_calls: '1' });
    const activities = (await (await page.request.get(`/rest/1/contacts/${pat.id}/activities`, { params: { days: 1 } })).json())
      .contact_activities.contact_activities;
    const texts = activities.map((a: { activity: string }) => a.activity);
    expect(texts).toContain('Note added');
    expect(texts.some((t: string) => /^Called \(312\) 472-0200: Interested/.test(t))).toBe(true);

    // Callbacks: every contact displayed, begun and done in the queue's order, each signed with the vendor's secret.
    const received = await receiver.waitFor(16, 15_000);
    expect((await request.post('/auth/login', { headers: WRITE, data: { username: 'vendor', password: DEMO_PASSWORD } })).status()).toBe(
      200,
    );
    const secret: string = (await (await request.get('/rest/1/dialsession/settings')).json()).settings.settings.callback_secret;
    expect(secret).toMatch(/^whsec_/);
    // Signed with real time although the server's clock runs from CLOCK_START: a receiver checks against its own clock.
    for (const r of received) expect(verifySignature(secret, r.headers, r.body, new Date()), r.path).toBe(true);
    expectCallbacksInOrder(received, calls, dialed, dana);

    // The redirect's key works once.
    await page.goto(session.redirect_url);
    await expect(page).toHaveURL(/\/sign-in\?link=expired/);
    await expect(page.getByRole('alert')).toContainText('expired or was already used');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test('preview mode from the grid: skip, call, hang up, disposition, end', async ({ page }) => {
  await signIn(page, 'casey');
  const run = Date.now().toString(36);
  const tag = `dial-preview-${run}`;
  const last = `Preview${run}`;
  const [sam, pia, lou] = (await createInDialOrder(page.request, [
    { first: 'Sam', last, phone: '312-472-0210', tag },
    { first: 'Pia', last, phone: '312-472-0220', tag },
    { first: 'Lou', last, phone: '312-472-0230', tag },
  ])) as [Created, Created, Created];

  await filterByTag(page, tag, 3);
  const grid = page.getByRole('grid');
  for (const c of [sam, pia, lou]) await grid.getByRole('checkbox', { name: new RegExp(`Select ${c.name}`) }).check();
  await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Dial' }).click();
  const launcher = page.getByRole('dialog', { name: 'Start a dial session' });
  await expect(launcher).toContainText('3 selected contacts');
  await launcher.getByRole('radio', { name: 'Preview' }).check();
  await expect(launcher.getByRole('status')).toContainText('3 will be dialed; none skipped.');
  const sso = page.waitForRequest(/\/sso\/dialer\?key=/);
  await launcher.getByRole('button', { name: 'Start dialing' }).click();
  await sso;
  await expect(page).toHaveURL(/\/dialer\/\d+$/);

  const status = page.getByRole('status', { name: 'Call status' });
  await expect(status).toContainText('Ready to call');
  await expect(page.getByRole('heading', { name: sam.name })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hang up' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Interested', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'Skip' }).click();
  await expect(queueEntry(page, sam.name)).toContainText('Skipped - Manual');
  await expect(status).toContainText('Last: Skipped - Manual');

  // A reload resumes where the session is.
  await page.reload();
  await expect(page.getByRole('heading', { name: pia.name })).toBeVisible();
  await expect(status).toContainText('Ready to call');
  await expect(page.getByRole('radiogroup', { name: 'Number to call' }).getByRole('radio', { name: /\(312\) 472-0220/ })).toBeChecked();
  const call = page.getByRole('button', { name: 'Call', exact: true });
  await expect(call).toHaveAttribute('aria-keyshortcuts', 'C');
  await call.click();
  await expect(status).toContainText('Connected');
  await page.getByRole('button', { name: 'Hang up' }).click();
  await expect(status).toContainText('Call ended');
  // Dispositions have digit shortcuts: 9 is "Call Back". Focus then rests on the call status.
  await expect(page.getByRole('button', { name: 'Call Back' })).toHaveAttribute('aria-keyshortcuts', '9');
  // The shortcut works once the buttons do: a key pressed while they are still disabled does nothing, as a click.
  await expect(page.getByRole('button', { name: 'Call Back' })).toBeEnabled();
  await page.keyboard.press('9');
  await expect(queueEntry(page, pia.name)).toContainText('Call Back');
  await expect(status).toBeFocused();

  await expect(page.getByRole('heading', { name: lou.name })).toBeVisible();
  await expect(status).toContainText('Ready to call');
  // Quick edits go through the contacts API.
  const editor = page.getByRole('form', { name: 'Edit contact' });
  await editor.getByRole('textbox', { name: 'First name' }).fill('Louisa');
  await editor.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: `Louisa ${last}` })).toBeVisible();
  await editor.getByRole('switch', { name: 'Do not call' }).check();
  await expect(page.getByText('Marked do not call', { exact: true }).first()).toBeVisible();
  const edited = (await (await page.request.get(`/rest/1/contacts/${lou.id}`)).json()).contacts.contacts[0];
  expect(edited).toMatchObject({ first_name: 'Louisa', do_not_call: '1' });
  // A change made elsewhere meanwhile is not overwritten: the save is refused, the contact read again, and saved after.
  expect((await page.request.put(`/rest/1/contacts/${lou.id}`, { headers: WRITE, data: { rating: 3 } })).status()).toBe(200);
  await editor.getByRole('textbox', { name: 'First name' }).fill('Lou');
  await editor.getByRole('button', { name: 'Save changes' }).click();
  await expect(editor.getByRole('alert')).toContainText('changed elsewhere meanwhile');
  await expect(page.getByRole('heading', { name: `Louisa ${last}` })).toBeVisible();
  await editor.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: `Lou ${last}` })).toBeVisible();
  const rated = (await (await page.request.get(`/rest/1/contacts/${lou.id}`)).json()).contacts.contacts[0];
  expect(rated).toMatchObject({ first_name: 'Lou', rating: '3' });

  await page.getByRole('button', { name: 'End session' }).click();
  await page.getByRole('alertdialog', { name: 'End this dial session?' }).getByRole('button', { name: 'End session' }).click();
  await expect(status).toContainText('Session complete');
  await expect(page.getByRole('heading', { name: 'Session complete' })).toBeVisible();
  await expect(queueEntry(page, `Lou ${last}`)).toContainText('Not dialed');

  // Reloading shows the same session as it ended: the snapshot is the truth.
  await page.reload();
  await expect(status).toContainText('Session complete');
  await expect(queueEntry(page, pia.name)).toContainText('Call Back');
});

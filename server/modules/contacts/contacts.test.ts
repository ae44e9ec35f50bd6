import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

let server: TestServer;
let team: Team;
let rep: Caller;
let manager: Caller;
let folderA: string;
let folderB: string;

const idOf = (reply: { body: any }) => reply.body.contacts.contacts.contact_user_id as string;
const fetchOne = async (api: Caller, id: string) => (await api.get(`/rest/1/contacts/${id}`)).body.contacts.contacts[0];
const db = () => server.ctx.store.db;
const count = async (table: 'contacts' | 'contact_notes' | 'contact_custom_values') =>
  Number(
    (
      await server.ctx.store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  let api: (member: Member) => Caller;
  ({ server, team, api } = await serverWithTeam());
  [rep, manager] = [api(team.rep), api(team.manager)];
  const vendor = api(team.vendor);
  folderA = (await vendor.post('/rest/1/folders', { name: 'A' })).body.folders['0'].folder_id;
  folderB = (await vendor.post('/rest/1/folders', { name: 'B' })).body.folders['0'].folder_id;
});
afterAll(() => server.close());

describe('POST /rest/1/contacts', () => {
  it('creates a contact with every field of the contract and answers a single object', async () => {
    const reply = await rep.post('/rest/1/contacts', {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@navy.example',
      phone: '(212) 555-0142',
      phone_type: '3',
      phone_label: 'mobile',
      additional_name: [{ first_name: 'Amazing', last_name: 'Grace' }],
      additional_phone: [{ number: '3125550100', phone_type: 2, phone_label: 'office' }],
      address1: '1 Main St',
      address2: 'Apt 2',
      city: 'New York',
      state: 'NY',
      zip: 10001,
      country: 'US',
      ad_code: 'SPRING',
      notes: 'Met at the conference',
      consent_date: '04/05/2024',
      viewed: 1,
      category_id: folderA,
      tags: ['VIP', 'Navy'],
      question: ['Budget?'],
      answer: ['Large'],
      custom_fields: [
        { name: 'Company', type: 1, value: 'US Navy' },
        { name: 'Opted in', type: 2, value: 'yes' },
      ],
      social_accounts: [{ type: 3, account: 'linkedin.com/in/grace' }],
      lead_id: 'L-1',
      order_number: 'O-9',
      rating: '5',
      unknown_field: 'ignored',
    });
    expect(reply.status).toBe(201);
    expect(reply.body.contacts.contacts).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      email_address: 'grace@navy.example',
      duplicate_action: 'created',
    });
    // The older top-level shape some clients read, beside the contract's.
    expect(reply.body.contact).toEqual({ user_id: idOf(reply), ...reply.body.contacts.contacts });
    const c = await fetchOne(rep, idOf(reply));
    expect(c).toMatchObject({
      user_id: idOf(reply),
      owner_id: String(team.rep.id),
      category_id: folderA,
      category: { category_id: folderA, name: 'A' },
      viewed: '1',
      rating: '5',
      consent_date: '2024-04-05',
      lead_id: 'L-1',
      ad_code: 'SPRING',
      trashed: '0',
      primary_email: { email_address: 'grace@navy.example', is_primary: '1' },
      primary_phone: { phone: '(212) 555-0142', raw_phone: '2125550142', type: '3', label: 'mobile' },
      primary_address: { address: '1 Main St', address_2: 'Apt 2', city: 'New York', state: 'NY', zip: '10001', country: 'US' },
      additional_names: [{ first_name: 'Amazing', last_name: 'Grace' }],
      questions: [{ question: 'Budget?', answer: 'Large' }],
      social_accounts: [{ type: '3', account: 'linkedin.com/in/grace' }],
      tags: [{ title: 'Navy' }, { title: 'VIP' }],
      custom_fields: [
        { name: 'Company', type: '1', value: 'US Navy' },
        { name: 'Opted in', type: '2', value: '1' },
      ],
    });
    expect(c.phones).toHaveLength(2);
    expect(c.notes.notes).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} - Rick Test: Met at the conference$/);
    expect(c.last_call_time).toBe('0000-00-00 00:00:00');
  });

  it('accepts form bodies with PHP-style brackets and numeric strings', async () => {
    const reply = await rep.form(
      'POST',
      '/rest/1/contacts/',
      'first_name=Form&email=form%40example.com&category_id=' +
        folderB +
        '&custom_fields[0][name]=Customer+ID&custom_fields[0][type]=1&custom_fields[0][value]=77&tags[0]=Web&tags[1]=Form',
    );
    expect(reply.status).toBe(201);
    expect(await fetchOne(rep, idOf(reply))).toMatchObject({
      category_id: folderB,
      custom_fields: [{ name: 'Customer ID', value: '77' }],
      tags: [{ title: 'Form' }, { title: 'Web' }],
    });
  });

  it.each([
    [{ rating: 0 }, 'rating'],
    [{ rating: 6 }, 'rating'],
    [{ rating: 2.5 }, 'rating'],
    [{ email: 'not-an-address' }, 'email'],
    [{ phone: '12' }, 'phone'],
    [{ phone_type: 9 }, 'phone_type'],
    [{ question: ['a', 'b'], answer: ['x'] }, 'answer'],
    [{ social_accounts: [{ type: 99, account: 'x' }] }, 'social_accounts.0.type'],
    [{ category_id: 999999 }, 'category_id'],
    [{ custom_fields: [{ name: 'Flag', type: 2, value: 'maybe' }] }, 'custom_fields.0.value'],
    [{ custom_fields: [{ name: 'Size', type: 7, value: 'big' }] }, 'custom_fields.0.value'],
    [{ owner_id: 999999 }, 'owner_id'],
    [{ on_duplicate: 'merge' }, 'on_duplicate'],
    [{ duplicate_scrubbing_policy: 5 }, 'duplicate_scrubbing_policy'],
  ])('refuses %j with a 400 naming %s, and stores nothing', async (body, field) => {
    const before = await count('contacts');
    const reply = await rep.post('/rest/1/contacts', { first_name: 'Bad', notes: 'never stored', ...body });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes.map((d: any) => d.field)).toContain(field);
    expect(reply.body.debug_codes[0].reason).toContain(field.split('.')[0]);
    expect(await count('contacts')).toBe(before);
  });

  it.each([[{}], [{ notes: 'who?' }], [{ first_name: '', email: '', phone: '', city: 'Boston' }]])(
    'refuses %j, which identifies nobody, with a 400 that names what is missing, and stores nothing',
    async (body) => {
      const before = await count('contacts');
      const reply = await rep.post('/rest/1/contacts', body);
      expect(reply.status).toBe(400);
      expect(reply.body.debug_codes).toEqual([expect.objectContaining({ code: 40002, field: 'first_name' })]);
      expect(reply.body.debug_codes[0].reason).toMatch(/^first_name is required, or else a last name, an e-mail address or a phone number/);
      expect(await count('contacts')).toBe(before);
      expect((await rep.form('POST', '/rest/1/contacts', 'notes=x')).status).toBe(400);
    },
  );

  it.each([
    [{ custom_fields: 'x' }, 'custom_fields', 'custom_fields must be a list of { name, type, value }.'],
    [{ additional_phone: 5 }, 'additional_phone', 'additional_phone must be a list of { number, phone_type, phone_label }.'],
    [{ social_accounts: true }, 'social_accounts', 'social_accounts must be a list of { type, account }.'],
    [{ custom_fields: ['x'] }, 'custom_fields.0', 'custom_fields.0 must be { name, type, value }.'],
  ])('says what a list field must be when it gets %j', async (body, field, reason) => {
    const reply = await rep.post('/rest/1/contacts', { first_name: 'Typed', ...body });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes).toEqual([{ code: 40003, field, reason }]);
  });

  it('creates a drop-down with the value given as its first option, and matches later values by label or id', async () => {
    const name = `Stage ${process.pid}`;
    const first = await rep.post('/rest/1/contacts', { first_name: 'Drop', custom_fields: [{ name, type: 6, value: 'Lead' }] });
    expect(first.status, first.text).toBe(201);
    expect(await fetchOne(rep, idOf(first))).toMatchObject({ custom_fields: [{ name, value: 'Lead' }] });
    const field = (await rep.get(`/rest/1/contacts/${idOf(first)}/customfields`)).body.customfields.customfields.find(
      (f: any) => f.display_name === name,
    );
    expect(field).toMatchObject({ type_id: '6', value: 'Lead' });
    const option = await db()
      .selectFrom('custom_field_options')
      .selectAll()
      .where('custom_field_id', '=', Number(field.custom_field_id))
      .execute();
    expect(option.map((o) => o.label)).toEqual(['Lead']);
    const byId = await rep.post('/rest/1/contacts', {
      first_name: 'Drop2',
      custom_fields: [{ name, type: 6, value: String(option[0]!.id) }],
    });
    const byLabel = await rep.post('/rest/1/contacts', { first_name: 'Drop3', custom_fields: [{ name, type: 6, value: 'lead' }] });
    expect(await fetchOne(rep, idOf(byId))).toMatchObject({ custom_fields: [{ name, value: 'Lead' }] });
    expect(await fetchOne(rep, idOf(byLabel))).toMatchObject({ custom_fields: [{ name, value: 'Lead' }] });
    expect(
      await db().selectFrom('custom_field_options').select('id').where('custom_field_id', '=', Number(field.custom_field_id)).execute(),
    ).toHaveLength(1);
  });

  it('still takes a lone object, or a lone title, where a list is expected', async () => {
    const reply = await rep.post('/rest/1/contacts', {
      first_name: 'Lone',
      custom_fields: { name: 'Company', value: 'Solo' },
      tags: 'Single',
    });
    expect(reply.status, reply.text).toBe(201);
    expect(await fetchOne(rep, idOf(reply))).toMatchObject({
      custom_fields: [{ name: 'Company', value: 'Solo' }],
      tags: [{ title: 'Single' }],
    });
  });

  it('lists every bad field as its own debug code', async () => {
    const reply = await rep.post('/rest/1/contacts', { email: 'x', rating: 9, phone: '1' });
    expect(reply.body.debug_codes.map((d: any) => d.field).sort()).toEqual(['email', 'phone', 'rating']);
  });

  it('answers 400 to a malformed JSON body', async () => {
    const reply = await rep.raw('/rest/1/contacts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"first_name": ',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0].code).toBe(40001);
  });

  it('ignores a blank, unparseable or future consent_date and never clears one already set', async () => {
    const id = idOf(await rep.post('/rest/1/contacts', { first_name: 'Consent', consent_date: '2024-1-9' }));
    expect((await fetchOne(rep, id)).consent_date).toBe('2024-01-09');
    for (const consent_date of ['', 'soon', '2999-01-01', '02/30/2024']) {
      expect((await rep.put(`/rest/1/contacts/${id}`, { consent_date })).status).toBe(200);
    }
    expect((await fetchOne(rep, id)).consent_date).toBe('2024-01-09');
    await rep.put(`/rest/1/contacts/${id}`, { consent_date: '3/4/25' });
    expect((await fetchOne(rep, id)).consent_date).toBe('2025-03-04');
  });

  it("creates for an owner in the caller's team, never outside it", async () => {
    const id = idOf(await manager.post('/rest/1/contacts', { first_name: 'Owned', owner_id: team.rep.id }));
    expect((await fetchOne(rep, id)).owner_id).toBe(String(team.rep.id));
    const refused = await manager.post('/rest/1/contacts', { first_name: 'Nope', owner_username: team.outsider.username });
    expect(refused.status).toBe(400);
    expect(refused.body.debug_codes[0].field).toBe('owner_username');
  });
});

describe('duplicates', () => {
  it('updates the existing contact by default and answers its id', async () => {
    const first = idOf(await rep.post('/rest/1/contacts', { first_name: 'Dup', last_name: 'One', email: 'dup@example.com' }));
    const again = await rep.post('/rest/1/contacts', { first_name: 'Dupe', email: 'DUP@example.com', notes: 'second' });
    expect(again.status).toBe(201);
    expect(idOf(again)).toBe(first);
    expect(again.body.contacts.contacts.duplicate_action).toBe('updated');
    expect(await fetchOne(rep, first)).toMatchObject({ first_name: 'Dupe', last_name: 'One' });
  });

  it('leaves the existing contact alone with on_duplicate=skip', async () => {
    const first = idOf(await rep.post('/rest/1/contacts', { first_name: 'Skip', phone: '2065550111' }));
    const again = await rep.post('/rest/1/contacts', { first_name: 'Changed', phone: '206-555-0111', on_duplicate: 'skip' });
    expect([idOf(again), again.body.contacts.contacts.duplicate_action]).toEqual([first, 'skipped']);
    expect((await fetchOne(rep, first)).first_name).toBe('Skip');
  });

  it('does not count a contact in the trash as a duplicate', async () => {
    const first = idOf(await rep.post('/rest/1/contacts', { first_name: 'Gone', email: 'gone@example.com' }));
    await rep.delete(`/rest/1/contacts/${first}`);
    const again = await rep.post('/rest/1/contacts', { first_name: 'Back', email: 'gone@example.com' });
    expect([idOf(again) === first, again.body.contacts.contacts.duplicate_action]).toEqual([false, 'created']);
  });

  it('creates a second contact with allow_duplicates=1 or when the matching check is off', async () => {
    const first = idOf(await rep.post('/rest/1/contacts', { first_name: 'Twin', email: 'twin@example.com' }));
    expect(idOf(await rep.post('/rest/1/contacts', { first_name: 'Twin2', email: 'twin@example.com', allow_duplicates: '1' }))).not.toBe(
      first,
    );
    expect(
      idOf(await rep.post('/rest/1/contacts', { first_name: 'Twin3', email: 'twin@example.com', duplicate_checks: { email: false } })),
    ).not.toBe(first);
  });

  it('scrubs against the owner only, its team, or the organisation, by policy', async () => {
    const mine = idOf(await rep.post('/rest/1/contacts', { first_name: 'Team', email: 'team@example.com' }));
    const asManager = (policy: number) =>
      manager.post('/rest/1/contacts', { first_name: 'M', email: 'team@example.com', duplicate_scrubbing_policy: policy });
    expect(idOf(await asManager(0))).not.toBe(mine); // the manager's own contacts hold no match
    expect(idOf(await asManager(1))).toBe(mine); // its team does: the rep's, the oldest match
    const outsider = server.as(server.tokenOf(team.outsider));
    const refused = await outsider.post('/rest/1/contacts', { first_name: 'O', email: 'team@example.com', duplicate_scrubbing_policy: 2 });
    expect(refused.status).toBe(409);
    expect(idOf(await outsider.post('/rest/1/contacts', { first_name: 'O', email: 'team@example.com' }))).not.toBe(mine);
  });
});

describe('GET, PUT and DELETE /rest/1/contacts/{id}', () => {
  it('answers an array of one, and 404 for a contact of another member or organisation', async () => {
    const id = idOf(await rep.post('/rest/1/contacts', { first_name: 'Mine' }));
    const reply = await rep.get(`/rest/1/contacts/${id}`);
    expect(reply.body.contacts).toMatchObject({ page: 1, total_results: 1, contacts: [{ contact_user_id: id }] });
    expect((await manager.get(`/rest/1/contacts/${id}`)).status).toBe(200);
    for (const who of ['teammate', 'outsider', 'otherVendor'] as const) {
      const other = server.as(server.tokenOf(team[who]));
      expect((await other.get(`/rest/1/contacts/${id}`)).status).toBe(404);
      expect((await other.put(`/rest/1/contacts/${id}`, { first_name: 'Hijack' })).status).toBe(404);
      expect((await other.delete(`/rest/1/contacts/${id}`)).status).toBe(404);
    }
    expect((await fetchOne(rep, id)).first_name).toBe('Mine');
    expect((await rep.get('/rest/1/contacts/abc')).status).toBe(400);
    expect((await rep.get('/rest/1/contacts/99999999')).status).toBe(404);
  });

  it('updates fields (JSON or form), appends notes newest first, and audits each change', async () => {
    const id = idOf(await rep.post('/rest/1/contacts', { first_name: 'Old', notes: 'first note' }));
    expect((await rep.put(`/rest/1/contacts/${id}`, { first_name: 'New', notes: 'second note', rating: 3 })).status).toBe(200);
    expect((await rep.form('PUT', `/rest/1/contacts/${id}/`, 'last_name=Form&tags[]=Later')).status).toBe(200);
    const c = await fetchOne(rep, id);
    expect(c).toMatchObject({ first_name: 'New', last_name: 'Form', rating: '3', tags: [{ title: 'Later' }] });
    expect(c.notes.notes.split('\n\n').map((n: string) => n.replace(/^.*?: /, ''))).toEqual(['second note', 'first note']);
    const audit = (await rep.get(`/rest/1/contacts/${id}/auditlog`)).body.contact_activities.contact_activities;
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'update', data_type: 'first_name', old: 'Old', new: 'New', member_id: String(team.rep.id) }),
        expect.objectContaining({ action: 'create', data_type: 'contact' }),
      ]),
    );
  });

  it('shows every kind of detail an update adds to a contact that had none, in its record and in lists', async () => {
    const id = idOf(await rep.post('/rest/1/contacts', { first_name: 'Bare', last_name: `Contact ${process.pid}` }));
    const reply = await rep.put(`/rest/1/contacts/${id}`, {
      city: 'Boston',
      tags: ['Later'],
      custom_fields: [{ name: 'Company', type: 1, value: 'Acme' }],
      notes: 'Called',
      additional_name: [{ first_name: 'Alias', last_name: 'Name' }],
      question: ['Budget?'],
      answer: ['Small'],
      social_accounts: [{ type: 1, account: 'twitter.com/bare' }],
    });
    expect(reply.status, reply.text).toBe(200);
    const expected = {
      primary_address: { city: 'Boston' },
      tags: [{ title: 'Later' }],
      custom_fields: [{ name: 'Company', value: 'Acme' }],
      notes: { notes: expect.stringMatching(/: Called$/) },
      additional_names: [{ first_name: 'Alias', last_name: 'Name' }],
      questions: [{ question: 'Budget?', answer: 'Small' }],
      social_accounts: [{ type: '1', account: 'twitter.com/bare' }],
    };
    expect(reply.body.contacts.contacts[0]).toMatchObject(expected);
    expect(await fetchOne(rep, id)).toMatchObject(expected);
    const listed = (await rep.get('/rest/1/contacts?page_size=100')).body.contacts.contacts.find((c: any) => c.contact_user_id === id);
    expect(listed).toMatchObject(expected);
  });

  it('records nothing and keeps the version for an update that changes nothing', async () => {
    const id = idOf(
      await rep.post('/rest/1/contacts', {
        first_name: 'Same',
        email: 'same@example.com',
        phone: '2125550111',
        city: 'Boston',
        tags: ['Kept'],
      }),
    );
    const before = await server.ctx.store.db
      .selectFrom('contacts')
      .select(['version', 'updated_at'])
      .where('id', '=', Number(id))
      .executeTakeFirstOrThrow();
    for (const body of [{}, { first_name: 'Same', email: 'same@example.com', phone: '(212) 555-0111', city: 'Boston', tags: ['kept'] }]) {
      const reply = await rep.put(`/rest/1/contacts/${id}`, body);
      expect(reply.status, reply.text).toBe(200);
    }
    const after = await server.ctx.store.db
      .selectFrom('contacts')
      .select(['version', 'updated_at'])
      .where('id', '=', Number(id))
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    const activities = (await rep.get(`/rest/1/contacts/${id}/activities?days=1`)).body.contact_activities.contact_activities;
    expect(activities.map((a: { activity: string }) => a.activity)).toEqual(['Contact created']);
  });

  it('records only "Note added" for a body that only adds a note', async () => {
    const id = idOf(await rep.post('/rest/1/contacts', { first_name: 'Noted' }));
    await rep.put(`/rest/1/contacts/${id}`, { notes: 'Just a note' });
    const activities = (await rep.get(`/rest/1/contacts/${id}/activities?days=1`)).body.contact_activities.contact_activities;
    expect(activities.map((a: { activity: string }) => a.activity)).toEqual(['Note added', 'Contact created']);
  });

  it('takes do_not_call and time_zone (extensions) on create and update, audited', async () => {
    const id = idOf(await rep.post('/rest/1/contacts', { first_name: 'Quiet', do_not_call: 1, time_zone: 'America/Denver' }));
    expect(await fetchOne(rep, id)).toMatchObject({ do_not_call: '1', time_zone: 'America/Denver' });
    await rep.form('PUT', `/rest/1/contacts/${id}`, 'do_not_call=0&time_zone=');
    expect(await fetchOne(rep, id)).toMatchObject({ do_not_call: '0', time_zone: '' });
    const audit = (await rep.get(`/rest/1/contacts/${id}/auditlog`)).body.contact_activities.contact_activities;
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ data_type: 'do_not_call', old: '1', new: '0' }),
        expect.objectContaining({ data_type: 'time_zone', old: 'America/Denver', new: '' }),
      ]),
    );
  });

  it('records a folder move as "moved" with the old and new folder ids', async () => {
    const id = idOf(await rep.post('/rest/1/contacts', { first_name: 'Mover', category_id: folderA }));
    await rep.put(`/rest/1/contacts/${id}`, { category_id: String(folderB) });
    const audit = (await rep.get(`/rest/1/contacts/${id}/auditlog`)).body.contact_activities.contact_activities;
    expect(audit[0]).toMatchObject({
      contact_id: id,
      action: 'update',
      data_type: 'moved',
      old: folderA,
      new: folderB,
      date_added: expect.stringMatching(/^\d{4}-/),
    });
  });

  it("transfers within the caller's scope and refuses anything else without changing the contact", async () => {
    const id = idOf(await manager.post('/rest/1/contacts', { first_name: 'Transfer' }));
    const refused = await manager.put(`/rest/1/contacts/${id}`, { first_name: 'Changed', transfer_to_user_id: team.outsider.id });
    expect(refused.status).toBe(400);
    expect(await fetchOne(manager, id)).toMatchObject({ first_name: 'Transfer', owner_id: String(team.manager.id) });
    expect((await manager.put(`/rest/1/contacts/${id}`, { transfer_to_user_id: String(team.teammate.id) })).status).toBe(200);
    const teammate = server.as(server.tokenOf(team.teammate));
    expect((await fetchOne(teammate, id)).owner_id).toBe(String(team.teammate.id));
    const audit = (await teammate.get(`/rest/1/contacts/${id}/auditlog`)).body.contact_activities.contact_activities;
    expect(audit[0]).toMatchObject({ data_type: 'transferred', old: String(team.manager.id), new: String(team.teammate.id) });
  });

  it('moves to the trash, then deletes for good with permanent=1', async () => {
    const id = idOf(await rep.post('/rest/1/contacts', { first_name: 'Trash' }));
    expect((await rep.delete(`/rest/1/contacts/${id}`)).status).toBe(204);
    expect((await fetchOne(rep, id)).trashed).toBe('1');
    const audit = (await rep.get(`/rest/1/contacts/${id}/auditlog`)).body.contact_activities.contact_activities;
    expect(audit[0]).toMatchObject({ action: 'trash', data_type: 'trashed', old: '0', new: '1' });
    const reply = await rep.delete(`/rest/1/contacts/${id}?permanent=1`);
    expect([reply.status, reply.text]).toEqual([204, '']);
    expect((await rep.get(`/rest/1/contacts/${id}`)).status).toBe(404);
    const kept = await server.ctx.store.db
      .selectFrom('contact_audit')
      .select('action')
      .where('contact_id', '=', Number(id))
      .orderBy('id', 'desc')
      .executeTakeFirst();
    expect(kept?.action).toBe('delete');
  });
});

describe('POST /rest/1/contacts/{id}/restore (extension)', () => {
  it('takes a contact out of the trash, answering its record as GET shows it, audited and in the default list again', async () => {
    const id = idOf(await rep.post('/rest/1/contacts', { first_name: 'Restored', category_id: folderA }));
    await rep.delete(`/rest/1/contacts/${id}`);
    const listed = async () =>
      (await rep.get(`/rest/1/contacts?category_id=${folderA}&page_size=100`)).body.contacts.contacts.map((c: any) => c.contact_user_id);
    expect(await listed()).not.toContain(id);
    const reply = await rep.post(`/rest/1/contacts/${id}/restore/`);
    expect(reply.status).toBe(200);
    expect(reply.body.contacts).toEqual({ contacts: [await fetchOne(rep, id)], page: 1, page_size: 1, total_results: 1, total_pages: 1 });
    expect(reply.body.contacts.contacts[0].trashed).toBe('0');
    expect(await listed()).toContain(id);
    const audit = (await rep.get(`/rest/1/contacts/${id}/auditlog`)).body.contact_activities.contact_activities;
    expect(audit[0]).toMatchObject({ action: 'restore', data_type: 'trashed', old: '1', new: '0', member_id: String(team.rep.id) });
    const activities = (await rep.get(`/rest/1/contacts/${id}/activities?days=1`)).body.contact_activities.contact_activities;
    expect(activities.map((a: any) => a.activity_id)).toEqual(['12', '5', '1']);
    // Not in the trash: a 200 that changes and records nothing.
    expect((await rep.post(`/rest/1/contacts/${id}/restore`)).status).toBe(200);
    expect((await rep.get(`/rest/1/contacts/${id}/activities?days=1`)).body.contact_activities.total_results).toBe(3);
  });

  it("answers 404 for a contact outside the caller's scope, leaving it in the trash", async () => {
    const id = idOf(await rep.post('/rest/1/contacts', { first_name: 'Still trashed' }));
    await rep.delete(`/rest/1/contacts/${id}`);
    for (const who of ['teammate', 'outsider', 'otherVendor'] as const) {
      expect((await server.as(server.tokenOf(team[who])).post(`/rest/1/contacts/${id}/restore`)).status).toBe(404);
    }
    expect((await fetchOne(rep, id)).trashed).toBe('1');
    expect((await rep.post('/rest/1/contacts/99999999/restore')).status).toBe(404);
    expect((await rep.post('/rest/1/contacts/x/restore')).status).toBe(400);
  });
});

describe('DELETE /rest/1/contacts (many)', () => {
  it("trashes or deletes every listed contact, or none when one is not the caller's", async () => {
    const a = idOf(await rep.post('/rest/1/contacts', { first_name: 'Many1' }));
    const b = idOf(await rep.post('/rest/1/contacts', { first_name: 'Many2' }));
    const foreign = idOf(await server.as(server.tokenOf(team.outsider)).post('/rest/1/contacts', { first_name: 'Foreign' }));
    const refused = await rep.delete('/rest/1/contacts', { contact_user_ids: [a, b, foreign] });
    expect(refused.status).toBe(404);
    expect((await fetchOne(rep, a)).trashed).toBe('0');
    expect((await rep.delete('/rest/1/contacts', { contact_user_ids: [a] })).status).toBe(204);
    expect((await fetchOne(rep, a)).trashed).toBe('1');
    expect((await rep.delete('/rest/1/contacts?permanent=1', { contact_user_ids: [Number(a), b] })).status).toBe(204);
    expect((await rep.get(`/rest/1/contacts/${b}`)).status).toBe(404);
    expect((await rep.delete('/rest/1/contacts', {})).body.debug_codes[0]).toMatchObject({ field: 'contact_user_ids', code: 40002 });
  });
});

describe('activities', () => {
  it('lists what happened in the last N days, newest first', async () => {
    const id = idOf(await rep.post('/rest/1/contacts', { first_name: 'Active' }));
    await rep.put(`/rest/1/contacts/${id}`, { category_id: folderA, notes: 'hello' });
    const reply = await rep.get(`/rest/1/contacts/${id}/activities?days=7`);
    expect(reply.body.contact_activities.contact_activities.map((a: any) => a.activity_id)).toEqual(['6', '3', '1']);
    expect(reply.body.contact_activities.total_results).toBe(3);
    expect((await rep.get(`/rest/1/contacts/${id}/activities`)).status).toBe(400);
    expect((await rep.get(`/rest/1/contacts/${id}/activities?days=200`)).status).toBe(400);
    expect((await server.as(server.tokenOf(team.outsider)).get(`/rest/1/contacts/${id}/activities?days=7`)).status).toBe(404);
  });
});

describe('notes and custom values are all-or-nothing', () => {
  it('stores nothing of a create whose custom field value is bad', async () => {
    const [contacts, notes, values] = [await count('contacts'), await count('contact_notes'), await count('contact_custom_values')];
    const reply = await rep.post('/rest/1/contacts', {
      first_name: 'Half',
      notes: 'x',
      custom_fields: [
        { name: 'Good', value: 'ok' },
        { name: 'Revenue', type: 7, value: 'lots' },
      ],
    });
    expect(reply.status).toBe(400);
    expect([await count('contacts'), await count('contact_notes'), await count('contact_custom_values')]).toEqual([
      contacts,
      notes,
      values,
    ]);
  });
});

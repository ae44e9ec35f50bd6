import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

/* Compatibility facts from real clients (compat-notes): `null` on an optional input is "not given"; BI exports read
 * `member_id` and `contact_owner_id` on every contact record. */
let server: TestServer;
let team: Team;
let rep: Caller;
let manager: Caller;
let folder: string;

let n = 0;
const phone = () => `3125${String(process.pid % 1000).padStart(3, '0')}${String(++n).padStart(3, '0')}`;

beforeAll(async () => {
  let api;
  ({ server, team, api } = await serverWithTeam());
  [rep, manager] = [api(team.rep), api(team.manager)];
  folder = (await api(team.vendor).post('/rest/1/folders', { name: 'Compat' })).body.folders['0'].folder_id;
});
afterAll(() => server.close());

/** Every optional key of contact creation, as a client that sends every key it knows sends them when it has no value. */
const NULL_CONTACT_KEYS = {
  last_name: null,
  email: null,
  phone_type: null,
  phone_label: null,
  additional_name: null,
  additional_phone: null,
  address1: null,
  city: null,
  zip: null,
  notes: null,
  consent_date: null,
  viewed: null,
  category_id: null,
  tags: null,
  question: null,
  answer: null,
  custom_fields: null,
  lead_id: null,
  rating: null,
  do_not_call: null,
  time_zone: null,
  owner_id: null,
  allow_duplicates: null,
  on_duplicate: null,
  duplicate_scrubbing_policy: null,
};

describe('null on an optional input means "not given"', () => {
  it('creates a dial session with every optional key null (the browser extension\'s "preset_id": null)', async () => {
    const reply = await rep.post('/rest/1/dialsession', {
      contacts: [{ first_name: 'Nulla', phone: phone(), ...NULL_CONTACT_KEYS }],
      contact_filter: null,
      callbacks: null,
      custom_data: null,
      dialing_disposition_set_id: null,
      answer_disposition_set_id: null,
      preview_mode: null,
      send_skips: null,
      preset_id: null,
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.dialsessions).toMatchObject({ errors: null, total_results: 1 });
  });

  it('takes an entry naming an existing contact with the other keys null (every key sent) as that contact', async () => {
    const id = (await rep.post('/rest/1/contacts', { first_name: 'Named', phone: phone() })).body.contacts.contacts.contact_user_id;
    const before = (await rep.get('/rest/1/contacts?page_size=1')).body.contacts.total_results;
    const reply = await rep.post('/rest/1/dialsession', {
      contacts: [{ contact_user_id: id, ...NULL_CONTACT_KEYS, first_name: null, phone: null }],
      preset_id: null,
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.dialsessions).toMatchObject({ errors: null, total_results: 1 });
    expect((await rep.get('/rest/1/contacts?page_size=1')).body.contacts.total_results).toBe(before);
  });

  it('creates a contact with its optional keys null and stores nothing for them', async () => {
    const reply = await rep.post('/rest/1/contacts', { first_name: 'Nils', phone: phone(), ...NULL_CONTACT_KEYS });
    expect(reply.status, reply.text).toBe(201);
    const [record] = (await rep.get(`/rest/1/contacts/${reply.body.contacts.contacts.contact_user_id}`)).body.contacts.contacts;
    expect(record).toMatchObject({ first_name: 'Nils', last_name: '', category_id: '0', rating: '0', notes: { notes: '' }, tags: [] });
  });

  it("leaves a contact's values alone where an update sends null, and takes the others", async () => {
    const email = `kept${++n}@example.com`;
    const created = await rep.post('/rest/1/contacts', {
      first_name: 'Kept',
      last_name: 'Values',
      email,
      phone: phone(),
      category_id: folder,
      rating: 4,
      city: 'Chicago',
    });
    const id = created.body.contacts.contacts.contact_user_id;
    const reply = await rep.put(`/rest/1/contacts/${id}`, {
      first_name: 'Renamed',
      last_name: null,
      email: null,
      phone: null,
      category_id: null,
      rating: null,
      city: null,
      notes: null,
      tags: null,
      custom_fields: null,
      do_not_call: null,
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.contacts.contacts[0]).toMatchObject({
      first_name: 'Renamed',
      last_name: 'Values',
      category_id: folder,
      rating: '4',
      do_not_call: '0',
      primary_email: { email_address: email },
      primary_address: { city: 'Chicago' },
    });
  });

  it('still clears a rating with an empty value', async () => {
    const id = (await rep.post('/rest/1/contacts', { first_name: 'Rated', phone: phone(), rating: 3 })).body.contacts.contacts
      .contact_user_id;
    const reply = await rep.put(`/rest/1/contacts/${id}`, { rating: '' });
    expect(reply.body.contacts.contacts[0].rating).toBe('0');
  });

  it('refuses a required field given as null, naming it', async () => {
    const reply = await rep.post('/rest/1/tags', { title: null });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes).toEqual([expect.objectContaining({ reason: 'title is required (null counts as not given).' })]);
    const session = await rep.post('/rest/1/dialsession', { contacts: null, preset_id: null });
    expect(session.status).toBe(400);
    expect(session.body.debug_codes[0].reason).toMatch(/^contacts must list at least one contact/);
  });

  it('keeps null where it has a meaning of its own: a custom field value of null removes it', async () => {
    const field = (await manager.post('/rest/1/customfields', { display_name: `Plan ${n}`, type: 1 })).body.customfields.customfields[0]
      .custom_field_id;
    const id = (await rep.post('/rest/1/contacts', { first_name: 'Valued', phone: phone() })).body.contacts.contacts.contact_user_id;
    await rep.put(`/rest/1/contacts/${id}/customfields/${field}`, { value: 'Gold' });
    const reply = await rep.put(`/rest/1/contacts/${id}/customfields/${field}`, { value: null });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.customfields.customfields[0].value).toBeNull();
  });
});

describe('member_id and contact_owner_id on every contact record', () => {
  const owner = () => String(team.rep.id);

  it('are on the create answer (both shapes), the record, the list and an update answer', async () => {
    const created = await rep.post('/rest/1/contacts', { first_name: 'Owned', phone: phone() });
    expect(created.body.contacts.contacts).toMatchObject({ member_id: owner(), contact_owner_id: owner() });
    expect(created.body.contact).toMatchObject({ member_id: owner(), contact_owner_id: owner() });
    const id = created.body.contacts.contacts.contact_user_id;
    const one = (await rep.get(`/rest/1/contacts/${id}`)).body.contacts.contacts[0];
    expect(one).toMatchObject({ owner_id: owner(), member_id: owner(), contact_owner_id: owner() });
    const listed = (await manager.get('/rest/1/contacts?page_size=100')).body.contacts.contacts;
    expect(listed.length).toBeGreaterThan(0);
    for (const record of listed) {
      expect(record.member_id).toBe(record.owner_id);
      expect(record.contact_owner_id).toBe(record.owner_id);
    }
    const updated = (await rep.put(`/rest/1/contacts/${id}`, { last_name: 'Still' })).body.contacts.contacts[0];
    expect(updated).toMatchObject({ member_id: owner(), contact_owner_id: owner() });
  });

  it("name each record's own owner in a list of several owners", async () => {
    await manager.post('/rest/1/contacts', { first_name: 'Managed', phone: phone() });
    const listed = (await manager.get('/rest/1/contacts?page_size=100')).body.contacts.contacts;
    expect(new Set(listed.map((r: { contact_owner_id: string }) => r.contact_owner_id))).toEqual(
      new Set([String(team.rep.id), String(team.manager.id)]),
    );
  });
});

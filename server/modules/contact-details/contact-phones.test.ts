import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { termsOf } from '../contacts/contact-search.repository.js';

let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let rep: Caller;

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  rep = api(team.rep);
});
afterAll(() => server.close());

const newContact = async (body: object = {}) =>
  (await rep.post('/rest/1/contacts', { first_name: 'Dial', ...body })).body.contacts.contacts.contact_user_id as string;
const recordOf = async (id: string) => (await rep.get(`/rest/1/contacts/${id}`)).body.contacts.contacts[0];
const rowOf = (id: string) =>
  server.ctx.store.db.selectFrom('contacts').select(['phone', 'version']).where('id', '=', Number(id)).executeTakeFirstOrThrow();
const phonesOf = async (id: string) => (await rep.get(`/rest/1/contacts/${id}/phones`)).body.phones.phones;

/** The contact's search terms are exactly those of its names, e-mail addresses and phones now. */
async function expectSearchTerms(id: string) {
  const db = server.ctx.store.db;
  const contact = await db.selectFrom('contacts').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
  const emails = (await db.selectFrom('contact_emails').select('email_lc').where('contact_id', '=', contact.id).execute()).map(
    (e) => e.email_lc,
  );
  const phones = (await db.selectFrom('contact_phones').select('phone_number').where('contact_id', '=', contact.id).execute()).map(
    (p) => p.phone_number,
  );
  const terms = (await db.selectFrom('contact_search_terms').select('term').where('contact_id', '=', contact.id).execute()).map(
    (t) => t.term,
  );
  expect(terms.sort()).toEqual(termsOf(contact, emails, phones).sort());
}

/** The record's primary_phone and phones, and the contact row's phone column, all name the same primary number. */
async function expectPrimary(id: string, digits: string) {
  const record = await recordOf(id);
  expect(record.primary_phone.raw_phone).toBe(digits);
  expect((record.phones ?? []).filter((p: any) => p.is_primary).map((p: any) => p.phone_number)).toEqual(digits ? [digits] : []);
  expect((await rowOf(id)).phone).toBe(digits);
  await expectSearchTerms(id);
}

describe('GET and POST /rest/1/contacts/{id}/phones', () => {
  it('adds phones (200): digits in, formatted out, the first one primary', async () => {
    const id = await newContact();
    const first = await rep.post(`/rest/1/contacts/${id}/phones`, { phone_number: '2125550101', type: 3, label: 'mobile' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      http_status: 200,
      status: 'success',
      phone: {
        id: expect.any(Number),
        type: 3,
        type_name: 'CELL',
        phone_number: '(212) 555-0101',
        raw_phone: '2125550101',
        label: 'mobile',
        is_primary: true,
      },
    });
    const second = await rep.form('POST', `/rest/1/contacts/${id}/phones/`, 'phone_number=%2B44+20+7946+0958&type=2');
    expect(second.body.phone).toMatchObject({ type: 2, type_name: 'WORK', phone_number: '+442079460958', label: '', is_primary: false });
    const third = await rep.post(`/rest/1/contacts/${id}/phones`, { phone_number: '1 (312) 555-0199', is_primary: true });
    expect(third.body.phone).toMatchObject({ type: 1, type_name: 'HOME', raw_phone: '3125550199', is_primary: true });
    await expectPrimary(id, '3125550199');
    expect((await recordOf(id)).primary_phone).toMatchObject({ phone: '(312) 555-0199', type: '1' });
    const listed = (await rep.get(`/rest/1/contacts/${id}/phones`)).body.phones;
    expect(listed).toMatchObject({ page: 1, page_size: 25, total_results: 3, total_pages: 1 });
    expect(listed.phones.map((p: any) => p.raw_phone)).toEqual(['3125550199', '2125550101', '442079460958']);
    expect((await rep.get('/rest/1/contacts?search=442079')).body.contacts.contacts.map((c: any) => c.contact_user_id)).toEqual([id]);
    // The duplicate check on create sees every number of the contact.
    const again = await rep.post('/rest/1/contacts', { first_name: 'Again', phone: '+44 20 7946 0958' });
    expect(again.body.contacts.contacts).toMatchObject({ contact_user_id: id, duplicate_action: 'updated' });
    const audit = (await rep.get(`/rest/1/contacts/${id}/auditlog`)).body.contact_activities.contact_activities;
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ data_type: 'phone_added', new: '2125550101 CELL "mobile"' }),
        expect.objectContaining({ data_type: 'phone', old: '2125550101', new: '3125550199' }),
      ]),
    );
  });

  it('changes the phone the contact already has (same digits) instead of adding a second', async () => {
    const id = await newContact({ phone: '2065550111' });
    const reply = await rep.post(`/rest/1/contacts/${id}/phones`, { phone_number: '(206) 555-0111', type: '3', label: 'cell' });
    expect(reply.body.phone).toMatchObject({ type: 3, label: 'cell', is_primary: true });
    expect(await phonesOf(id)).toHaveLength(1);
  });

  it.each([
    [{}, 'phone_number', 40002],
    [{ phone_number: '12' }, 'phone_number', 40003],
    [{ phone_number: '' }, 'phone_number', 40003],
    [{ phone_number: '2125550101', type: 9 }, 'type', 40003],
    [{ phone_number: '2125550101', type: 'cell' }, 'type', 40003],
    [{ phone_number: '2125550101', label: 'x'.repeat(61) }, 'label', 40003],
  ])('refuses %j with a 400 naming %s, and stores nothing', async (body, field, code) => {
    const id = await newContact({ phone: '2065550100' });
    const before = await rowOf(id);
    const reply = await rep.post(`/rest/1/contacts/${id}/phones`, body);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ field, code, reason: expect.stringContaining(field) });
    expect(await phonesOf(id)).toHaveLength(1);
    expect(await rowOf(id)).toEqual(before);
  });
});

describe('PUT /rest/1/contacts/{id}/phones (replace all)', () => {
  it('replaces every phone (202), keeping the ids of numbers it keeps', async () => {
    const id = await newContact({ phone: '2125550001', phone_type: 2 });
    const [kept] = await phonesOf(id);
    await rep.post(`/rest/1/contacts/${id}/phones`, { phone_number: '2125550002' });
    const reply = await rep.put(`/rest/1/contacts/${id}/phones`, {
      phones: [
        { phone_number: '212-555-0003', is_primary: false, type: 4 },
        { phone_number: '2125550001', is_primary: true, type: '2' },
      ],
    });
    expect(reply.status).toBe(202);
    expect(reply.body.phones).toMatchObject({ page: 1, page_size: 2, total_results: 2, total_pages: 1 });
    expect(reply.body.phones.phones).toEqual([
      expect.objectContaining({ id: kept.id, raw_phone: '2125550001', type: 2, is_primary: true }),
      expect.objectContaining({ raw_phone: '2125550003', type: 4, type_name: 'FAX', is_primary: false }),
    ]);
    await expectPrimary(id, '2125550001');
    const form = await rep.form('PUT', `/rest/1/contacts/${id}/phones`, 'phones[0][phone_number]=3125550004&phones[0][type]=3');
    expect(form.body.phones.phones).toEqual([expect.objectContaining({ raw_phone: '3125550004', type: 3, is_primary: true })]);
    await expectPrimary(id, '3125550004');
    await rep.put(`/rest/1/contacts/${id}/phones`, { phones: [] });
    await expectPrimary(id, '');
    expect((await recordOf(id)).phones).toBeNull();
  });

  it.each([
    [{}, 'phones'],
    [{ phones: 5 }, 'phones'],
    [{ phones: [{ phone_number: '1' }] }, 'phones.0.phone_number'],
    [{ phones: [{ phone_number: '2125550101', type: 0 }] }, 'phones.0.type'],
  ])('refuses %j with a 400 naming %s, and changes nothing', async (body, field) => {
    const id = await newContact({ phone: '2125550100' });
    const before = await rowOf(id);
    const reply = await rep.put(`/rest/1/contacts/${id}/phones`, body);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes.map((d: any) => d.field)).toContain(field);
    expect(await rowOf(id)).toEqual(before);
  });
});

describe('GET, PUT and DELETE /rest/1/contacts/{id}/phones/{phone_id}', () => {
  it('answers one phone, changes it (202) keeping the type and label left out, and refuses a clash with 409', async () => {
    const id = await newContact({ phone: '3035550100', phone_type: 3, phone_label: 'cell' });
    const [first] = await phonesOf(id);
    expect((await rep.get(`/rest/1/contacts/${id}/phones/${first.id}`)).body.phone).toEqual(first);
    const second = (await rep.post(`/rest/1/contacts/${id}/phones`, { phone_number: '3035550101', type: 2 })).body.phone;
    const changed = await rep.put(`/rest/1/contacts/${id}/phones/${first.id}`, { phone_number: '303.555.0109' });
    expect(changed.status).toBe(202);
    expect(changed.body.phone).toMatchObject({ id: first.id, raw_phone: '3035550109', type: 3, label: 'cell', is_primary: true });
    await expectPrimary(id, '3035550109');
    await rep.form('PUT', `/rest/1/contacts/${id}/phones/${second.id}`, 'phone_number=3035550101&type=5&label=desk&is_primary=1');
    expect(await phonesOf(id)).toEqual([
      expect.objectContaining({ id: second.id, type: 5, type_name: 'OTHER', label: 'desk', is_primary: true }),
      expect.objectContaining({ id: first.id, is_primary: false }),
    ]);
    await expectPrimary(id, '3035550101');
    const clash = await rep.put(`/rest/1/contacts/${id}/phones/${first.id}`, { phone_number: '3035550101' });
    expect(clash.status).toBe(409);
    expect((await rep.put(`/rest/1/contacts/${id}/phones/${first.id}`, { type: 2 })).body.debug_codes[0]).toMatchObject({
      field: 'phone_number',
      code: 40002,
    });
    expect((await rep.get(`/rest/1/contacts/${id}/phones/99999999`)).status).toBe(404);
  });

  it('deletes a phone (204); deleting the primary makes the oldest remaining one primary', async () => {
    const id = await newContact({ phone: '4155550100' });
    await rep.post(`/rest/1/contacts/${id}/phones`, { phone_number: '4155550101' });
    await rep.post(`/rest/1/contacts/${id}/phones`, { phone_number: '4155550102' });
    const [primary] = await phonesOf(id);
    expect((await rep.delete(`/rest/1/contacts/${id}/phones/${primary.id}`)).status).toBe(204);
    await expectPrimary(id, '4155550101');
    const activities = (await rep.get(`/rest/1/contacts/${id}/activities?days=1`)).body.contact_activities.contact_activities;
    expect(activities[0]).toMatchObject({ activity_id: '9', activity: 'Phone number (415) 555-0100 (home) removed' });
  });
});

describe('the words people read', () => {
  it('says an added phone as "(312) 555-0144 (work, desk)" and refuses a clash without ids or raw digits', async () => {
    const id = await newContact({ phone: '4155550110' });
    await rep.post(`/rest/1/contacts/${id}/phones`, { phone_number: '3125550144', type: 2, label: 'desk' });
    const activities = (await rep.get(`/rest/1/contacts/${id}/activities?days=1`)).body.contact_activities.contact_activities;
    expect(activities[0].activity).toBe('Phone number (312) 555-0144 (work, desk) added');
    const [first] = await phonesOf(id);
    const clash = await rep.put(`/rest/1/contacts/${id}/phones/${first.id}`, { phone_number: '312-555-0144', type: 2, label: 'desk' });
    expect(clash.status).toBe(409);
    expect(clash.body.debug_codes[0].reason).toBe('This contact already has the phone number (312) 555-0144 (work, desk).');
  });
});

describe("another member's contact", () => {
  it('answers 404 on every route and changes nothing', async () => {
    const id = await newContact({ phone: '5035550100' });
    const [phone] = await phonesOf(id);
    const before = await rowOf(id);
    for (const who of ['teammate', 'outsider', 'otherVendor'] as const) {
      const other = api(team[who]);
      const replies = [
        await other.get(`/rest/1/contacts/${id}/phones`),
        await other.get(`/rest/1/contacts/${id}/phones/${phone.id}`),
        await other.post(`/rest/1/contacts/${id}/phones`, { phone_number: '5035550199' }),
        await other.put(`/rest/1/contacts/${id}/phones`, { phones: [{ phone_number: '5035550199' }] }),
        await other.put(`/rest/1/contacts/${id}/phones/${phone.id}`, { phone_number: '5035550199' }),
        await other.delete(`/rest/1/contacts/${id}/phones/${phone.id}`),
      ];
      expect(replies.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404]);
    }
    expect(await rowOf(id)).toEqual(before);
  });
});

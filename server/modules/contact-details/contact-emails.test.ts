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
  (await rep.post('/rest/1/contacts', { first_name: 'Mail', ...body })).body.contacts.contacts.contact_user_id as string;
const recordOf = async (id: string) => (await rep.get(`/rest/1/contacts/${id}`)).body.contacts.contacts[0];
const rowOf = (id: string) =>
  server.ctx.store.db.selectFrom('contacts').select(['email', 'version']).where('id', '=', Number(id)).executeTakeFirstOrThrow();
const emailsOf = async (id: string) => (await rep.get(`/rest/1/contacts/${id}/emails`)).body.emails.emails;
const auditOf = async (id: string) => (await rep.get(`/rest/1/contacts/${id}/auditlog`)).body.contact_activities.contact_activities;
const activitiesOf = async (id: string) =>
  (await rep.get(`/rest/1/contacts/${id}/activities?days=1`)).body.contact_activities.contact_activities;

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

/** The record's primary_email and emails, and the contact row's email column, all name the same primary address. */
async function expectPrimary(id: string, address: string) {
  const record = await recordOf(id);
  expect(record.primary_email.email_address).toBe(address);
  expect(record.emails.filter((e: any) => e.is_primary).map((e: any) => e.email_address)).toEqual(address ? [address] : []);
  expect((await rowOf(id)).email).toBe(address);
  await expectSearchTerms(id);
}

describe('GET and POST /rest/1/contacts/{id}/emails', () => {
  it('adds addresses (202), the first one primary, and lists them primary first', async () => {
    const id = await newContact();
    expect((await rep.get(`/rest/1/contacts/${id}/emails`)).body.emails).toEqual({
      emails: [],
      page: 1,
      page_size: 25,
      total_results: 0,
      total_pages: 0,
    });
    const first = await rep.post(`/rest/1/contacts/${id}/emails`, { email_address: 'one@example.com', is_primary: false });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({
      http_status: 202,
      status: 'success',
      email: { id: expect.any(Number), email_address: 'one@example.com', is_primary: true },
    });
    const second = await rep.form('POST', `/rest/1/contacts/${id}/emails/`, 'email_address=two%40example.com&is_primary=0');
    expect(second.body.email).toMatchObject({ email_address: 'two@example.com', is_primary: false });
    await expectPrimary(id, 'one@example.com');
    const third = await rep.post(`/rest/1/contacts/${id}/emails`, { email_address: 'Three@Example.com', is_primary: 'true' });
    expect(third.body.email).toMatchObject({ email_address: 'Three@Example.com', is_primary: true });
    await expectPrimary(id, 'Three@Example.com');
    const listed = await rep.get(`/rest/1/contacts/${id}/emails?page_size=2`);
    expect(listed.body.emails).toMatchObject({ page: 1, page_size: 2, total_results: 3, total_pages: 2 });
    expect(listed.body.emails.emails.map((e: any) => e.email_address)).toEqual(['Three@Example.com', 'one@example.com']);
    // Search and the e-mail filter find the contact by any of its addresses.
    for (const q of ['search=two%40example', 'email_address=THREE%40example.com']) {
      expect((await rep.get(`/rest/1/contacts?${q}`)).body.contacts.contacts.map((c: any) => c.contact_user_id)).toEqual([id]);
    }
    const audit = await auditOf(id);
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'update', data_type: 'email_added', old: '', new: 'two@example.com' }),
        expect.objectContaining({ action: 'update', data_type: 'email', old: 'one@example.com', new: 'Three@Example.com' }),
      ]),
    );
    expect((await activitiesOf(id))[0]).toMatchObject({ activity_id: '8', activity: 'E-mail address Three@Example.com added' });
  });

  it('adds nothing for an address the contact has (compared without case) and answers that one', async () => {
    const id = await newContact({ email: 'same@example.com' });
    const before = await rowOf(id);
    const again = await rep.post(`/rest/1/contacts/${id}/emails`, { email_address: 'same@example.com', is_primary: true });
    expect(again.status).toBe(202);
    expect(await rowOf(id)).toEqual(before);
    const respelt = await rep.post(`/rest/1/contacts/${id}/emails`, { email_address: 'SAME@example.com', is_primary: false });
    expect(respelt.body.email).toMatchObject({ id: again.body.email.id, email_address: 'SAME@example.com', is_primary: true });
    expect(await emailsOf(id)).toHaveLength(1);
    await expectPrimary(id, 'SAME@example.com');
  });

  it.each([
    [{}, 'email_address', 40002],
    [{ email_address: 'nope' }, 'email_address', 40003],
    [{ email_address: '' }, 'email_address', 40003],
    [{ email_address: 'ok@example.com', is_primary: 'maybe' }, 'is_primary', 40003],
    [{ email_address: ['a@b.co'] }, 'email_address', 40003],
  ])('refuses %j with a 400 naming %s, and stores nothing', async (body, field, code) => {
    const id = await newContact({ email: 'kept@example.com' });
    const before = await rowOf(id);
    const reply = await rep.post(`/rest/1/contacts/${id}/emails`, body);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ field, code, reason: expect.stringContaining(field) });
    expect(await emailsOf(id)).toHaveLength(1);
    expect(await rowOf(id)).toEqual(before);
  });
});

describe('PUT /rest/1/contacts/{id}/emails (replace all)', () => {
  it('replaces every address, keeping the ids of those it keeps, with the key email or email_address', async () => {
    const id = await newContact({ email: 'keep@example.com' });
    const extra = (await rep.post(`/rest/1/contacts/${id}/emails`, { email_address: 'drop@example.com', is_primary: false })).body.email;
    const keepId = (await emailsOf(id))[0].id;
    const reply = await rep.put(`/rest/1/contacts/${id}/emails`, {
      emails: [
        { email: 'new@example.com', is_primary: 1 },
        { email_address: 'KEEP@example.com', is_primary: false },
        { email: 'new@EXAMPLE.com' },
      ],
    });
    expect(reply.status).toBe(202);
    expect(reply.body.emails).toEqual({
      emails: [
        { id: expect.any(Number), email_address: 'new@example.com', is_primary: true },
        { id: keepId, email_address: 'KEEP@example.com', is_primary: false },
      ],
      page: 1,
      page_size: 2,
      total_results: 2,
      total_pages: 1,
    });
    expect((await emailsOf(id)).map((e: any) => e.id)).not.toContain(extra.id);
    await expectPrimary(id, 'new@example.com');
    expect((await auditOf(id)).map((a: any) => a.data_type)).toEqual(
      expect.arrayContaining(['email_removed', 'email_changed', 'email_added', 'email']),
    );
  });

  it('keeps the primary when no entry is marked and it stays, else makes the first entry primary; an empty list removes all', async () => {
    const id = await newContact({ email: 'a@example.com' });
    await rep.put(`/rest/1/contacts/${id}/emails`, { emails: [{ email: 'b@example.com' }, { email: 'a@example.com' }] });
    await expectPrimary(id, 'a@example.com');
    const form = await rep.form(
      'PUT',
      `/rest/1/contacts/${id}/emails`,
      'emails[0][email_address]=c%40example.com&emails[1][email]=d%40example.com',
    );
    expect(form.status).toBe(202);
    await expectPrimary(id, 'c@example.com');
    expect((await rep.put(`/rest/1/contacts/${id}/emails`, { emails: [] })).body.emails).toMatchObject({ emails: [], total_results: 0 });
    await expectPrimary(id, '');
  });

  it.each([
    [{}, 'emails'],
    [{ emails: 'x' }, 'emails'],
    [{ emails: [{ is_primary: true }] }, 'emails.0.email_address'],
    [{ emails: [{ email: 'a@example.com' }, { email: 'bad' }] }, 'emails.1.email'],
    [{ emails: [5] }, 'emails.0'],
  ])('refuses %j with a 400 naming %s, and changes nothing', async (body, field) => {
    const id = await newContact({ email: 'kept@example.com' });
    const before = await rowOf(id);
    const reply = await rep.put(`/rest/1/contacts/${id}/emails`, body);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes.map((d: any) => d.field)).toContain(field);
    expect(await rowOf(id)).toEqual(before);
  });
});

describe('GET, PUT and DELETE /rest/1/contacts/{id}/emails/{email_id}', () => {
  it("answers one address (200), and 404 for an id that is not one of the contact's", async () => {
    const id = await newContact({ email: 'one@example.com' });
    const other = await newContact({ email: 'other@example.com' });
    const [email] = await emailsOf(id);
    const reply = await rep.get(`/rest/1/contacts/${id}/emails/${email.id}/`);
    expect(reply.body).toEqual({
      http_status: 200,
      status: 'success',
      email: { id: email.id, email_address: 'one@example.com', is_primary: true },
    });
    expect((await rep.get(`/rest/1/contacts/${other}/emails/${email.id}`)).status).toBe(404);
    expect((await rep.get(`/rest/1/contacts/${id}/emails/99999999`)).body.debug_codes[0].code).toBe(40401);
    expect((await rep.get(`/rest/1/contacts/${id}/emails/abc`)).body.debug_codes[0].field).toBe('email_id');
  });

  it('changes an address (202) and moves the primary both ways; a clash with another of its addresses is a 409', async () => {
    const id = await newContact({ email: 'first@example.com' });
    const second = (await rep.post(`/rest/1/contacts/${id}/emails`, { email_address: 'second@example.com', is_primary: false })).body.email;
    const changed = await rep.put(`/rest/1/contacts/${id}/emails/${second.id}`, { email_address: 'renamed@example.com', is_primary: '1' });
    expect(changed.status).toBe(202);
    expect(changed.body.email).toEqual({ id: second.id, email_address: 'renamed@example.com', is_primary: true });
    await expectPrimary(id, 'renamed@example.com');
    await rep.form('PUT', `/rest/1/contacts/${id}/emails/${second.id}`, 'email_address=renamed%40example.com&is_primary=0');
    await expectPrimary(id, 'first@example.com');
    const clash = await rep.put(`/rest/1/contacts/${id}/emails/${second.id}`, { email_address: 'FIRST@example.com', is_primary: true });
    expect([clash.status, clash.body.debug_codes[0].code]).toEqual([409, 40901]);
    await expectPrimary(id, 'first@example.com');
    expect((await auditOf(id))[0]).toMatchObject({ data_type: 'email', old: 'renamed@example.com', new: 'first@example.com' });
  });

  it('keeps an only address primary when asked to unset it, and records nothing for a change that changes nothing', async () => {
    const id = await newContact({ email: 'only@example.com' });
    const [email] = await emailsOf(id);
    const before = await rowOf(id);
    const reply = await rep.put(`/rest/1/contacts/${id}/emails/${email.id}`, { email_address: 'only@example.com', is_primary: false });
    expect(reply.body.email.is_primary).toBe(true);
    expect(await rowOf(id)).toEqual(before);
    expect((await activitiesOf(id)).map((a: any) => a.activity)).toEqual(['Contact created']);
  });

  it('deletes an address (204); deleting the primary makes the oldest remaining one primary', async () => {
    const id = await newContact({ email: 'p@example.com' });
    for (const email_address of ['q@example.com', 'r@example.com'])
      await rep.post(`/rest/1/contacts/${id}/emails`, { email_address, is_primary: false });
    const [primary] = await emailsOf(id);
    const reply = await rep.delete(`/rest/1/contacts/${id}/emails/${primary.id}`);
    expect([reply.status, reply.text]).toEqual([204, '']);
    await expectPrimary(id, 'q@example.com');
    expect((await rep.delete(`/rest/1/contacts/${id}/emails/${primary.id}`)).status).toBe(404);
    for (const e of await emailsOf(id)) await rep.delete(`/rest/1/contacts/${id}/emails/${e.id}`);
    await expectPrimary(id, '');
    expect((await activitiesOf(id))[0].activity).toBe('E-mail address r@example.com removed');
  });
});

describe("another member's contact", () => {
  it('answers 404 on every route and changes nothing', async () => {
    const id = await newContact({ email: 'private@example.com' });
    const [email] = await emailsOf(id);
    const before = await rowOf(id);
    for (const who of ['teammate', 'outsider', 'otherVendor'] as const) {
      const other = api(team[who]);
      const replies = [
        await other.get(`/rest/1/contacts/${id}/emails`),
        await other.get(`/rest/1/contacts/${id}/emails/${email.id}`),
        await other.post(`/rest/1/contacts/${id}/emails`, { email_address: 'x@example.com', is_primary: true }),
        await other.put(`/rest/1/contacts/${id}/emails`, { emails: [{ email: 'x@example.com' }] }),
        await other.put(`/rest/1/contacts/${id}/emails/${email.id}`, { email_address: 'x@example.com', is_primary: true }),
        await other.delete(`/rest/1/contacts/${id}/emails/${email.id}`),
      ];
      expect(replies.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404]);
    }
    expect(await rowOf(id)).toEqual(before);
    expect((await api(team.manager).get(`/rest/1/contacts/${id}/emails`)).body.emails.emails).toHaveLength(1);
  });
});

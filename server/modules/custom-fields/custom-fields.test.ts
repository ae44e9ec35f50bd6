import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { deleteField, findField } from './custom-fields.repository.js';

let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let vendor: Caller;
let rep: Caller;

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  [vendor, rep] = [api(team.vendor), api(team.rep)];
});
afterAll(() => server.close());

const create = async (body: object, caller = rep) => {
  const reply = await caller.post('/rest/1/customfields', body);
  expect(reply.status, reply.text).toBe(201);
  return reply.body.customfields.customfields[0];
};
const newContact = async (body: object) =>
  (await rep.post('/rest/1/contacts', { first_name: 'Custom', ...body })).body.contacts.contacts.contact_user_id as string;
const valuesOf = async (id: string) => (await rep.get(`/rest/1/contacts/${id}`)).body.contacts.contacts[0].custom_fields;
const all = async (query = '') => (await rep.get(`/rest/1/customfields?page_size=100${query}`)).body.customfields.customfields;
const definitionOf = async (id: string) => (await rep.get(`/rest/1/customfields/${id}`)).body.customfields.customfields[0];

describe('POST /rest/1/customfields', () => {
  it('creates a definition for any member (201, a list of one, every scalar a string), placed last by default', async () => {
    const reply = await rep.post('/rest/1/customfields', { display_name: 'Company', type: 1 });
    expect(reply.status).toBe(201);
    const id = reply.body.customfields.customfields[0].custom_field_id;
    expect(reply.body.customfields).toEqual({
      customfields: [
        {
          custom_field_id: id,
          display_name: 'Company',
          type_id: '1',
          type_name: 'Text Field',
          display_order: '1',
          _link: { self: { href: `/rest/1/customfields/${id}` } },
        },
      ],
      page: 1,
      page_size: 1,
      total_results: 1,
      total_pages: 1,
    });
    expect(await create({ display_name: 'Signed', type: '3' })).toMatchObject({ type_name: 'Date', display_order: '2' });
    const form = await rep.form('POST', '/rest/1/customfields/', 'display_name=Seats&type=7&display_order=0');
    expect(form.body.customfields.customfields[0]).toMatchObject({
      display_name: 'Seats',
      type_id: '7',
      type_name: 'Numeric',
      display_order: '0',
    });
    expect((await all()).map((f: any) => f.display_name).slice(0, 3)).toEqual(['Seats', 'Company', 'Signed']);
    const clash = await vendor.post('/rest/1/customfields', { display_name: 'COMPANY', type: 2 });
    expect([clash.status, clash.body.debug_codes[0].code]).toEqual([409, 40901]);
  });

  it.each([
    [{ type: 1 }, 'display_name', 40002],
    [{ display_name: 'X' }, 'type', 40002],
    [{ display_name: 'X', type: 1, options: ['A'] }, 'options', 40003],
    [{ display_name: 'X', type: 6, options: ['A', 'a'] }, 'options', 40003],
    [{ display_name: 'X', type: 9 }, 'type', 40003],
    [{ display_name: '', type: 1 }, 'display_name', 40003],
    [{ display_name: 'X', type: 1, display_order: 'first' }, 'display_order', 40003],
    [{ display_name: 'X', type: 1, display_order: -1 }, 'display_order', 40003],
  ])('refuses %j with a 400 naming %s, and creates nothing', async (body, field, code) => {
    const before = (await all()).length;
    const reply = await rep.post('/rest/1/customfields', body);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ field, code, reason: expect.stringContaining(field) });
    expect((await all()).length).toBe(before);
  });
});

describe('GET /rest/1/customfields', () => {
  it("pages the definitions and answers one as a list of one; another organisation's is a 404", async () => {
    const field = await create({ display_name: 'Paged', type: 1 });
    const page = await rep.get('/rest/1/customfields?page_size=1&page=2');
    expect(page.body.customfields).toMatchObject({ page: 2, page_size: 1, total_pages: page.body.customfields.total_results });
    expect(page.body.customfields.customfields).toHaveLength(1);
    const one = await rep.get(`/rest/1/customfields/${field.custom_field_id}/`);
    expect(one.body.customfields).toEqual({ customfields: [field], page: 1, page_size: 1, total_results: 1, total_pages: 1 });
    expect((await api(team.otherVendor).get(`/rest/1/customfields/${field.custom_field_id}`)).status).toBe(404);
    expect((await rep.get('/rest/1/customfields/abc')).body.debug_codes[0].field).toBe('custom_field_id');
  });

  it("lists a drop-down's options; with_counts=1 adds how many contacts in the caller's scope hold a value", async () => {
    await newContact({ custom_fields: [{ name: 'Tier', type: 6 }] });
    const tier = (await all()).find((f: any) => f.display_name === 'Tier');
    const mine = await newContact({});
    await rep.post(`/rest/1/contacts/${mine}/customfields/${tier.custom_field_id}`, { value: 'Gold' });
    const theirs = (await api(team.outsider).post('/rest/1/contacts', { first_name: 'Out' })).body.contacts.contacts.contact_user_id;
    await api(team.outsider).put(`/rest/1/contacts/${theirs}/customfields/${tier.custom_field_id}`, { value: 'Silver' });
    const counted = async (caller: Caller) =>
      (await caller.get('/rest/1/customfields?page_size=100&with_counts=1')).body.customfields.customfields.find(
        (f: any) => f.custom_field_id === tier.custom_field_id,
      );
    expect(await counted(rep)).toMatchObject({
      contact_count: 1,
      options: [
        { id: expect.any(String), label: 'Gold' },
        { id: expect.any(String), label: 'Silver' },
      ],
    });
    expect((await counted(vendor)).contact_count).toBe(2);
    expect((await counted(vendor)).options).toHaveLength(2);
    expect((await all('&with_counts=1')).find((f: any) => f.type_id === '1')).not.toHaveProperty('options');
    const uncounted = (await all()).find((f: any) => f.custom_field_id === tier.custom_field_id);
    expect(uncounted).not.toHaveProperty('contact_count');
    expect(uncounted.options.map((o: any) => o.label)).toEqual(['Gold', 'Silver']);
    expect(await definitionOf(tier.custom_field_id)).not.toHaveProperty('contact_count');
  });
});

describe('PUT /rest/1/customfields/{id}', () => {
  it('changes name and order for the vendor (200, a list of one); contacts show the change', async () => {
    const a = await create({ display_name: 'Alpha', type: 1, display_order: 500 });
    const b = await create({ display_name: 'Beta', type: 1, display_order: 501 });
    const id = await newContact({
      custom_fields: [
        { name: 'Alpha', value: 'a' },
        { name: 'Beta', value: 'b' },
      ],
    });
    expect((await valuesOf(id)).map((v: any) => v.name)).toEqual(['Alpha', 'Beta']);
    const reply = await vendor.put(`/rest/1/customfields/${a.custom_field_id}`, { display_name: 'Omega', display_order: '502' });
    expect(reply.status).toBe(200);
    expect(reply.body.customfields.customfields[0]).toMatchObject({
      custom_field_id: a.custom_field_id,
      display_name: 'Omega',
      display_order: '502',
      type_id: '1',
    });
    expect((await valuesOf(id)).map((v: any) => v.name)).toEqual(['Beta', 'Omega']);
    expect((await vendor.put(`/rest/1/customfields/${b.custom_field_id}`, { display_name: 'omega' })).status).toBe(409);
    expect(
      (await vendor.put(`/rest/1/customfields/${b.custom_field_id}`, { display_name: 'BETA' })).body.customfields.customfields[0]
        .display_name,
    ).toBe('BETA');
  });

  it('changes the type only when every value contacts hold fits the new one (409 otherwise, nothing changed)', async () => {
    const f = await create({ display_name: 'Count', type: 1 });
    const one = await newContact({ custom_fields: [{ name: 'Count', value: '12' }] });
    expect((await vendor.put(`/rest/1/customfields/${f.custom_field_id}`, { type: 7 })).body.customfields.customfields[0]).toMatchObject({
      type_id: '7',
      type_name: 'Numeric',
    });
    await vendor.put(`/rest/1/customfields/${f.custom_field_id}`, { type: 1 });
    await newContact({ custom_fields: [{ name: 'Count', value: 'a dozen' }] });
    const refused = await vendor.put(`/rest/1/customfields/${f.custom_field_id}`, { type: '7', display_name: 'Counted' });
    expect(refused.status).toBe(409);
    expect(refused.body.debug_codes[0].reason).toMatch(/1 value\(s\) that are not valid as Numeric \(such as "a dozen"\)/);
    expect(await definitionOf(f.custom_field_id)).toMatchObject({ display_name: 'Count', type_id: '1' });
    expect((await valuesOf(one))[0]).toMatchObject({ name: 'Count', type: '1', value: '12' });
  });

  it('is for the vendor only (403 40302), with a 400 for a bad type and a 404 for an unknown field', async () => {
    const f = await create({ display_name: 'Guarded', type: 1 });
    for (const who of ['rep', 'manager'] as const) {
      const reply = await api(team[who]).put(`/rest/1/customfields/${f.custom_field_id}`, { display_name: 'Mine' });
      expect([reply.status, reply.body.debug_codes[0].code]).toEqual([403, 40302]);
    }
    expect((await vendor.put(`/rest/1/customfields/${f.custom_field_id}`, { type: 6 })).body.debug_codes[0]).toMatchObject({
      field: 'type',
      code: 40003,
    });
    expect((await vendor.put('/rest/1/customfields/99999999', { display_name: 'X' })).status).toBe(404);
    expect((await api(team.otherVendor).put(`/rest/1/customfields/${f.custom_field_id}`, { display_name: 'X' })).status).toBe(404);
    expect((await definitionOf(f.custom_field_id)).display_name).toBe('Guarded');
  });
});

describe('drop-down options (extension)', () => {
  const put = (id: string, body: object) => vendor.put(`/rest/1/customfields/${id}`, body);
  const labels = (record: { options: { label: string }[] }) => record.options.map((o) => o.label);

  it('creates a drop-down with its options, and answers them on POST, GET one and the list', async () => {
    const field = await create({ display_name: 'Stage', type: 6, options: ['Lead', 'Won'] });
    expect(field).toMatchObject({ type_id: '6', type_name: 'Drop Down', options: [{ label: 'Lead' }, { label: 'Won' }] });
    expect(labels(await definitionOf(field.custom_field_id))).toEqual(['Lead', 'Won']);
    expect(labels((await all()).find((f: any) => f.custom_field_id === field.custom_field_id))).toEqual(['Lead', 'Won']);
  });

  it("adds, renames and removes options; a rename carries the contacts' values along, each recording it", async () => {
    const field = await create({ display_name: 'Phase', type: 6, options: ['Cold', 'Warm', 'Gone'] });
    const [cold, warm] = field.options;
    const id = await newContact({ custom_fields: [{ name: 'Phase', type: 6, value: 'Warm' }] });
    const before = (await rep.get(`/rest/1/contacts/${id}`)).headers.get('etag');
    const reply = await put(field.custom_field_id, { options: [{ id: cold.id, label: 'Cold' }, { id: warm.id, label: 'Hot' }, 'New'] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.customfields.customfields[0].options).toEqual([
      { id: cold.id, label: 'Cold' },
      { id: warm.id, label: 'Hot' },
      { id: expect.any(String), label: 'New' },
    ]);
    const record = await rep.get(`/rest/1/contacts/${id}`);
    expect(record.body.contacts.contacts[0].custom_fields).toEqual([expect.objectContaining({ name: 'Phase', value: 'Hot' })]);
    expect(record.headers.get('etag')).not.toBe(before);
    const audit = (await rep.get(`/rest/1/contacts/${id}/auditlog`)).body;
    expect(JSON.stringify(audit)).toContain(`"data_type":"custom_field:${field.custom_field_id}","old":"Warm","new":"Hot"`);
  });

  it('refuses to remove an option contacts hold (409), and changes nothing', async () => {
    const field = await create({ display_name: 'Grade', type: 6, options: ['A', 'B'] });
    await newContact({ custom_fields: [{ name: 'Grade', type: 6, value: 'B' }] });
    const reply = await put(field.custom_field_id, { options: ['A'] });
    expect([reply.status, reply.body.debug_codes[0].code]).toEqual([409, 40901]);
    expect(reply.body.debug_codes[0].reason).toMatch(/1 contact\(s\) hold "B" in "Grade"/);
    expect(labels(await definitionOf(field.custom_field_id))).toEqual(['A', 'B']);
  });

  it('refuses options on a field that is not a drop-down, an option of another field, and a rep', async () => {
    const text = await create({ display_name: 'Plain', type: 1 });
    expect((await put(text.custom_field_id, { options: ['A'] })).body.debug_codes[0]).toMatchObject({ field: 'options', code: 40003 });
    const one = await create({ display_name: 'First list', type: 6, options: ['X'] });
    const two = await create({ display_name: 'Second list', type: 6, options: ['Y'] });
    const foreign = await put(two.custom_field_id, { options: [{ id: one.options[0].id, label: 'Z' }] });
    expect(foreign.body.debug_codes[0]).toMatchObject({ field: 'options', code: 40004 });
    expect((await rep.put(`/rest/1/customfields/${two.custom_field_id}`, { options: ['Q'] })).status).toBe(403);
    expect(labels(await definitionOf(two.custom_field_id))).toEqual(['Y']);
  });
});

describe('DELETE /rest/1/customfields/{id}', () => {
  it('deletes the definition for the vendor (204) and, irreversibly, every value contacts hold, each recording it', async () => {
    const f = await create({ display_name: 'Doomed field', type: 1 });
    const id = await newContact({
      custom_fields: [
        { name: 'Doomed field', value: 'bye' },
        { name: 'Company', value: 'Stays' },
      ],
    });
    expect((await rep.delete(`/rest/1/customfields/${f.custom_field_id}`)).body.debug_codes[0].code).toBe(40302);
    const reply = await vendor.delete(`/rest/1/customfields/${f.custom_field_id}`);
    expect([reply.status, reply.text]).toEqual([204, '']);
    expect((await valuesOf(id)).map((v: any) => v.name)).toEqual(['Company']);
    expect((await rep.get(`/rest/1/customfields/${f.custom_field_id}`)).status).toBe(404);
    const audit = (await rep.get(`/rest/1/contacts/${id}/auditlog`)).body.contact_activities.contact_activities;
    expect(audit[0]).toMatchObject({
      data_type: `custom_field:${f.custom_field_id}`,
      old: 'bye',
      new: '',
      member_id: String(team.vendor.id),
    });
    const activities = (await rep.get(`/rest/1/contacts/${id}/activities?days=1`)).body.contact_activities.contact_activities;
    expect(activities[0]).toMatchObject({ activity_id: '11', activity: 'Custom field "Doomed field" removed: the field was deleted' });
    expect((await vendor.delete(`/rest/1/customfields/${f.custom_field_id}`)).status).toBe(404);
    // A contact may name it again: a new field.
    expect((await rep.put(`/rest/1/contacts/${id}`, { custom_fields: [{ name: 'Doomed field', value: 'back' }] })).status).toBe(200);
    expect((await valuesOf(id)).find((v: any) => v.name === 'Doomed field').custom_field_id).not.toBe(f.custom_field_id);
  });
});

it("removes a deleted field's values chunk by chunk, all in one transaction", async () => {
  const f = await create({ display_name: 'Chunked field', type: 1 });
  const ids = [];
  for (let i = 0; i < 5; i++)
    ids.push(await newContact({ last_name: `Chunk ${i}`, custom_fields: [{ name: 'Chunked field', value: `v${i}` }] }));
  const row = (await findField(server.ctx.store.db, team.vendor.org_id, Number(f.custom_field_id)))!;
  await server.ctx.store.write((tx) => deleteField(tx, row, team.vendor.id, '2030-01-01 00:00:00', 2));
  const db = server.ctx.store.db;
  expect(await db.selectFrom('contact_custom_values').select('contact_id').where('custom_field_id', '=', row.id).execute()).toEqual([]);
  const audits = await db
    .selectFrom('contact_audit')
    .select(['contact_id', 'old_value'])
    .where('data_type', '=', `custom_field:${row.id}`)
    .orderBy('contact_id')
    .execute();
  expect(audits).toEqual(ids.map((id, i) => ({ contact_id: Number(id), old_value: `v${i}` })));
});

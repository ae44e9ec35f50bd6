import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let rep: Caller;
const field: Record<string, string> = {};

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  rep = api(team.rep);
  for (const [name, type] of [
    ['Company', 1],
    ['Opted in', 2],
    ['Signed', 3],
    ['Seats', 7],
  ] as const) {
    field[name] = (await rep.post('/rest/1/customfields', { display_name: name, type })).body.customfields.customfields[0].custom_field_id;
  }
  // Drop-downs come only from contact creation.
  await rep.post('/rest/1/contacts', { first_name: 'Maker', custom_fields: [{ name: 'Plan', type: 6 }] });
  field.Plan = (await rep.get('/rest/1/customfields?page_size=100')).body.customfields.customfields.find(
    (f: any) => f.display_name === 'Plan',
  ).custom_field_id;
});
afterAll(() => server.close());

const newContact = async (body: object = {}) =>
  (await rep.post('/rest/1/contacts', { first_name: 'Valued', ...body })).body.contacts.contacts.contact_user_id as string;
const recordValues = async (id: string) => (await rep.get(`/rest/1/contacts/${id}`)).body.contacts.contacts[0].custom_fields;
const versionOf = async (id: string) =>
  (await server.ctx.store.db.selectFrom('contacts').select('version').where('id', '=', Number(id)).executeTakeFirstOrThrow()).version;
const path = (id: string, name: string) => `/rest/1/contacts/${id}/customfields/${field[name]}`;

describe('GET /rest/1/contacts/{id}/customfields', () => {
  it("lists every definition with this contact's value or null; one field is a list of one", async () => {
    const id = await newContact({ custom_fields: [{ name: 'Company', value: 'Acme' }] });
    const reply = await rep.get(`/rest/1/contacts/${id}/customfields`);
    expect(reply.status).toBe(200);
    expect(reply.body.customfields).toMatchObject({ page: 1, page_size: 25, total_results: 5, total_pages: 1 });
    expect(reply.body.customfields.customfields.map((f: any) => [f.display_name, f.value])).toEqual([
      ['Company', 'Acme'],
      ['Opted in', null],
      ['Signed', null],
      ['Seats', null],
      ['Plan', null],
    ]);
    const one = await rep.get(path(id, 'Company') + '/');
    expect(one.body.customfields).toEqual({
      customfields: [
        {
          custom_field_id: field.Company,
          display_name: 'Company',
          type_id: '1',
          type_name: 'Text Field',
          display_order: '1',
          _link: { self: { href: `/rest/1/contacts/${id}/customfields/${field.Company}` } },
          value: 'Acme',
        },
      ],
      page: 1,
      page_size: 1,
      total_results: 1,
      total_pages: 1,
    });
    expect((await rep.get(`/rest/1/contacts/${id}/customfields/99999999`)).status).toBe(404);
  });
});

describe('POST and PUT /rest/1/contacts/{id}/customfields/{field}', () => {
  it.each([
    ['Company', 'Acme Inc', 'Acme Inc'],
    ['Opted in', 'yes', '1'],
    ['Opted in', 0, '0'],
    ['Signed', '4/5/2024', '2024-04-05'],
    ['Seats', '12', '12'],
  ])('sets %s from %j to %j (200, a list of one holding the value), as the record shows it', async (name, given, stored) => {
    const id = await newContact();
    for (const method of ['post', 'put'] as const) {
      const reply = await rep[method](path(id, name), { value: given });
      expect(reply.status).toBe(200);
      expect(reply.body.customfields.customfields).toEqual([expect.objectContaining({ custom_field_id: field[name], value: stored })]);
    }
    expect(await recordValues(id)).toEqual([{ custom_field_id: field[name], name, type: expect.any(String), value: stored }]);
    const audit = (await rep.get(`/rest/1/contacts/${id}/auditlog`)).body.contact_activities.contact_activities;
    expect(audit.filter((a: any) => a.data_type === `custom_field:${field[name]}`)).toEqual([
      expect.objectContaining({ old: '', new: stored }),
    ]);
  });

  it('matches a drop-down value to an option by label (any case) or id, and adds an option for a new label', async () => {
    const id = await newContact();
    expect((await rep.post(path(id, 'Plan'), { value: 'Gold' })).body.customfields.customfields[0].value).toBe('Gold');
    const options = async () =>
      (await rep.get('/rest/1/customfields?with_counts=1&page_size=100')).body.customfields.customfields.find(
        (f: any) => f.custom_field_id === field.Plan,
      ).options as { id: string; label: string }[];
    const [gold] = await options();
    await rep.form('PUT', path(id, 'Plan'), 'value=Silver');
    expect((await rep.put(path(id, 'Plan'), { value: 'GOLD' })).body.customfields.customfields[0].value).toBe('Gold');
    await rep.put(path(id, 'Plan'), { value: 'Silver' });
    expect((await rep.put(path(id, 'Plan'), { value: Number(gold!.id) })).body.customfields.customfields[0].value).toBe('Gold');
    expect((await options()).map((o) => o.label)).toEqual(['Gold', 'Silver']);
    expect((await recordValues(id))[0]).toMatchObject({ name: 'Plan', type: '6', value: 'Gold' });
  });

  it.each([
    ['Opted in', 'maybe', /value must be 1 or 0 for a checkbox/],
    ['Signed', 'soon', /value must be a date/],
    ['Seats', 'many', /value must be a number/],
  ])('refuses %s = %j with a 400 naming value, storing nothing', async (name, value, reason) => {
    const id = await newContact({ custom_fields: [{ name: 'Company', value: 'Kept' }] });
    const version = await versionOf(id);
    const reply = await rep.post(path(id, name), { value });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ field: 'value', code: 40003, reason: expect.stringMatching(reason) });
    expect(await versionOf(id)).toBe(version);
  });

  it('requires a value, and records nothing when it does not change', async () => {
    const id = await newContact({ custom_fields: [{ name: 'Company', value: 'Same' }] });
    expect((await rep.post(path(id, 'Company'), {})).body.debug_codes[0]).toMatchObject({ field: 'value', code: 40002 });
    expect((await rep.post(path(id, 'Company'), { value: { a: 1 } })).body.debug_codes[0]).toMatchObject({ field: 'value', code: 40003 });
    const version = await versionOf(id);
    expect((await rep.put(path(id, 'Company'), { value: 'Same' })).status).toBe(200);
    expect(await versionOf(id)).toBe(version);
  });
});

describe('DELETE /rest/1/contacts/{id}/customfields/{field}', () => {
  it('removes the value (204), the definition stays; removing a value the contact does not hold changes nothing', async () => {
    const id = await newContact({ custom_fields: [{ name: 'Company', value: 'Gone soon' }] });
    const reply = await rep.delete(path(id, 'Company'));
    expect([reply.status, reply.text]).toEqual([204, '']);
    expect(await recordValues(id)).toEqual([]);
    expect((await rep.get(path(id, 'Company'))).body.customfields.customfields[0].value).toBeNull();
    const version = await versionOf(id);
    expect((await rep.delete(path(id, 'Company'))).status).toBe(204);
    expect(await versionOf(id)).toBe(version);
    const activities = (await rep.get(`/rest/1/contacts/${id}/activities?days=1`)).body.contact_activities.contact_activities;
    expect(activities[0]).toMatchObject({ activity_id: '11', activity: 'Custom field "Company" cleared' });
  });
});

describe("another member's contact", () => {
  it('answers 404 on every route and changes nothing', async () => {
    const id = await newContact({ custom_fields: [{ name: 'Company', value: 'Private' }] });
    const version = await versionOf(id);
    for (const who of ['teammate', 'outsider', 'otherVendor'] as const) {
      const other = api(team[who]);
      const replies = [
        await other.get(`/rest/1/contacts/${id}/customfields`),
        await other.get(path(id, 'Company')),
        await other.post(path(id, 'Company'), { value: 'Theirs' }),
        await other.put(path(id, 'Company'), { value: 'Theirs' }),
        await other.delete(path(id, 'Company')),
      ];
      expect(replies.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    }
    expect(await versionOf(id)).toBe(version);
    expect((await recordValues(id))[0].value).toBe('Private');
  });
});

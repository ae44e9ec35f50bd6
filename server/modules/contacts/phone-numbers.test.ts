import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

let server: TestServer;
let team: Team;
let as: (member: Member) => Caller;
let rep: Caller;
let vendor: Caller;

const create = async (api: Caller, body: object): Promise<string> => {
  const reply = await api.post('/rest/1/contacts', { allow_duplicates: 1, ...body });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.contacts.contacts.contact_user_id;
};
/** The record as its organisation's vendor reads it, whoever owns it. */
const record = async (id: string, reader: Caller = vendor) => (await reader.get(`/rest/1/contacts/${id}`)).body.contacts.contacts[0];
const numbersOf = async (id: string, reader?: Caller) => ((await record(id, reader)).phones ?? []).map((p: any) => p.phone_number).sort();
const remove = (api: Caller, number: string) => api.delete(`/rest/1/phonenumber/${encodeURIComponent(number)}`);
const audit = async (id: string, reader: Caller = vendor) =>
  (await reader.get(`/rest/1/contacts/${id}/auditlog`)).body.contact_activities.contact_activities;
const activities = async (id: string, reader: Caller = vendor) =>
  (await reader.get(`/rest/1/contacts/${id}/activities?days=1`)).body.contact_activities.contact_activities;
const found = async (api: Caller, search: string) =>
  ((await api.get(`/rest/1/contacts?search=${search}`)).body.contacts.contacts as any[]).map((c) => c.contact_user_id);

beforeAll(async () => {
  ({ server, team, api: as } = await serverWithTeam());
  [rep, vendor] = [as(team.rep), as(team.vendor)];
});
afterAll(() => server.close());

describe('DELETE /rest/1/phonenumber/{phone_number}', () => {
  const number = '2125550100';
  const ids = { primary: '', additional: '', only: '' };

  beforeAll(async () => {
    ids.primary = await create(rep, {
      first_name: 'Primary',
      phone: number,
      additional_phone: [{ number: '3125550111', phone_type: 2, phone_label: 'office' }, { number: '3125550112' }],
    });
    ids.additional = await create(rep, {
      first_name: 'Additional',
      phone: '3125550199',
      additional_phone: [{ number: '(212) 555-0100', phone_type: 3 }],
    });
    ids.only = await create(rep, { first_name: 'Only', phone: number });
    expect((await found(rep, number)).sort()).toEqual(Object.values(ids).sort());
    const reply = await remove(rep, number);
    expect([reply.status, reply.text]).toEqual([204, '']);
  });

  it("removes a primary number and promotes the next phone, the record's primary_phone following", async () => {
    const contact = await record(ids.primary);
    expect(contact.primary_phone).toMatchObject({ phone: '(312) 555-0111', raw_phone: '3125550111', type: '2', label: 'office' });
    expect(contact.phones).toEqual([
      expect.objectContaining({ phone_number: '3125550111', is_primary: true }),
      expect.objectContaining({ phone_number: '3125550112', is_primary: false }),
    ]);
  });

  it('removes an additional number and keeps the primary one', async () => {
    const contact = await record(ids.additional);
    expect(contact.primary_phone).toMatchObject({ raw_phone: '3125550199' });
    expect(contact.phones).toEqual([expect.objectContaining({ phone_number: '3125550199', is_primary: true })]);
  });

  it('leaves a contact that had only that number with none', async () => {
    const contact = await record(ids.only);
    expect(contact.primary_phone).toMatchObject({ phone: '', raw_phone: '' });
    expect(contact.phones ?? []).toEqual([]);
  });

  it('writes an audit record and an activity for each contact', async () => {
    for (const id of Object.values(ids)) {
      expect((await audit(id)).filter((a: any) => a.data_type === 'phone')).toEqual([
        expect.objectContaining({ contact_id: id, member_id: String(team.rep.id), action: 'delete', old: number, new: '' }),
      ]);
      expect((await activities(id)).filter((a: any) => a.activity === 'Phone number (212) 555-0100 removed')).toEqual([
        expect.objectContaining({ activity_id: '2' }),
      ]);
    }
  });

  it('no longer finds the contacts by the removed number, and still by the ones left', async () => {
    expect(await found(rep, number)).toEqual([]);
    expect(await found(rep, '(212) 555-0100')).toEqual([]);
    expect(await found(rep, '3125550111')).toEqual([ids.primary]);
  });
});

describe('which contacts lose the number', () => {
  it.each([
    ['digits', '2125550201', '2125550201'],
    ['formatted', '(212) 555-0202', '2125550202'],
    ['with dashes', '212-555-0203', '2125550203'],
    ['with the country code', '+1 212 555 0204', '2125550204'],
    ['with a leading 1', '12125550205', '2125550205'],
  ])('matches a number written as %s in the path', async (_how, path, stored) => {
    const id = await create(rep, { first_name: 'Written', phone: stored, additional_phone: [{ number: '3125550300' }] });
    expect((await remove(rep, path)).status).toBe(204);
    expect(await numbersOf(id)).toEqual(['3125550300']);
  });

  it.each([
    ['a rep: its own contacts only', () => team.rep, ['rep']],
    ["a manager: its team's", () => team.manager, ['rep', 'teammate']],
    ['the vendor: the whole organisation', () => team.vendor, ['rep', 'teammate', 'outsider']],
  ])("removes it for %s, never another organisation's", async (_who, member, changed) => {
    const number = `21255504${changed.length}${changed.length}`;
    const owners = { rep: team.rep, teammate: team.teammate, outsider: team.outsider };
    const ids: Record<string, string> = Object.fromEntries(
      await Promise.all(
        Object.entries(owners).map(async ([name, owner]) => [name, await create(as(owner), { first_name: name, phone: number })]),
      ),
    );
    const foreign = await create(as(team.otherVendor), { first_name: 'Foreign', phone: number });
    expect((await remove(as(member()), number)).status).toBe(204);
    for (const [name, id] of Object.entries(ids)) {
      const removed = changed.includes(name);
      expect(await numbersOf(id), name).toEqual(removed ? [] : [number]);
      expect(
        (await audit(id)).some((a: any) => a.data_type === 'phone'),
        name,
      ).toBe(removed);
    }
    const otherVendor = as(team.otherVendor);
    expect(await numbersOf(foreign, otherVendor)).toEqual([number]);
    expect((await audit(foreign, otherVendor)).some((a: any) => a.data_type === 'phone')).toBe(false);
  });

  it('answers 204 when no contact has the number', async () => {
    const reply = await remove(rep, '2125550999');
    expect([reply.status, reply.text]).toEqual([204, '']);
  });

  it.each(['abc', '12345', '1234567890123456', 'phone-me'])('answers 400 naming phone_number for %s', async (path) => {
    const reply = await remove(rep, path);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ field: 'phone_number', reason: expect.stringContaining('phone_number') });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../db/schema.js';
import { type Caller, startServer, type TestServer } from '../test/harness.js';
import { isValidNorthAmerican } from '../dialer/skip-rules.js';
import { nowMs } from '../lib/clock.js';
import { toTimestamp } from '../lib/time.js';
import { HISTORY_DAYS } from './demo-calls.js';
import { DEMO_PASSWORD, seedDemo, type DemoLogin } from './demo.js';

describe('demo data', () => {
  let server: TestServer;
  let logins: DemoLogin[];
  let members: Member[];
  let seededAt: string;
  const member = (username: string) => members.find((m) => m.username === username)!;

  beforeAll(async () => {
    server = await startServer();
    seededAt = toTimestamp(new Date(nowMs()));
    logins = await seedDemo(server.ctx);
    members = await server.ctx.store.db.selectFrom('members').selectAll().orderBy('id').execute();
  });
  afterAll(() => server?.close());

  it('returns one login per member, with its role, and every login signs in', async () => {
    expect(logins.map((l) => [l.role, l.username])).toEqual(members.map((m) => [m.role, m.username]));
    expect(logins.map((l) => l.username)).toEqual(['vendor', 'manager', 'alex', 'blake', 'casey']);
    for (const login of logins) {
      expect(login.password).toBe(DEMO_PASSWORD);
      const reply = await server.as().raw('/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ringbook-request': '1' },
        body: JSON.stringify({ username: login.username, password: login.password }),
      });
      expect(reply.status, login.username).toBe(200);
    }
  });

  it('puts the reps beneath the manager and the manager beneath the vendor', () => {
    expect(member('manager').parent_id).toBe(member('vendor').id);
    for (const rep of ['alex', 'blake', 'casey']) expect(member(rep).parent_id).toBe(member('manager').id);
  });

  it('lets the vendor see about 2,000 contacts', async () => {
    const reply = await server.as(server.tokenOf(member('vendor'))).get('/rest/1/contacts?page_size=5');
    expect(reply.status).toBe(200);
    expect(reply.body.contacts.total_results).toBeGreaterThanOrEqual(1900);
    expect(reply.body.contacts.total_results).toBeLessThanOrEqual(2100);
  });

  it('shows a rep only its own contacts', async () => {
    const alex = member('alex');
    const api = server.as(server.tokenOf(alex));
    const owned = await server.ctx.store.db.selectFrom('contacts').select('id').where('owner_id', '=', alex.id).orderBy('id').execute();
    expect(owned.length).toBeGreaterThan(100);
    const seen: { contact_user_id: string; owner_id: string }[] = [];
    for (let page = 1; seen.length < owned.length && page <= 10; page++) {
      const reply = await api.get(`/rest/1/contacts?page_size=100&page=${page}`);
      expect(reply.body.contacts.total_results).toBe(owned.length);
      seen.push(...reply.body.contacts.contacts);
    }
    expect(new Set(seen.map((c) => c.owner_id))).toEqual(new Set([String(alex.id)]));
    expect(seen.map((c) => Number(c.contact_user_id)).sort((a, b) => a - b)).toEqual(owned.map((c) => c.id));
  });

  it('creates folders with a sub-folder', async () => {
    const reply = await server.as(server.tokenOf(member('vendor'))).get('/rest/1/folders?structure=1');
    expect(reply.status).toBe(200);
    const nodes = Object.values(reply.body.folders).filter(
      (v): v is { folder_name: string; _embedded?: { folders: { folder_name: string }[] } } =>
        typeof v === 'object' && v !== null && 'folder_name' in v,
    );
    const prospects = nodes.find((f) => f.folder_name === 'Prospects');
    expect(prospects?._embedded?.folders.map((f) => f.folder_name)).toEqual(['Hot leads']);
    expect(nodes.map((f) => f.folder_name)).toEqual(expect.arrayContaining(['Customers', 'Partners', 'Cold']));
  });

  it('gives every contact a unique e-mail and a unique ten-digit phone, and fills the optional parts for many', async () => {
    const { db } = server.ctx.store;
    const contacts = await db.selectFrom('contacts').select(['email', 'phone', 'folder_id', 'rating']).execute();
    expect(new Set(contacts.map((c) => c.email.toLowerCase())).size).toBe(contacts.length);
    expect(new Set(contacts.map((c) => c.phone)).size).toBe(contacts.length);
    expect(contacts.every((c) => /^[2-9]\d{2}[2-9]\d{6}$/.test(c.phone))).toBe(true);
    expect(contacts.filter((c) => c.folder_id !== null).length).toBeGreaterThan(contacts.length / 2);
    expect(contacts.filter((c) => c.rating > 0).length).toBeGreaterThan(0);
    const count = async (table: 'contact_tags' | 'contact_custom_values' | 'contact_notes') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('contact_tags')).toBeGreaterThan(0);
    expect(await count('contact_custom_values')).toBeGreaterThan(contacts.length);
    expect(await count('contact_notes')).toBeGreaterThan(contacts.length / 5);
  });

  it('gives each rep a dialer demo: every outcome of the simulated carrier, one do-not-call, two far time zones, all valid numbers', async () => {
    const vendorApi = server.as(server.tokenOf(member('vendor')));
    const folder = Object.values((await vendorApi.get('/rest/1/folders')).body.folders).find(
      (f: any) => f?.folder_name === 'Dialer demo',
    ) as { folder_id: string };
    for (const rep of ['alex', 'blake', 'casey']) {
      const list = (await server.as(server.tokenOf(member(rep))).get(`/rest/1/contacts?category_id=${folder.folder_id}&page_size=100`)).body
        .contacts.contacts;
      const phones = list.map((c: any) => c.primary_phone.raw_phone as string);
      expect(new Set(phones.map((p: string) => p.at(-1))).size, rep).toBe(10);
      expect(phones.every(isValidNorthAmerican)).toBe(true);
      expect(list.filter((c: any) => c.do_not_call === '1')).toHaveLength(1);
      expect(phones.filter((p: string) => p.startsWith('671') || p.startsWith('808'))).toHaveLength(2);
    }
    const voicemails = (await vendorApi.get('/rest/1/voicemails')).body.voicemails.voicemails;
    expect(voicemails.length).toBeGreaterThanOrEqual(3);
  });
  describe('the history of dial sessions', () => {
    type CallRow = {
      user_id: string;
      start_when: string;
      end_when: string;
      connected: string;
      voicemail: string;
      disposition: string;
      duration: number;
    };
    type SessionRow = { dialsession_id: string; member_id: string; status: string; start_when: string; call_count: number };
    const dayOf = (offsetDays: number) =>
      new Date(Date.parse(`${seededAt.replace(' ', 'T')}Z`) + offsetDays * 86_400_000).toISOString().slice(0, 10);
    const manager = () => server.as(server.tokenOf(member('manager')));

    async function sessionsOf(api: Caller): Promise<SessionRow[]> {
      const rows: SessionRow[] = [];
      for (let page = 1; ; page++) {
        const { dialsessions } = (await api.get(`/rest/1/dialsession?page_size=100&page=${page}`)).body;
        rows.push(...dialsessions.dialsessions);
        if (page >= dialsessions.total_pages) return rows;
      }
    }
    const callsOf = async (api: Caller, id: string): Promise<CallRow[]> =>
      (await api.get(`/rest/1/dialsession/${id}?page_size=100`)).body.dialsessions.dialsessions.calls;

    it(`gives each rep usage over the last ${HISTORY_DAYS} days that agrees with its sessions and calls`, async () => {
      const api = manager();
      const usage = (await api.get(`/rest/1/dialsession/usage?date_start=${dayOf(-HISTORY_DAYS)}&date_end=${dayOf(0)}`)).body.usage;
      const sessions = await sessionsOf(api);
      expect(sessions.length).toBeGreaterThan(20);
      // Written in the order they happened: the list, newest first by id, is newest first by time too.
      expect(sessions.map((s) => s.start_when)).toEqual(
        sessions
          .map((s) => s.start_when)
          .sort()
          .reverse(),
      );
      for (const rep of ['alex', 'blake', 'casey']) {
        const id = String(member(rep).id);
        const own = sessions.filter((s) => s.member_id === id);
        const calls = (await Promise.all(own.map((s) => callsOf(api, s.dialsession_id)))).flat();
        expect(calls.length, rep).toBe(own.reduce((sum, s) => sum + s.call_count, 0));
        expect(usage[id], rep).toMatchObject({
          sessions: own.length,
          calls: calls.length,
          connected: calls.filter((c) => c.connected === '1').length,
          voicemail: calls.filter((c) => c.voicemail === '1').length,
          emails: 0,
        });
        expect(usage[id].calls, rep).toBeGreaterThan(50);
        expect(usage[id].connected, rep).toBeGreaterThan(0);
        expect(usage[id].voicemail, rep).toBeGreaterThan(0);
        expect(usage[id].talktime, rep).toBeGreaterThan(0);
        expect(usage[id].talktime, rep).toBeLessThanOrEqual(Math.round(calls.reduce((sum, c) => sum + c.duration, 0) / 60));
        expect(new Set(calls.map((c) => c.disposition)).size, rep).toBeGreaterThanOrEqual(6);
      }
      expect(usage[String(member('manager').id)]).toMatchObject({ sessions: 0, calls: 0 });
      for (const s of sessions) {
        expect(s.status).toBe('ended');
        expect(s.start_when >= `${dayOf(-HISTORY_DAYS)} 00:00:00` && s.start_when < `${dayOf(0)} 00:00:00`, s.start_when).toBe(true);
        expect([0, 6]).not.toContain(new Date(`${s.start_when.replace(' ', 'T')}Z`).getUTCDay());
      }
    });

    it("leaves each called contact with its calls' count, last result and time, and an activity per call, made before its first call", async () => {
      const api = manager();
      const alex = String(member('alex').id);
      const sessions = (await sessionsOf(api)).filter((s) => s.member_id === alex);
      const calls = (await Promise.all(sessions.map((s) => callsOf(api, s.dialsession_id)))).flat();
      const byContact = new Map<string, CallRow[]>();
      for (const call of calls) byContact.set(call.user_id, [...(byContact.get(call.user_id) ?? []), call]);
      expect(byContact.size).toBeGreaterThan(30);
      expect([...byContact.values()].some((list) => list.length > 1)).toBe(true);
      for (const [contactId, list] of byContact) {
        const latest = list.reduce((a, b) => (b.start_when > a.start_when ? b : a));
        const first = list.reduce((a, b) => (b.start_when < a.start_when ? b : a));
        const record = (await api.get(`/rest/1/contacts/${contactId}`)).body.contacts.contacts[0];
        expect(record, contactId).toMatchObject({
          total_calls: String(list.length),
          call_result: latest.disposition,
          last_call_time: latest.start_when,
        });
        expect(record.date_added < first.start_when, contactId).toBe(true);
        const activities = (await api.get(`/rest/1/contacts/${contactId}/activities?days=30`)).body.contact_activities.contact_activities;
        expect(
          activities.filter((a: { activity_id: string }) => Number(a.activity_id) === 13),
          contactId,
        ).toHaveLength(list.length);
      }
    });
  });
});

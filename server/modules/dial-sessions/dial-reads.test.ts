import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { demoRecording } from '../../dialer/demo-audio.js';
import { nowMs, resetClock, setClock } from '../../lib/clock.js';
import { now } from '../../lib/time.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { insertVoicemail } from '../dial-library/dial-library.repository.js';

/*
 * The reads of dial sessions, calls and usage, over sessions driven for real through the simulated carrier (its
 * outcome is the number's last digit: 0-4 a person, 5-6 a machine, 8 busy, 9 not in service).
 */
let server: TestServer;
let team: Team;
let as: (member: Member) => Caller;
let rep: Caller;
const sessions = { early: '', main: '', second: '', team: '', outside: '', idle: '' };
/** The calls of the main session, in the order they were placed: a person, a machine, busy, not in service. */
let mainCalls: string[] = [];
let messageId: string;
let recordingName: string;

const contact = (first_name: string, phone: string) => ({ first_name, last_name: 'Dialed', phone });

async function newSession(api: Caller, contacts: object[]): Promise<string> {
  const reply = await api.post('/rest/1/dialsession', { contacts });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.dialsessions.dialsession_id;
}

const live = async (api: Caller, id: string) => (await api.get(`/rest/1/dialsession/${id}/live`)).body.live;

/** Re-reads the session's snapshot until `ready` holds: the carrier runs on real (scaled) timers. */
async function until(api: Caller, id: string, what: string, ready: (snapshot: any) => boolean) {
  for (let tries = 0; tries < 250; tries++) {
    const snapshot = await live(api, id);
    if (ready(snapshot)) return snapshot;
    await pause(20);
  }
  throw new Error(`dial session ${id} never reached: ${what}`);
}

async function act(api: Caller, id: string, action: string, body: object = {}) {
  const reply = await api.post(`/rest/1/dialsession/${id}/${action}`, body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.live;
}

const dispositionId = (snapshot: any, label: string) => snapshot.dispositions.find((d: any) => d.label === label).disposition_id as string;
const connected = (position: number) => (s: any) => s.phase === 'connected' && s.position === position;
const ended = (s: any) => s.session.status === 'ended';
/** Moves the product's clock on, as if the call went on that long. */
const talkFor = (minutes: number) => setClock(new Date(nowMs() + minutes * 60_000));

async function driveMainSession() {
  sessions.main = await newSession(rep, [
    contact('Ann', '2125550100'),
    contact('Ben', '2125550105'),
    contact('Cid', '2125550108'),
    contact('Dee', '2125550109'),
  ]);
  await act(rep, sessions.main, 'start');
  const up = await until(rep, sessions.main, 'Ann answers', connected(0));
  await act(rep, sessions.main, 'note', { note: 'Asked for a quote' });
  talkFor(5);
  await act(rep, sessions.main, 'disposition', { disposition_id: dispositionId(up, 'Interested') });
  const machine = await until(rep, sessions.main, "Ben's machine answers", (s) => s.phase === 'machine' && s.position === 1);
  await act(rep, sessions.main, 'voicemail', { recording_id: machine.voicemails.find((v: any) => v.name === recordingName).recording_id });
  await until(rep, sessions.main, 'the session ends', ended);
  const detail = await rep.get(`/rest/1/dialsession/${sessions.main}`);
  mainCalls = detail.body.dialsessions.dialsessions.calls.map((c: any) => c.call_id);
}

/** Two people answer: one talks a minute and is not interested, the other is dispositioned from the Dialing set. */
async function driveSecondSession() {
  sessions.second = await newSession(rep, [contact('Eve', '2125550111'), contact('Fay', '2125550112')]);
  await act(rep, sessions.second, 'start');
  const up = await until(rep, sessions.second, 'Eve answers', connected(0));
  talkFor(1);
  await act(rep, sessions.second, 'disposition', { disposition_id: dispositionId(up, 'Not Interested') });
  await until(rep, sessions.second, 'Fay answers', connected(1));
  await act(rep, sessions.second, 'disposition', { disposition_id: dispositionId(up, 'No Answer') });
  await until(rep, sessions.second, 'the session ends', ended);
}

async function busySession(api: Caller, name: string, phone: string) {
  const id = await newSession(api, [contact(name, phone)]);
  await act(api, id, 'start');
  await until(api, id, 'the session ends', ended);
  return id;
}

beforeAll(async () => {
  setClock(new Date('2026-11-01T15:00:00Z'));
  ({ server, team, api: as } = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02' }));
  rep = as(team.rep);
  sessions.early = await newSession(rep, [contact('Early', '2125550120')]);
  // A weekday afternoon in New York, so calling hours hold whatever the real hour.
  setClock(new Date('2026-11-23T18:00:00Z'));
  recordingName = 'Sorry I missed you';
  await server.ctx.store.write((tx) =>
    insertVoicemail(tx, {
      org_id: team.vendor.org_id,
      member_id: team.rep.id,
      name: recordingName,
      content_type: 'audio/wav',
      audio: demoRecording(0, 2),
      duration_ms: 2000,
      created_at: now(),
    }),
  );
  messageId = (await rep.get('/rest/1/content?type=onetouch')).body.content.emails[0].message_id;
  expect((await rep.put('/rest/1/dialsession/settings', { interested: messageId })).status).toBe(200);
  await driveMainSession();
  await driveSecondSession();
  sessions.team = await busySession(as(team.teammate), 'Gus', '2125550208');
  sessions.outside = await busySession(as(team.outsider), 'Hal', '2125550308');
  sessions.idle = await newSession(rep, [contact('Ivy', '2125550121')]);
}, 60_000);
afterAll(async () => {
  resetClock();
  await server?.close();
});

const listed = async (api: Caller, query = '') => (await api.get(`/rest/1/dialsession${query}`)).body.dialsessions;
const ids = (list: { dialsessions: { dialsession_id: string }[] }) => list.dialsessions.map((s) => s.dialsession_id);

describe('GET /rest/1/dialsession', () => {
  it("lists the caller's sessions newest first, without calls, paging fields as numbers", async () => {
    const list = await listed(rep);
    expect(ids(list)).toEqual([sessions.idle, sessions.second, sessions.main, sessions.early]);
    expect(list).toMatchObject({ page: 1, page_size: 25, total_results: 4, total_pages: 1 });
    for (const s of list.dialsessions) expect(s).not.toHaveProperty('calls');
    const main = list.dialsessions.find((s: any) => s.dialsession_id === sessions.main);
    expect(main).toMatchObject({
      callerid: null,
      call_count: 4,
      status: 'ended',
      member_id: String(team.rep.id),
      contact_count: 4,
      preview_mode: '0',
    });
    for (const key of ['start_when', 'end_when', 'connected_when', 'disconnected_when'])
      expect(main[key]).toMatch(/^2026-11-23 \d{2}:\d{2}:\d{2}$/);
    expect(list.dialsessions[0]).toMatchObject({ status: 'ready', call_count: 0, start_when: null, end_when: null, connected_when: null });
  });

  it('pages through page and page_size', async () => {
    const second = await listed(rep, '?page=2&page_size=3');
    expect(ids(second)).toEqual([sessions.early]);
    expect(second).toMatchObject({ page: 2, page_size: 3, total_results: 4, total_pages: 2 });
  });

  it.each([
    ['?date_start=2026-11-02', () => [sessions.idle, sessions.second, sessions.main]],
    ['?date_end=2026-11-01', () => [sessions.early]],
    ['?date_start=2026-11-01&date_end=2026-11-01', () => [sessions.early]],
    ['?date_start=2026-11-24', () => []],
  ])('filters by the day each session was made: %s', async (query, expected) => {
    expect(ids(await listed(rep, query))).toEqual(expected());
  });

  it.each([
    ['rep', () => team.rep, () => [sessions.idle, sessions.second, sessions.main, sessions.early]],
    ['manager (its team)', () => team.manager, () => [sessions.idle, sessions.team, sessions.second, sessions.main, sessions.early]],
    [
      'vendor (everyone)',
      () => team.vendor,
      () => [sessions.idle, sessions.outside, sessions.team, sessions.second, sessions.main, sessions.early],
    ],
    ['teammate (its own only)', () => team.teammate, () => [sessions.team]],
    ['another organisation', () => team.otherVendor, () => []],
  ])('shows the %s what its scope holds', async (_who, member, expected) => {
    expect(ids(await listed(as(member())))).toEqual(expected());
  });

  it.each([
    ['date_start', '?date_start=23-11-2026'],
    ['date_start', '?date_start=2026-13-45'],
    ['date_end', '?date_end=2026-02-30'],
    ['date_end', '?date_end=tomorrow'],
    ['page', '?page=0'],
    ['page_size', '?page_size=101'],
  ])('answers 400 naming %s for %s', async (field, query) => {
    const reply = await rep.get(`/rest/1/dialsession${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes).toEqual([expect.objectContaining({ code: 40003, field, reason: expect.stringContaining(field) })]);
  });
});

const CALL_FIELDS = [
  'call_id',
  'user_id',
  'phone',
  'start_when',
  'end_when',
  'connected',
  'voicemail',
  'voicemail_sent',
  'email_sent',
  'email_ok',
  'hangup_status',
  'message_id',
  'note',
  'disposition',
  'duration',
  'transcript_id',
  'transcript',
  'contact_name',
  // Extensions (docs/api.md): where the call's recording and transcript stand, and why a transcript is missing.
  'recording_status',
  'transcript_status',
  'transcript_reason',
];

describe('GET /rest/1/dialsession/{id}', () => {
  it("answers one object with its calls and every field of the contract's Call", async () => {
    const reply = await rep.get(`/rest/1/dialsession/${sessions.main}`);
    expect(reply.status).toBe(200);
    const { dialsessions } = reply.body;
    expect(dialsessions).toMatchObject({ page: 1, page_size: 25, total_results: 4, total_pages: 1 });
    const record = dialsessions.dialsessions;
    expect(record).toMatchObject({ dialsession_id: sessions.main, call_count: 4, status: 'ended' });
    expect(record.calls.map((c: any) => Object.keys(c).sort())).toEqual(Array(4).fill([...CALL_FIELDS].sort()));
    const [person, machine, busy, bad] = record.calls;
    expect(person).toMatchObject({
      phone: '2125550100',
      connected: '1',
      voicemail: '0',
      voicemail_sent: null,
      email_sent: '0',
      email_ok: '0',
      hangup_status: 'completed',
      message_id: messageId,
      note: 'Asked for a quote',
      disposition: 'Interested',
      transcript_id: null,
      transcript: null,
      contact_name: 'Ann Dialed',
    });
    expect(person.duration).toBeGreaterThanOrEqual(300);
    expect(person.start_when).toMatch(/^2026-11-23 \d{2}:\d{2}:\d{2}$/);
    expect(person.end_when > person.start_when).toBe(true);
    expect(machine).toMatchObject({
      phone: '2125550105',
      connected: '0',
      voicemail: '1',
      voicemail_sent: recordingName,
      disposition: 'Voicemail',
      hangup_status: 'voicemail left',
      message_id: '',
    });
    expect(busy).toMatchObject({ phone: '2125550108', connected: '0', disposition: 'Busy', hangup_status: 'busy' });
    expect(bad).toMatchObject({ phone: '2125550109', connected: '0', disposition: 'Bad Phone', hangup_status: 'not in service' });
    const named = await rep.get(`/rest/1/contacts/${person.user_id}`);
    expect(named.body.contacts.contacts[0]).toMatchObject({ first_name: 'Ann', total_calls: '1' });
  });

  it('pages through the calls', async () => {
    const page = (await rep.get(`/rest/1/dialsession/${sessions.main}?page=2&page_size=3`)).body.dialsessions;
    expect(page).toMatchObject({ page: 2, page_size: 3, total_results: 4, total_pages: 2 });
    expect(page.dialsessions.calls.map((c: any) => c.call_id)).toEqual([mainCalls[3]]);
    expect(page.dialsessions.call_count).toBe(4);
  });

  it("adds recording_url with include_recording=1 (the answered calls' from their answer, null for the others), and only then", async () => {
    const withRecording = (await rep.get(`/rest/1/dialsession/${sessions.main}?include_recording=1&include_transcript=1`)).body.dialsessions
      .dialsessions;
    // This server transcribes nothing (TRANSCRIBER=none): no transcript_id, no summary object.
    for (const call of withRecording.calls) expect(call).toMatchObject({ transcript_id: null, transcript: null });
    expect(withRecording.calls.map((c: any) => c.recording_url)).toEqual([
      ...mainCalls.slice(0, 2).map((id) => `${server.ctx.config.publicUrl}/rest/1/dialsession/call/${id}/recording`),
      null,
      null,
    ]);
    const without = (await rep.get(`/rest/1/dialsession/${sessions.main}?include_recording=0`)).body.dialsessions.dialsessions;
    for (const call of without.calls) expect(call).not.toHaveProperty('recording_url');
  });

  it('answers a session without calls with an empty list', async () => {
    const record = (await rep.get(`/rest/1/dialsession/${sessions.idle}/`)).body.dialsessions.dialsessions;
    expect(record).toMatchObject({ status: 'ready', call_count: 0, calls: [] });
  });

  it.each([
    ['the manager', 200, () => team.manager],
    ['the vendor', 200, () => team.vendor],
    ['a teammate', 404, () => team.teammate],
    ['the outsider', 404, () => team.outsider],
    ['another organisation', 404, () => team.otherVendor],
  ])("answers the rep's session to %s with %i", async (_who, status, member) => {
    const reply = await as(member()).get(`/rest/1/dialsession/${sessions.main}`);
    expect(reply.status).toBe(status);
    if (status === 404) expect(reply.body.debug_codes[0].code).toBe(40401);
  });

  it('answers 404 for an unknown id', async () => {
    const reply = await rep.get('/rest/1/dialsession/999999');
    expect([reply.status, reply.body.status, reply.body.debug_codes[0].code]).toEqual([404, 'error', 40401]);
  });

  it.each(['abc', '0', '-3', '1.5', '9'.repeat(20)])('answers 400 naming dialsession_id for the id %s', async (id) => {
    const reply = await rep.get(`/rest/1/dialsession/${id}`);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ field: 'dialsession_id', reason: expect.stringContaining('dialsession_id') });
  });

  it.each([
    ['page', 'page=0'],
    ['page_size', 'page_size=0'],
    ['include_recording', 'include_recording=maybe'],
  ])('answers 400 naming %s', async (field, query) => {
    const reply = await rep.get(`/rest/1/dialsession/${sessions.main}?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0].field).toBe(field);
  });
});

describe('GET /rest/1/dialsession/call', () => {
  it.each([
    ['in the path', (id: string) => `/rest/1/dialsession/call/${id}`],
    ['as ?call_id=', (id: string) => `/rest/1/dialsession/call?call_id=${id}`],
  ])('answers call.call plus paging fields, the id %s', async (_how, path) => {
    const reply = await rep.get(path(mainCalls[0]!));
    expect(reply.status).toBe(200);
    expect(reply.body.call).toMatchObject({ page: 1, page_size: 1, total_results: 1, total_pages: 1 });
    const detail = (await rep.get(`/rest/1/dialsession/${sessions.main}`)).body.dialsessions.dialsessions.calls[0];
    expect(reply.body.call.call).toEqual(detail);
  });

  it('adds recording_url with include_recording=1', async () => {
    const reply = await rep.get(`/rest/1/dialsession/call/${mainCalls[1]}?include_recording=1`);
    expect(reply.body.call.call).toMatchObject({
      call_id: mainCalls[1],
      voicemail: '1',
      recording_url: expect.stringMatching(/\/recording$/),
      transcript: null,
    });
    expect((await rep.get(`/rest/1/dialsession/call/${mainCalls[2]}?include_recording=1`)).body.call.call).toMatchObject({
      recording_url: null,
    });
  });

  it.each([
    ['the manager', 200, () => team.manager],
    ['the vendor', 200, () => team.vendor],
    ['a teammate', 404, () => team.teammate],
    ['the outsider', 404, () => team.outsider],
    ['another organisation', 404, () => team.otherVendor],
  ])("answers the rep's call to %s with %i", async (_who, status, member) => {
    expect((await as(member()).get(`/rest/1/dialsession/call/${mainCalls[0]}`)).status).toBe(status);
    expect((await as(member()).get(`/rest/1/dialsession/call?call_id=${mainCalls[0]}`)).status).toBe(status);
  });

  it('names the contact as it is now, and answers an empty name once the contact is deleted for good', async () => {
    const [, , busy, bad] = (await rep.get(`/rest/1/dialsession/${sessions.main}`)).body.dialsessions.dialsessions.calls;
    expect((await rep.put(`/rest/1/contacts/${busy.user_id}`, { first_name: 'Cyd', last_name: 'Renamed' })).status).toBe(200);
    expect((await rep.delete(`/rest/1/contacts/${bad.user_id}?permanent=1`)).status).toBe(204);
    expect((await rep.get(`/rest/1/dialsession/call/${busy.call_id}`)).body.call.call.contact_name).toBe('Cyd Renamed');
    const calls = (await rep.get(`/rest/1/dialsession/${sessions.main}`)).body.dialsessions.dialsessions.calls;
    expect(calls.map((c: any) => c.contact_name)).toEqual(['Ann Dialed', 'Ben Dialed', 'Cyd Renamed', '']);
    expect(calls[3]).toMatchObject({ call_id: bad.call_id, user_id: bad.user_id, disposition: 'Bad Phone' });
  });

  it('answers 404 for an unknown call', async () => {
    expect((await rep.get('/rest/1/dialsession/call/999999')).status).toBe(404);
  });

  it.each(['/rest/1/dialsession/call/abc', '/rest/1/dialsession/call?call_id=abc', '/rest/1/dialsession/call?call_id=0'])(
    'answers 400 naming call_id for %s',
    async (path) => {
      const reply = await rep.get(path);
      expect(reply.status).toBe(400);
      expect(reply.body.debug_codes[0].field).toBe('call_id');
    },
  );
});

const usage = (api: Caller, start: string, end: string) => api.get(`/rest/1/dialsession/usage?date_start=${start}&date_end=${end}`);
const figures = (over: Partial<Record<string, number>> = {}) => ({
  sessions: 0,
  calls: 0,
  connected: 0,
  voicemail: 0,
  emails: 0,
  talktime: 0,
  avg_talktime: 0,
  ...over,
});
const memberKeys = (body: Record<string, unknown>) =>
  Object.keys(body)
    .filter((k) => /^\d+$/.test(k))
    .sort();

describe('GET /rest/1/dialsession/usage', () => {
  it('answers the seven figures of the rep, from its calls, talk time in minutes', async () => {
    const reply = await usage(rep, '2026-11-23', '2026-11-23');
    expect(reply.status).toBe(200);
    expect(reply.body.usage).toEqual({
      // Ann talked 5 minutes and Eve 1 (Live Answer dispositions); Fay answered but was dispositioned No Answer.
      [team.rep.id]: figures({ sessions: 2, calls: 6, connected: 2, voicemail: 1, talktime: 6, avg_talktime: 3 }),
      page: 1,
      page_size: 1,
      total_results: 1,
      total_pages: 1,
    });
  });

  it('covers the manager and its team, keyed by member id', async () => {
    const { usage: body } = (await usage(as(team.manager), '2026-11-01', '2026-11-30')).body;
    expect(memberKeys(body)).toEqual([team.manager.id, team.rep.id, team.teammate.id].map(String).sort());
    expect(body[team.teammate.id]).toEqual(figures({ sessions: 1, calls: 1 }));
    expect(body[team.manager.id]).toEqual(figures());
    expect(body[team.rep.id]).toMatchObject({ sessions: 2, calls: 6 });
  });

  it('covers everyone for the vendor, and no one of another organisation', async () => {
    const { usage: body } = (await usage(as(team.vendor), '2026-11-23', '2026-11-23')).body;
    expect(memberKeys(body)).toEqual([team.vendor, team.manager, team.rep, team.teammate, team.outsider].map((m) => String(m.id)).sort());
    expect(body[team.outsider.id]).toEqual(figures({ sessions: 1, calls: 1 }));
    const other = (await usage(as(team.otherVendor), '2026-11-23', '2026-11-23')).body.usage;
    expect(memberKeys(other)).toEqual([String(team.otherVendor.id)]);
    expect(other[team.otherVendor.id]).toEqual(figures());
  });

  it('counts only calls started within the dates', async () => {
    expect((await usage(rep, '2026-08-25', '2026-11-22')).body.usage[team.rep.id]).toEqual(figures());
  });

  it('accepts 90 days and refuses 91 with 403', async () => {
    expect((await usage(rep, '2026-08-25', '2026-11-23')).status).toBe(200);
    const reply = await usage(rep, '2026-08-24', '2026-11-23');
    expect([reply.status, reply.body.debug_codes[0].code]).toEqual([403, 40301]);
    expect(reply.body.debug_codes[0].reason).toMatch(/90 days/);
  });

  it.each([
    ['', ['date_start', 'date_end']],
    ['?date_start=2026-11-01', ['date_end']],
    ['?date_end=2026-11-01', ['date_start']],
    ['?date_start=2026-02-30&date_end=2026-03-01', ['date_start']],
    ['?date_start=2026-11-01&date_end=11/02/2026', ['date_end']],
    ['?date_start=2026-11-02&date_end=2026-11-01', ['date_end']],
  ])('answers 400 to %s naming %j', async (query, fields) => {
    const reply = await rep.get(`/rest/1/dialsession/usage${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes.map((d: any) => d.field)).toEqual(fields);
    for (const d of reply.body.debug_codes) expect(d.reason).toContain(d.field);
  });
});

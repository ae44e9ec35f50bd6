import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../callbacks/signing.js';
import type { Member } from '../../db/schema.js';
import { demoRecording } from '../../dialer/demo-audio.js';
import { nowMs, resetClock, setClock } from '../../lib/clock.js';
import { now } from '../../lib/time.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { type Receiver, startReceiver } from '../../test/receiver.js';
import { openStream, type SseStream } from '../../test/sse.js';
import { insertVoicemail } from '../dial-library/dial-library.repository.js';

/*
 * Dial sessions run for real: the simulated carrier at CARRIER_TIME_SCALE 0.02, the delivery worker sending to a
 * receiver on 127.0.0.1, the clock on a weekday afternoon in every US zone. Tests wait on the session's own event
 * stream, as the dialer screen does.
 */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let rep: Caller;
let receiver: Receiver;
let recordingId: number;
let secret: string;

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  ({ server, team, api } = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02', CALLBACK_ALLOWED_HOSTS: '127.0.0.1' }));
  rep = api(team.rep);
  receiver = await startReceiver();
  const audio = demoRecording(0, 2);
  recordingId = (
    await server.ctx.store.write((tx) =>
      insertVoicemail(tx, {
        org_id: team.rep.org_id,
        member_id: null,
        name: 'Intro',
        content_type: 'audio/wav',
        audio,
        duration_ms: 2000,
        created_at: now(),
      }),
    )
  ).id;
  secret = (await api(team.vendor).get('/rest/1/dialsession/settings')).body.settings.settings.callback_secret;
});
afterAll(async () => {
  resetClock();
  await receiver?.close();
  await server?.close();
});
beforeEach(() => void receiver.received.splice(0));

let n = 0;
const TYPES = ['api_contact_displayed', 'api_callbegin', 'api_calldone'] as const;
const callbacks = () => TYPES.map((t) => ({ callback_type: t, callback: `${receiver.url}/${t}?secret=abc` }));
/** Contacts whose last digit picks the carrier's outcome; `extra` per index. */
const contactsEnding = (digits: number[], extra: Record<number, object> = {}) =>
  digits.map((d, i) => ({
    first_name: `Digit${d}`,
    last_name: `N${++n}`,
    phone: `312473${String((n % 900) + 100)}${d}`,
    allow_duplicates: 1,
    ...extra[i],
  }));

type Live = {
  call_state: string;
  position: number | null;
  dispositions: { disposition_id: string; label: string }[];
  progress: Record<string, number>;
  call: { phone: string } | null;
};

async function launch(body: object, who: Caller = rep): Promise<{ id: string; stream: SseStream; live: () => Promise<Live> }> {
  const created = await who.post('/rest/1/dialsession', body);
  expect(created.status, created.text).toBe(201);
  const id = created.body.dialsessions.dialsession_id as string;
  const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, {
    authorization: `Bearer ${server.tokenOf(team.rep)}`,
  });
  return { id, stream, live: async () => (await who.get(`/rest/1/dialsession/${id}/live`)).body.live };
}
const stateIs = (position: number, callState: string) => (e: { event: string; data: any }) =>
  e.event === 'state' && e.data.position === position && e.data.call_state === callState;
const complete = (e: { event: string; data: any }) => e.event === 'state' && e.data.call_state === 'Session complete';
const dispositionId = async (live: () => Promise<Live>, label: string) =>
  (await live()).dispositions.find((d) => d.label === label)!.disposition_id;

describe('a power session', () => {
  it('dials each contact as it comes up, follows the carrier, and sends every callback in order, signed', async () => {
    const { id, stream, live } = await launch({
      contacts: contactsEnding([0, 5, 7, 8, 9, 1], { 5: { do_not_call: 1 } }),
      callbacks: callbacks(),
      custom_data: { crm: 'x' },
      send_skips: 1,
    });
    await rep.post(`/rest/1/dialsession/${id}/start`);
    await stream.waitFor(stateIs(0, 'Connected'));
    expect((await rep.post(`/rest/1/dialsession/${id}/note`, { note: 'Wants a demo on Friday' })).status).toBe(200);
    await rep.post(`/rest/1/dialsession/${id}/disposition`, { disposition_id: await dispositionId(live, 'Interested') });
    await stream.waitFor(stateIs(1, 'Answering machine'));
    await rep.post(`/rest/1/dialsession/${id}/voicemail`, { recording_id: recordingId });
    for (const [position, state] of [
      [1, 'Voicemail left'],
      [2, 'No answer'],
      [3, 'Busy'],
      [4, 'Not in service'],
      [5, 'Skipped'],
    ] as const) {
      await stream.waitFor(stateIs(position, state));
    }
    await stream.waitFor(complete);
    stream.close();

    const got = await receiver.waitFor(16);
    const order = got.map((r) => `${r.path.replace('/api_', '')}:${JSON.parse(r.body).call_id ?? JSON.parse(r.body).contact_user_id}`);
    expect(
      got.map((r) => r.path),
      order.join(' '),
    ).toEqual(
      [
        ...['contact_displayed', 'callbegin'],
        ...['contact_displayed', 'calldone', 'callbegin'],
        ...['contact_displayed', 'calldone', 'callbegin'],
        ...['contact_displayed', 'calldone', 'callbegin'],
        ...['contact_displayed', 'calldone', 'callbegin'],
        'calldone',
        'calldone',
      ].map((t) => `/api_${t}`),
    );
    for (const r of got) {
      expect(r.query).toBe('secret=abc');
      // Signed with real time, whatever the product's clock (set above) says: as a receiver checks it.
      expect(verifySignature(secret, r.headers, r.body, new Date()), r.path).toBe(true);
    }
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(got.length);

    const done = got.filter((r) => r.path === '/api_calldone').map((r) => JSON.parse(r.body));
    expect(done.map((d) => d.status)).toEqual(['Interested', 'Voicemail', 'No Answer', 'Busy', 'Skipped - DNC', 'Bad Phone']);
    expect(done[0]).toMatchObject({
      connected: '1',
      ds_id: Number(id),
      call_id: expect.stringMatching(/^\d+$/),
      custom_data: { crm: 'x' },
      custom_fields: false,
      recording_url: expect.stringMatching(/\/rest\/1\/dialsession\/call\/\d+\/recording$/),
      call_notes: ['Wants a demo on Friday'],
      duration: expect.any(Number),
      contact: {
        user_id: expect.any(Number),
        first_name: 'Digit0',
        phones: [{ number: expect.stringMatching(/0$/), phone_type: 'HOME' }],
        notes: expect.stringContaining('Wants a demo on Friday'),
      },
      agent: { user_id: team.rep.id, username: team.rep.username },
      owner: { user_id: team.rep.id },
    });
    expect(done[4]).toMatchObject({
      status: 'Skipped - DNC',
      duration: 0,
      connected: '0',
      call_id: '',
      call_notes: [expect.stringMatching(/^Skipped - DNC: /)],
    });
    const begins = got.filter((r) => r.path === '/api_callbegin').map((r) => JSON.parse(r.body));
    expect(begins[0]).toEqual({ lead_id: '', custom_data: { crm: 'x' }, ds_id: Number(id), call_id: done[0].call_id });
    const displayed = JSON.parse(got[0]!.body);
    expect(displayed).toEqual({
      endpoint: 'api_contact_displayed',
      contact_user_id: done[0].contact.user_id,
      lead_id: '',
      external_id: '',
      external_crm: [],
    });

    const contact = (await rep.get(`/rest/1/contacts/${done[0].contact.user_id}`)).body.contacts.contacts[0];
    expect(contact).toMatchObject({
      call_result: 'Interested',
      total_calls: '1',
      last_call_time: expect.stringMatching(/^2026-11-23 /),
      contacted: expect.stringMatching(/^2026-11-23 /),
    });
    const activities = (await rep.get(`/rest/1/contacts/${contact.contact_user_id}/activities?days=1`)).body.contact_activities
      .contact_activities;
    expect(activities.map((a: { activity: string }) => a.activity)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Called \(312\) 473-\d{4}: Interested \(dial session \d+\)$/), 'Note added']),
    );

    const session = (await rep.get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions;
    expect(session).toMatchObject({
      status: 'ended',
      call_count: 5,
      start_when: expect.any(String),
      end_when: expect.any(String),
      connected_when: expect.any(String),
    });
    expect(session.calls.map((c: { disposition: string }) => c.disposition)).toEqual([
      'Interested',
      'Voicemail',
      'No Answer',
      'Busy',
      'Bad Phone',
    ]);
    expect(session.calls[1]).toMatchObject({ voicemail: '1', voicemail_sent: 'Intro', connected: '0' });
  });

  it('sends no skip results when skip sending is off (the account default)', async () => {
    const { id, stream } = await launch({ contacts: contactsEnding([8, 8], { 0: { do_not_call: 1 } }), callbacks: callbacks() });
    await rep.post(`/rest/1/dialsession/${id}/start`);
    await stream.waitFor(complete);
    stream.close();
    const got = await receiver.waitFor(3);
    expect(got.map((r) => r.path)).toEqual(['/api_contact_displayed', '/api_callbegin', '/api_calldone']);
  });

  it('ends a call still up when the rep ends the session, and reports it without a disposition', async () => {
    const { id, stream, live } = await launch({ contacts: contactsEnding([1, 2]), callbacks: callbacks() });
    await rep.post(`/rest/1/dialsession/${id}/start`);
    await stream.waitFor(stateIs(0, 'Connected'));
    const ended = await rep.post(`/rest/1/dialsession/${id}/end`);
    expect(ended.body.live).toMatchObject({ call_state: 'Session complete' });
    expect((await live()).progress).toMatchObject({ finished: 1, total: 2 });
    const done = JSON.parse((await receiver.waitFor(3))[2]!.body);
    expect(done).toMatchObject({ status: '', connected: '1' });
    stream.close();
  });
});

describe('a preview session', () => {
  it('waits for Call on the number the rep chooses, and skips on request', async () => {
    const [first, second] = contactsEnding([8, 3]);
    const { id, stream, live } = await launch({
      contacts: [first, { ...second, additional_phone: [{ number: '3124739993', phone_type: 2 }] }],
      preview_mode: 1,
      callbacks: callbacks(),
      send_skips: 1,
    });
    await rep.post(`/rest/1/dialsession/${id}/start`);
    await stream.waitFor(stateIs(0, 'Ready to call'));
    expect((await rep.post(`/rest/1/dialsession/${id}/hangup`)).status).toBe(409);
    await rep.post(`/rest/1/dialsession/${id}/skip`);
    await stream.waitFor(stateIs(1, 'Ready to call'));
    expect((await rep.post(`/rest/1/dialsession/${id}/call`, { phone: '2125550000' })).status).toBe(400);
    await rep.post(`/rest/1/dialsession/${id}/call`, { phone: '(312) 473-9993' });
    await stream.waitFor(stateIs(1, 'Connected'));
    expect((await live()).call).toMatchObject({ phone: '3124739993' });
    expect((await rep.post(`/rest/1/dialsession/${id}/skip`)).status).toBe(409);
    await rep.post(`/rest/1/dialsession/${id}/hangup`);
    await rep.post(`/rest/1/dialsession/${id}/disposition`, { disposition_id: await dispositionId(live, 'Call Back') });
    await stream.waitFor(complete);
    stream.close();
    const done = (await receiver.waitFor(5)).filter((r) => r.path === '/api_calldone').map((r) => JSON.parse(r.body).status);
    expect(done).toEqual(['Skipped - Manual', 'Call Back']);
  });
});

describe('who may see and act', () => {
  it("lets the manager watch a rep's session but only the rep act in it; others get 404", async () => {
    const { id, stream } = await launch({ contacts: contactsEnding([1]), preview_mode: 1 });
    stream.close();
    expect((await api(team.manager).get(`/rest/1/dialsession/${id}/live`)).status).toBe(200);
    const refused = await api(team.manager).post(`/rest/1/dialsession/${id}/start`);
    expect([refused.status, refused.body.debug_codes[0].code]).toEqual([403, 40301]);
    for (const who of [team.teammate, team.outsider, team.otherVendor]) {
      expect((await api(who).get(`/rest/1/dialsession/${id}/live`)).status).toBe(404);
      expect((await api(who).post(`/rest/1/dialsession/${id}/start`)).status).toBe(404);
    }
    expect((await rep.post(`/rest/1/dialsession/${id}/dance`)).status).toBe(400);
    expect((await rep.post(`/rest/1/dialsession/${id}/disposition`, { disposition_id: 'x' })).status).toBe(400);
  });
});

describe('the event stream', () => {
  it('resumes after Last-Event-ID with what came next, and nothing before', async () => {
    const { id, stream } = await launch({ contacts: contactsEnding([8, 9]) });
    await rep.post(`/rest/1/dialsession/${id}/start`);
    const finished = await stream.waitFor(complete);
    const middle = stream.events[Math.floor(stream.events.length / 2)]!;
    stream.close();
    const resumed = await openStream(`${server.url}/rest/1/dialsession/${id}/events`, {
      authorization: `Bearer ${server.tokenOf(team.rep)}`,
      'last-event-id': middle.id,
    });
    await resumed.waitFor((e) => e.id === finished.id);
    expect(resumed.events[0]!.id).toBe(stream.events[stream.events.indexOf(middle) + 1]!.id);
    resumed.close();
  });
});

describe('delivery', () => {
  /** The callback row once its attempt number `attempts` has been recorded (its lease given back). */
  async function recorded(sessionId: string, attempts: number) {
    for (let i = 0; i < 200; i++) {
      const row = await server.ctx.store.db.selectFrom('outbox').selectAll().where('session_id', '=', Number(sessionId)).executeTakeFirst();
      if (row && row.attempts >= attempts && row.lease_owner === null) return row;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`attempt ${attempts} was never recorded`);
  }

  it('retries a receiver that fails, with the same webhook-id, until it answers 2xx', async () => {
    receiver.failNext(2, 503);
    const { id, stream } = await launch({ contacts: contactsEnding([8]), callbacks: [callbacks()[0]!] });
    await rep.post(`/rest/1/dialsession/${id}/start`);
    stream.close();
    // Each failure puts the next attempt seconds ahead: the clock is moved past it rather than waited for.
    for (const attempt of [1, 2]) {
      expect(await recorded(id, attempt)).toMatchObject({ state: 'pending', last_status: 503 });
      setClock(new Date(nowMs() + 60_000));
    }
    expect(await recorded(id, 3)).toMatchObject({ state: 'delivered', attempts: 3, last_status: 200 });
    const got = receiver.received;
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });
});

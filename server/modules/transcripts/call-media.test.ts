import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { resetClock, setClock } from '../../lib/clock.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { type Receiver, startReceiver } from '../../test/receiver.js';
import { openStream, type SseEvent } from '../../test/sse.js';

/*
 * Issue 15, parts 2 and 3: what remains of a call. The simulated carrier records it (two channels, Ogg Opus, real
 * speech), Ringbook fetches the recording, PocketSphinx transcribes each channel, and the summary follows; the API
 * serves the recording with Range and the transcript, each only to whoever may see the call.
 */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let receiver: Receiver;

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  ({ server, team, api } = await serverWithTeam({
    CARRIER_TIME_SCALE: '0.02',
    CALLBACK_ALLOWED_HOSTS: '127.0.0.1',
    TRANSCRIBER: 'pocketsphinx',
  }));
  receiver = await startReceiver();
});
afterAll(async () => {
  resetClock();
  await receiver?.close();
  await server?.close();
});

const stateIs = (callState: string) => (e: SseEvent) => e.event === 'state' && e.data.call_state === callState;

/** Polls the call until its transcript reaches `status` (the job runs in the background). */
async function callWhen(who: Caller, callId: string, done: (call: any) => boolean, timeoutMs = 90_000) {
  const started = Date.now();
  for (;;) {
    const call = (await who.get(`/rest/1/dialsession/call/${callId}?include_recording=1&include_transcript=1`)).body.call.call;
    if (done(call)) return call;
    if (Date.now() - started > timeoutMs) throw new Error(`call ${callId} stayed ${call.recording_status}/${call.transcript_status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a call a person answered', () => {
  let callId: string;
  let rep: Caller;
  beforeAll(async () => {
    rep = api(team.rep);
    const created = await rep.post('/rest/1/dialsession', {
      contacts: [{ first_name: 'Heard', phone: '3124780001', allow_duplicates: 1 }],
      callbacks: [{ callback_type: 'api_calldone', callback: `${receiver.url}/done` }],
    });
    const id = created.body.dialsessions.dialsession_id;
    const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, {
      authorization: `Bearer ${server.tokenOf(team.rep)}`,
    });
    await rep.post(`/rest/1/dialsession/${id}/start`);
    await stream.waitFor(stateIs('Connected'));
    // The conversation runs its course: a minute and a half of the simulated world at this time scale.
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    await rep.post(`/rest/1/dialsession/${id}/hangup`);
    const live = (await rep.get(`/rest/1/dialsession/${id}/live`)).body.live;
    await rep.post(`/rest/1/dialsession/${id}/disposition`, {
      disposition_id: live.dispositions.find((d: { label: string }) => d.label === 'Interested').disposition_id,
    });
    await stream.waitFor(stateIs('Session complete'));
    stream.close();
    callId = live.call.call_id;
  }, 60_000);

  it('is recorded in two channels, fetched and streamed with Range to whoever may see the call', async () => {
    const call = await callWhen(rep, callId, (c) => c.recording_status === 'stored');
    expect(call.recording_url).toBe(`${server.ctx.config.publicUrl}/rest/1/dialsession/call/${callId}/recording`);
    const path = `/rest/1/dialsession/call/${callId}/recording`;
    const whole = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.tokenOf(team.rep)}` } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/ogg; codecs=opus');
    expect(whole.headers.get('cache-control')).toBe('no-store');
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.subarray(0, 4).toString()).toBe('OggS');
    const part = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${server.tokenOf(team.manager)}`, range: 'bytes=100-199' },
    });
    expect([part.status, part.headers.get('content-range')]).toEqual([206, `bytes 100-199/${bytes.length}`]);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    const beyond = await api(team.rep).raw(path, { headers: { range: `bytes=${bytes.length}-` } });
    expect([beyond.status, beyond.body.debug_codes[0].code]).toEqual([416, 41601]);
    for (const other of [team.teammate, team.outsider, team.otherVendor]) expect((await api(other).get(path)).status).toBe(404);
  }, 120_000);

  it('is transcribed by speaker and time, then summarized; transcript_id appears only then', async () => {
    const call = await callWhen(rep, callId, (c) => c.transcript_status === 'summarized' || c.transcript_status === 'failed');
    expect(call.transcript_status).toBe('summarized');
    expect(call.transcript_id).toMatch(/^\d+$/);
    expect(call.transcript).toMatchObject({
      transcript_id: call.transcript_id,
      status: 'summarized',
      summary: expect.stringMatching(/call/),
    });
    expect(call.transcript.talk_time.map((t: { speaker_label: string; time: number }) => [t.speaker_label, t.time > 1])).toEqual([
      ['member', true],
      ['contact', true],
    ]);
    const full = (await rep.get(`/api/rest/transcript/${call.transcript_id}`)).body.transcript;
    expect(full).toMatchObject({ transcript_id: call.transcript_id, call_id: callId, status: 'summarized', engine: 'pocketsphinx' });
    expect(new Set(full.segments.map((s: { speaker_label: string }) => s.speaker_label))).toEqual(new Set(['member', 'contact']));
    const words = full.segments.flatMap((s: { words: { start: number; end: number }[] }) => s.words);
    expect(words.length).toBeGreaterThan(20);
    expect(words.every((w: { start: number; end: number }) => w.start >= 0 && w.end >= w.start && w.end <= full.duration + 0.5)).toBe(true);
    expect((await rep.get(`/rest/1/transcripts/${call.transcript_id}`)).body.transcript.segments).toEqual(full.segments);
    for (const other of [team.teammate, team.otherVendor])
      expect((await api(other).get(`/api/rest/transcript/${call.transcript_id}`)).status).toBe(404);
    expect((await api(team.manager).get(`/api/rest/transcript/${call.transcript_id}`)).status).toBe(200);
    // Search by words said: a phrase of the contact's, as recognised, finds the call; words never said find nothing.
    const phrase = full.segments
      .find((s: { speaker_label: string; words: unknown[] }) => s.speaker_label === 'contact' && s.words.length >= 3)
      .words.slice(0, 3)
      .map((w: { text: string }) => w.text)
      .join(' ');
    const found = (await rep.get(`/rest/1/calls?search=${encodeURIComponent(phrase)}`)).body.calls.calls;
    expect(found.map((c: { call_id: string }) => c.call_id)).toContain(callId);
    expect((await rep.get('/rest/1/calls?search=zebra%20xylophone%20quartz')).body.calls.calls).toEqual([]);
    expect((await api(team.teammate).get(`/rest/1/calls?search=${encodeURIComponent(phrase)}`)).body.calls.calls).toEqual([]);
  }, 120_000);

  it('tells api_calldone where its recording is', async () => {
    const done = JSON.parse((await receiver.waitFor(1)).find((r) => r.path === '/done')!.body);
    expect(done.recording_url).toBe(`${server.ctx.config.publicUrl}/rest/1/dialsession/call/${callId}/recording`);
  });
});

describe('without a transcription engine', () => {
  let bare: Awaited<ReturnType<typeof serverWithTeam>>;
  beforeAll(async () => {
    bare = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02', TRANSCRIBER: 'none' });
  });
  afterAll(() => bare?.server.close());

  it('records all the same, and the transcript says why there is none', async () => {
    const rep = bare.api(bare.team.rep);
    const created = await rep.post('/rest/1/dialsession', {
      contacts: [{ first_name: 'Unheard', phone: '3124780002', allow_duplicates: 1 }],
    });
    const id = created.body.dialsessions.dialsession_id;
    const stream = await openStream(`${bare.server.url}/rest/1/dialsession/${id}/events?after=0`, {
      authorization: `Bearer ${bare.server.tokenOf(bare.team.rep)}`,
    });
    await rep.post(`/rest/1/dialsession/${id}/start`);
    await stream.waitFor(stateIs('Connected'));
    await rep.post(`/rest/1/dialsession/${id}/end`);
    stream.close();
    const callId = (await rep.get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions.calls[0].call_id;
    const call = await callWhen(rep, callId, (c) => c.transcript_status === 'unavailable');
    expect(call).toMatchObject({
      recording_status: 'stored',
      transcript_id: null,
      transcript: null,
      transcript_reason: expect.stringMatching(/turned off/),
    });
  }, 60_000);
});

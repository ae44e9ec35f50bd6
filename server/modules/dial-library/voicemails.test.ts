import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOggOpusEncoder } from '../../audio/ogg-opus.js';
import { decodeAudio, encodeWav16 } from '../../audio/pcm.js';
import { STARTER_VOICEMAIL_NAME } from '../../audio/starter-voicemail.js';
import type { Member } from '../../db/schema.js';
import { demoRecording } from '../../dialer/demo-audio.js';
import { resetClock, setClock } from '../../lib/clock.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { openStream, type SseEvent } from '../../test/sse.js';

/* The voicemail library's writes: uploads decoded and stored as Ogg Opus, who may change what, and a drop of an upload. */
let server: TestServer;
let team: Team;
let as: (member: Member) => Caller;

const FIXTURES = path.join(import.meta.dirname, '../../audio/fixtures');
/** Two seconds of a tone, recorded by Chromium's MediaRecorder (audio/webm;codecs=opus), as the web app uploads it. */
const chromiumWebm = fs.readFileSync(path.join(FIXTURES, 'recorded.webm'));

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  ({ server, team, api: as } = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02' }));
});
afterAll(async () => {
  resetClock();
  await server?.close();
});

function upload(member: Member, name: string | undefined, body: Uint8Array | string, contentType = 'audio/wav') {
  const query = name === undefined ? '' : `?name=${encodeURIComponent(name)}`;
  return as(member).raw(`/rest/1/voicemails${query}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
}
const list = async (member: Member) => (await as(member).get('/rest/1/voicemails')).body.voicemails.voicemails as any[];
const named = async (member: Member, name: string) => (await list(member)).find((v) => v.name === name);
async function audioOf(id: string, member: Member = team.rep) {
  const res = await fetch(`${server.url}/rest/1/voicemails/${id}/audio`, {
    headers: { authorization: `Bearer ${server.tokenOf(member)}` },
  });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}
async function uploaded(member: Member, name: string, body: Uint8Array = demoRecording(0, 3)) {
  const reply = await upload(member, name, body);
  expect(reply.status, reply.text).toBe(201);
  return reply.body.voicemails.recording_id as string;
}

describe('a new organisation', () => {
  it('starts with the system voicemail, playable, that only its vendor may change', async () => {
    const [starter, ...rest] = await list(team.rep);
    expect(rest).toEqual([]);
    expect(starter).toMatchObject({
      name: STARTER_VOICEMAIL_NAME,
      system: '1',
      member_id: null,
      member_name: null,
      can_edit: '0',
      duration_ms: expect.any(Number),
    });
    expect(starter.duration_ms).toBeGreaterThan(5000);
    expect((await named(team.vendor, STARTER_VOICEMAIL_NAME)).can_edit).toBe('1');
    const audio = await audioOf(starter.recording_id);
    expect(audio).toMatchObject({ status: 200, type: 'audio/ogg' });
    const pcm = await decodeAudio(audio.bytes);
    expect(pcm.channels[0]!.length / pcm.sampleRate).toBeCloseTo(starter.duration_ms / 1000, 1);
    const theirs = await list(team.otherVendor);
    expect(theirs.map((v) => [v.name, v.system])).toEqual([[STARTER_VOICEMAIL_NAME, '1']]);
    expect(theirs[0].recording_id).not.toBe(starter.recording_id);
  });
});

describe('POST /rest/1/voicemails', () => {
  it("stores a WAV as mono Ogg Opus in the member's name, with its duration", async () => {
    const reply = await upload(team.rep, "  Rick's hello  ", demoRecording(1, 3));
    expect(reply.status, reply.text).toBe(201);
    const record = reply.body.voicemails;
    expect(record).toMatchObject({
      name: "Rick's hello",
      member_id: String(team.rep.id),
      member_name: 'Rick Test',
      system: '0',
      can_edit: '1',
      duration_seconds: 3,
      playback_url: `${server.ctx.config.publicUrl}/rest/1/voicemails/${record.recording_id}/audio`,
    });
    expect(record.duration_ms).toBeGreaterThan(2800);
    expect(record.duration_ms).toBeLessThanOrEqual(3000);
    expect(await named(team.manager, "Rick's hello")).toEqual({ ...record, can_edit: '1' });
    const audio = await audioOf(record.recording_id);
    expect(audio.type).toBe('audio/ogg');
    expect(audio.bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
    const pcm = await decodeAudio(audio.bytes);
    expect(pcm.channels).toHaveLength(1);
    expect(pcm.channels[0]!.length / pcm.sampleRate).toBeCloseTo(record.duration_ms / 1000, 2);
  });

  it("accepts what Chromium's MediaRecorder records (audio/webm;codecs=opus)", async () => {
    const reply = await upload(team.teammate, 'Recorded in the browser', chromiumWebm, 'audio/webm;codecs=opus');
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.voicemails.duration_ms).toBeGreaterThan(1500);
    expect((await audioOf(reply.body.voicemails.recording_id)).bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
  });

  const silence = (seconds: number, rate = 8000) => encodeWav16([new Float32Array(seconds * rate)], rate);
  const lowBitrateOgg = (seconds: number) => {
    const encoder = createOggOpusEncoder({ sampleRate: 8000, channels: 1, bitrateKbps: 6, complexity: 0 });
    const minute = Float32Array.from({ length: 8000 * 60 }, (_, i) => 0.3 * Math.sin(i / 3));
    return Buffer.concat([...Array.from({ length: seconds / 60 }, () => encoder.write([minute])), encoder.end()]);
  };
  const tone = (seconds: number, rate = 8000) =>
    encodeWav16([Float32Array.from({ length: seconds * rate }, (_, i) => 0.3 * Math.sin(i / 3))], rate);

  it.each([
    [
      'text sent as audio',
      () => upload(team.rep, 'Nope', Buffer.from('this is not audio at all, just words'.repeat(20))),
      415,
      41501,
      /not a recording/,
    ],
    ['a cut-off WAV', () => upload(team.rep, 'Nope', tone(2).subarray(0, 10_000)), 415, 41501, /cut off/],
    [
      'a multipart form',
      () => upload(team.rep, 'Nope', '--x\r\n\r\n--x--', 'multipart/form-data; boundary=x'),
      415,
      41501,
      /audio file itself as the body/,
    ],
    ['JSON', () => upload(team.rep, 'Nope', '{"audio":"AAAA"}', 'application/json'), 415, 41501, /audio file itself/],
    ['an empty body', () => upload(team.rep, 'Nope', Buffer.alloc(0)), 400, 40002, /empty/],
    ['more than 2 minutes', () => upload(team.rep, 'Nope', tone(121)), 422, 42201, /longer than 120 s/],
    [
      'ten minutes in a small file (given up on after 2 minutes of decoding)',
      () => upload(team.rep, 'Nope', lowBitrateOgg(600), 'audio/ogg'),
      422,
      42201,
      /longer than 120 s/,
    ],
    ['silence', () => upload(team.rep, 'Nope', silence(3)), 422, 42201, /silent/],
    ['more than 12 MB', () => upload(team.rep, 'Nope', Buffer.alloc(12 * 1024 * 1024 + 1)), 413, 41301, /larger than 12 MB/],
    ['no name', () => upload(team.rep, undefined, tone(1)), 400, 40002, /name/],
    ['a blank name', () => upload(team.rep, '   ', tone(1)), 400, 40003, /empty/],
    ['a name of 101 characters', () => upload(team.rep, 'x'.repeat(101), tone(1)), 400, 40003, /at most 100/],
  ])('refuses %s in the error envelope, storing nothing', async (_what, send, status, code, reason) => {
    const before = await list(team.vendor);
    const reply = await send();
    expect(reply.status, reply.text).toBe(status);
    expect(reply.body).toMatchObject({
      http_status: status,
      status: 'error',
      debug_codes: [{ code, reason: expect.stringMatching(reason) }],
    });
    expect(await list(team.vendor)).toEqual(before);
  });

  it('accepts exactly 2 minutes', async () => {
    expect((await upload(team.outsider, 'Two minutes', tone(120))).status).toBe(201);
  });

  it('answers 401 without credentials', async () => {
    const reply = await server
      .as()
      .raw('/rest/1/voicemails?name=x', { method: 'POST', headers: { 'content-type': 'audio/wav' }, body: new Uint8Array(tone(1)) });
    expect(reply.status).toBe(401);
  });
});

describe("PUT and DELETE /rest/1/voicemails/{id}: a member its own, a manager its team's, the vendor all", () => {
  let mine: string;
  beforeAll(async () => {
    mine = await uploaded(team.rep, 'To be renamed');
  });

  it.each([
    ['the maker', () => team.rep, 200],
    ['its manager', () => team.manager, 200],
    ['the vendor', () => team.vendor, 200],
    ['a teammate', () => team.teammate, 403],
    ['a rep of another team', () => team.outsider, 403],
    ["another organisation's vendor", () => team.otherVendor, 404],
  ])('renaming by %s answers %i', async (_who, member, status) => {
    const name = `Renamed by ${member().username}`;
    const reply = await as(member()).put(`/rest/1/voicemails/${mine}`, { name });
    expect(reply.status, reply.text).toBe(status);
    const now = (await list(team.rep)).find((v) => v.recording_id === mine);
    if (status === 200) expect(reply.body.voicemails).toMatchObject({ recording_id: mine, name, member_id: String(team.rep.id) });
    else expect(now.name).not.toBe(name);
  });

  it.each([
    ['a blank name', { name: '' }, 'name'],
    ['no name', {}, 'name'],
    ['a name that is not text', { name: { a: 1 } }, 'name'],
  ])('refuses %s with 400', async (_what, body, field) => {
    const reply = await as(team.rep).put(`/rest/1/voicemails/${mine}`, body);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0].field).toBe(field);
  });

  it.each([
    ['put', { name: 'x' }],
    ['delete', undefined],
  ] as const)('%s of an unknown or malformed id is 404 or 400', async (method, body) => {
    expect((await as(team.vendor)[method]('/rest/1/voicemails/999999', body)).status).toBe(404);
    expect((await as(team.vendor)[method]('/rest/1/voicemails/abc', body)).body.debug_codes[0].field).toBe('recording_id');
  });

  it('keeps the system voicemail to the vendor: a manager may not rename or delete it', async () => {
    const starter = await named(team.manager, STARTER_VOICEMAIL_NAME);
    expect((await as(team.manager).put(`/rest/1/voicemails/${starter.recording_id}`, { name: 'Mine now' })).status).toBe(403);
    expect((await as(team.manager).delete(`/rest/1/voicemails/${starter.recording_id}`)).status).toBe(403);
    const renamed = await as(team.vendor).put(`/rest/1/voicemails/${starter.recording_id}`, { name: 'Our greeting' });
    expect(renamed.body.voicemails).toMatchObject({ name: 'Our greeting', system: '1' });
  });

  it('deletes: refused to a teammate and another organisation, done for the maker, then gone everywhere', async () => {
    const id = await uploaded(team.teammate, 'Short-lived');
    expect((await as(team.rep).delete(`/rest/1/voicemails/${id}`)).status).toBe(403);
    expect((await as(team.otherVendor).delete(`/rest/1/voicemails/${id}`)).status).toBe(404);
    expect((await audioOf(id)).status).toBe(200);
    expect((await as(team.teammate).delete(`/rest/1/voicemails/${id}`)).status).toBe(204);
    expect(await named(team.vendor, 'Short-lived')).toBeUndefined();
    expect((await audioOf(id)).status).toBe(404);
    expect((await as(team.teammate).delete(`/rest/1/voicemails/${id}`)).status).toBe(404);
  });

  it('lets the vendor delete the system voicemail', async () => {
    const other = await list(team.otherVendor);
    expect((await as(team.otherVendor).delete(`/rest/1/voicemails/${other[0].recording_id}`)).status).toBe(204);
    expect(await list(team.otherVendor)).toEqual([]);
  });
});

describe('a drop of an uploaded voicemail', () => {
  it('plays the stored Ogg Opus into the answering machine and records its name on the call', async () => {
    const rep = as(team.rep);
    /*
     * Ten seconds: the simulated network ends the call the greeting's length after the drop, while the recording
     * starts it after the machine's beep (about 4 s in), so a short greeting dropped at once is cut (see the report).
     */
    const recordingId = await uploaded(team.rep, 'Uploaded greeting', demoRecording(2, 10));
    const created = await rep.post('/rest/1/dialsession', {
      contacts: [{ first_name: 'Machine', phone: '3124730125', allow_duplicates: 1 }],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.dialsessions.dialsession_id;
    const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, {
      authorization: `Bearer ${server.tokenOf(team.rep)}`,
    });
    const stateIs = (state: string) => (e: SseEvent) => e.event === 'state' && e.data.call_state === state;
    await rep.post(`/rest/1/dialsession/${id}/start`);
    await stream.waitFor(stateIs('Answering machine'));
    expect((await rep.post(`/rest/1/dialsession/${id}/voicemail`, { recording_id: recordingId })).status).toBe(200);
    await stream.waitFor(stateIs('Voicemail left'));
    await stream.waitFor(stateIs('Session complete'));
    stream.close();
    const call = (await rep.get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions.calls[0];
    expect(call).toMatchObject({ voicemail: '1', voicemail_sent: 'Uploaded greeting' });

    const recorded = await recordingOf(rep, call.call_id);
    // The member's channel of a voicemail call holds the dropped greeting only: sound there is the carrier playing it.
    const member = recorded.channels[0]!;
    const loud = member.reduce((n, v) => n + (Math.abs(v) > 0.05 ? 1 : 0), 0) / recorded.sampleRate;
    expect(loud).toBeGreaterThan(0.5);
  }, 60_000);
});

describe('a voicemail deleted while a session could drop it', () => {
  it('is refused at the drop with 400 naming recording_id, and the call goes on without one', async () => {
    const rep = as(team.rep);
    const recordingId = await uploaded(team.rep, 'Gone soon');
    const created = await rep.post('/rest/1/dialsession', {
      contacts: [{ first_name: 'Machine', phone: '3124730136', allow_duplicates: 1 }],
    });
    const id = created.body.dialsessions.dialsession_id;
    const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, {
      authorization: `Bearer ${server.tokenOf(team.rep)}`,
    });
    await rep.post(`/rest/1/dialsession/${id}/start`);
    await stream.waitFor((e) => e.event === 'state' && e.data.call_state === 'Answering machine');
    expect((await rep.delete(`/rest/1/voicemails/${recordingId}`)).status).toBe(204);
    const drop = await rep.post(`/rest/1/dialsession/${id}/voicemail`, { recording_id: recordingId });
    expect(drop.status).toBe(400);
    expect(drop.body.debug_codes[0]).toMatchObject({
      field: 'recording_id',
      reason: expect.stringContaining('not a voicemail recording of your library'),
    });
    expect((await rep.post(`/rest/1/dialsession/${id}/end`)).status).toBe(200);
    stream.close();
    expect((await rep.get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions.calls).toMatchObject([
      { voicemail: '0', voicemail_sent: null },
    ]);
  }, 30_000);
});

/** The call's two-channel recording once the carrier has delivered it (background work: polled). */
async function recordingOf(rep: Caller, callId: string) {
  const started = Date.now();
  for (;;) {
    const call = (await rep.get(`/rest/1/dialsession/call/${callId}?include_recording=1`)).body.call.call;
    if (call.recording_status === 'stored') break;
    if (Date.now() - started > 30_000) throw new Error(`the recording of call ${callId} stayed ${call.recording_status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const res = await fetch(`${server.url}/rest/1/dialsession/call/${callId}/recording`, {
    headers: { authorization: `Bearer ${server.tokenOf(team.rep)}` },
  });
  return decodeAudio(Buffer.from(await res.arrayBuffer()));
}

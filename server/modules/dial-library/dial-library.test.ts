import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTER_VOICEMAIL_NAME } from '../../audio/starter-voicemail.js';
import type { Member } from '../../db/schema.js';
import { demoRecording } from '../../dialer/demo-audio.js';
import { resetClock, setClock } from '../../lib/clock.js';
import { now } from '../../lib/time.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { type Receiver, startReceiver } from '../../test/receiver.js';
import { insertMessage, insertVoicemail } from './dial-library.repository.js';

const PUBLIC_URL = 'https://dial.ringbook.example';

let server: TestServer;
let team: Team;
let as: (member: Member) => Caller;
let rep: Caller;
let receiver: Receiver;
const audio = demoRecording(1, 1);
let recording: number;
let foreignRecording: number;
let ownMessage: number;

const seed = <T>(work: (tx: TestServer['ctx']['store']['db']) => Promise<T>) => server.ctx.store.write(work);

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  ({ server, team, api: as } = await serverWithTeam({ PUBLIC_URL, CARRIER_TIME_SCALE: '0.02', CALLBACK_ALLOWED_HOSTS: '127.0.0.1' }));
  rep = as(team.rep);
  receiver = await startReceiver();
  const voicemail = (orgId: number, name: string, wav: Buffer) =>
    seed(
      async (tx) =>
        (
          await insertVoicemail(tx, {
            org_id: orgId,
            member_id: null,
            name,
            content_type: 'audio/wav',
            audio: wav,
            duration_ms: 1000,
            created_at: now(),
          })
        ).id,
    );
  recording = await voicemail(team.vendor.org_id, 'Quick hello', audio);
  foreignRecording = await voicemail(team.otherVendor.org_id, 'Their hello', demoRecording(2, 1));
  const message = (orgId: number, type: string, name: string) =>
    seed(
      async (tx) =>
        (
          await insertMessage(tx, {
            org_id: orgId,
            type,
            display_name: name,
            description: 'Ours',
            body: 'Hi',
            display_order: 3,
            created_at: now(),
          })
        ).id,
    );
  ownMessage = await message(team.vendor.org_id, 'onetouch', 'Our own follow-up');
  await message(team.otherVendor.org_id, 'onetouch', 'Their follow-up');
});
afterAll(async () => {
  resetClock();
  await receiver?.close();
  await server?.close();
});

const content = async (query = '') => (await rep.get(`/rest/1/content${query}`)).body.content;
const names = (list: { emails: { display_name: string }[] }) => list.emails.map((m) => m.display_name);

describe('GET /rest/1/content', () => {
  it("lists the system messages and the organisation's own, in content.emails beside paging fields", async () => {
    const list = await content();
    expect(list.emails).toHaveLength(8);
    expect(list).toMatchObject({ page: 1, page_size: 8, total_results: 8, total_pages: 1 });
    const own = list.emails.find((m: any) => m.display_name === 'Our own follow-up');
    expect(own).toEqual({
      cm_content_id: String(ownMessage),
      display_name: 'Our own follow-up',
      description: 'Ours',
      message_id: String(ownMessage),
      display_order: '3',
      system_message: 0,
      type: 'onetouch',
      subject: '',
      body: 'Hi',
      member_id: null,
      can_edit: '0',
    });
    for (const m of list.emails.filter((e: any) => e !== own)) {
      expect(m).toMatchObject({
        system_message: 1,
        cm_content_id: expect.stringMatching(/^\d+$/),
        display_order: expect.stringMatching(/^\d+$/),
      });
    }
    expect(names(list)).not.toContain('Their follow-up');
  });

  it.each([
    ['?type=onetouch', 6, (m: any) => m.type === 'onetouch'],
    ['?type=script', 2, (m: any) => m.type === 'script' && m.system_message === 1],
    ['?type=aac_email', 0, () => false],
    ['?list=user', 1, (m: any) => m.system_message === 0 && m.message_id === String(ownMessage)],
    ['?list=system', 7, (m: any) => m.system_message === 1],
    ['?list=both&type=onetouch', 6, (m: any) => m.type === 'onetouch'],
    ['?type=script&list=user', 0, () => false],
  ])('filters %s', async (query, count, each) => {
    const list = await content(query);
    expect(list.emails).toHaveLength(count);
    expect(list.total_results).toBe(count);
    for (const m of list.emails) expect(each(m)).toBe(true);
  });

  it("shows another organisation only its own and the system's", async () => {
    const list = (await as(team.otherVendor).get('/rest/1/content?list=user')).body.content;
    expect(names(list)).toEqual(['Their follow-up']);
  });

  it.each([
    ['type', '?type=sms'],
    ['type', '?type='],
    ['list', '?list=all'],
    ['list', '?list=USER'],
  ])('answers 400 naming %s for %s', async (field, query) => {
    const reply = await rep.get(`/rest/1/content${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ code: 40003, field, reason: expect.stringContaining(field) });
  });
});

describe('GET /rest/1/voicemails', () => {
  it("lists the organisation's recordings with a playback URL under PUBLIC_URL, after its starter voicemail", async () => {
    const reply = await rep.get('/rest/1/voicemails');
    expect(reply.status).toBe(200);
    const {
      voicemails: [starter, ...rest],
      ...paging
    } = reply.body.voicemails;
    expect(starter).toMatchObject({ name: STARTER_VOICEMAIL_NAME, system: '1' });
    expect(rest).toEqual([
      {
        recording_id: String(recording),
        name: 'Quick hello',
        playback_url: `${PUBLIC_URL}/rest/1/voicemails/${recording}/audio`,
        created_when: expect.stringMatching(/^2026-11-23 18:0\d:\d\d$/),
        duration_seconds: 1,
        duration_ms: 1000,
        member_id: null,
        member_name: null,
        system: '0',
        can_edit: '0',
      },
    ]);
    expect(paging).toEqual({ page: 1, page_size: 2, total_results: 2, total_pages: 1 });
  });

  it('lists another organisation only its own', async () => {
    const list = (await as(team.otherVendor).get('/rest/1/voicemails')).body.voicemails.voicemails;
    expect(list.map((v: any) => v.recording_id)).toEqual([expect.any(String), String(foreignRecording)]);
    expect(list[0]).toMatchObject({ name: STARTER_VOICEMAIL_NAME, can_edit: '1' });
  });
});

/** The audio route answers bytes, which the JSON caller would decode as text: this reads them as they are. */
async function fetchAudio(id: number, headers: Record<string, string> = {}, member: Member = team.rep) {
  const res = await fetch(`${server.url}/rest/1/voicemails/${id}/audio`, {
    headers: { authorization: `Bearer ${server.tokenOf(member)}`, ...headers },
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(res.status).toBeLessThan(500);
  return { status: res.status, headers: res.headers, bytes, json: () => JSON.parse(bytes.toString('utf8')) };
}

describe('GET /rest/1/voicemails/{id}/audio', () => {
  const size = audio.length;

  it('serves the whole recording with Accept-Ranges', async () => {
    const reply = await fetchAudio(recording);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('audio/wav');
    expect(reply.headers.get('accept-ranges')).toBe('bytes');
    expect(reply.bytes.equals(audio)).toBe(true);
  });

  it.each([
    ['the first 100 bytes', 'bytes=0-99', 0, 99],
    ['a suffix', 'bytes=-50', size - 50, size - 1],
    ['from an offset to the end', 'bytes=1000-', 1000, size - 1],
    ['past the end, cut to the end', `bytes=${size - 10}-${size + 500}`, size - 10, size - 1],
  ])('serves %s with 206 and Content-Range', async (_what, range, start, end) => {
    const reply = await fetchAudio(recording, { range });
    expect(reply.status).toBe(206);
    expect(reply.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
    expect(reply.headers.get('content-type')).toBe('audio/wav');
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.bytes.equals(audio.subarray(start, end + 1))).toBe(true);
  });

  it.each(['bytes=abc', 'items=0-10', 'bytes=0-1,100-101'])(
    'serves the whole recording for a range it does not serve: %s',
    async (range) => {
      const reply = await fetchAudio(recording, { range });
      expect(reply.status).toBe(200);
      expect(reply.bytes.length).toBe(size);
    },
  );

  it('answers an unsatisfiable range with 416 in the error envelope', async () => {
    const reply = await fetchAudio(recording, { range: `bytes=${size}-` });
    expect(reply.status).toBe(416);
    expect(reply.headers.get('content-range')).toBe(`bytes */${size}`);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.json()).toMatchObject({
      http_status: 416,
      status: 'error',
      debug_codes: [{ code: 41601, reason: expect.stringContaining(String(size)) }],
    });
  });

  it.each([
    ["another organisation's recording", () => foreignRecording, () => team.rep],
    ['an unknown recording', () => 999_999, () => team.rep],
    ['a recording of another organisation, to its vendor', () => recording, () => team.otherVendor],
  ])('answers 404 in the envelope for %s', async (_what, id, member) => {
    const reply = await fetchAudio(id(), { range: 'bytes=0-99' }, member());
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.json()).toMatchObject({ status: 'error', debug_codes: [{ code: 40401 }] });
  });

  it('answers 400 naming recording_id for an id that is not one', async () => {
    const reply = await rep.get('/rest/1/voicemails/abc/audio');
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0].field).toBe('recording_id');
  });
});

describe('GET /rest/1/dispositions', () => {
  const DIALING = ['No Answer', 'Busy', 'Bad Phone', 'Fax', 'Voicemail'];
  const LIVE_ANSWER = ['Interested', 'Not Interested', 'Wrong Person', 'Call Back'];

  it('lists the Dialing set and the Live Answer set with their statuses', async () => {
    const reply = await rep.get('/rest/1/dispositions');
    expect(reply.status).toBe(200);
    const { dispositions } = reply.body;
    expect(dispositions).toMatchObject({ page: 1, page_size: 2, total_results: 2, total_pages: 1 });
    const [dialing, live] = dispositions.dispositions;
    expect(dialing).toMatchObject({ name: 'Dialing', type: 'dialing', system: '1', disposition_set_id: expect.stringMatching(/^\d+$/) });
    expect(live).toMatchObject({ name: 'Live Answer', type: 'live_answer', system: '1' });
    expect(dialing.statuses.map((s: any) => s.status)).toEqual(DIALING);
    expect(live.statuses.map((s: any) => s.status)).toEqual(LIVE_ANSWER);
    expect(dialing.statuses.map((s: any) => s.connected)).toEqual(Array(5).fill('0'));
    expect(live.statuses.map((s: any) => s.connected)).toEqual(Array(4).fill('1'));
    expect(await as(team.otherVendor).get('/rest/1/dispositions')).toMatchObject({
      status: 200,
      body: { dispositions: { total_results: 2 } },
    });
  });

  it('names each status as api_calldone reports it', async () => {
    const sets = (await rep.get('/rest/1/dispositions')).body.dispositions.dispositions;
    const callBack = sets[1].statuses.find((s: any) => s.status === 'Call Back');
    const created = await rep.post('/rest/1/dialsession', {
      contacts: [
        { first_name: 'Pat', phone: '2125550103' },
        { first_name: 'Bo', phone: '2125550118' },
      ],
      callbacks: [{ callback_type: 'api_calldone', callback: `${receiver.url}/done` }],
      answer_disposition_set_id: sets[1].disposition_set_id,
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.dialsessions.dialsession_id;
    await rep.post(`/rest/1/dialsession/${id}/start`);
    for (let tries = 0; (await rep.get(`/rest/1/dialsession/${id}/live`)).body.live.phase !== 'connected'; tries++) {
      if (tries > 250) throw new Error('Pat never answered');
      await pause(20);
    }
    expect((await rep.post(`/rest/1/dialsession/${id}/disposition`, { disposition_id: callBack.disposition_id })).status).toBe(200);
    const done = (await receiver.waitFor(2)).map((r) => JSON.parse(r.body));
    expect(done.map((d) => d.status)).toEqual(['Call Back', 'Busy']);
    const all = sets.flatMap((s: any) => s.statuses.map((d: any) => d.status));
    for (const d of done) expect(all).toContain(d.status);
  });
});

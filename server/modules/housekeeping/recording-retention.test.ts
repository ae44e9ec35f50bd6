import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptsSaying } from '../../db/transcript-index.js';
import type { Member } from '../../db/schema.js';
import { nowMs, resetClock, setClock } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/time.js';
import { recordingKey } from '../../recordings/store.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { insertCall } from '../dial-sessions/calls.repository.js';
import { insertSession } from '../dial-sessions/dial-sessions.repository.js';
import { announceRecording } from '../recordings/recordings.repository.js';
import { queueTranscript, settleTranscript } from '../transcripts/transcripts.repository.js';
import { Housekeeper } from './housekeeper.js';
import { expireRecordings } from './recording-retention.repository.js';

/*
 * Recording retention: a pass deletes the recordings (files) and transcripts (words, segments, summary, search index)
 * older than their organisation's recording_retention_days, and the call then says they were deleted; newer ones and
 * another organisation's stay. Calls, recordings and transcripts are written through their repositories (the one write
 * path) on chosen days, with a controlled clock; the files are real files in the recording store.
 */
let server: TestServer;
let team: Team;
let as: (member: Member) => Caller;

const TODAY = new Date('2026-11-23T18:00:00Z');
const daysAgo = (days: number) => toTimestamp(new Date(TODAY.getTime() - days * 86_400_000));
let n = 0;

type Recorded = { callId: number; key: string; word: string };

/** A call of `member` made `days` ago, recorded (a file in the store) and transcribed (its words in the search index). */
async function recordedCall(member: Member, days: number, leased = false): Promise<Recorded> {
  const at = daysAgo(days);
  const word = `zebra${String.fromCharCode(97 + (n % 26))}${String.fromCharCode(97 + Math.floor(n / 26))}`;
  n += 1;
  const { callId, key } = await server.ctx.store.write(async (tx) => {
    const session = await insertSession(tx, {
      org_id: member.org_id,
      member_id: member.id,
      status: 'ended',
      phase: 'done',
      position: 0,
      contact_count: 1,
      preview_mode: 0,
      send_skips: 0,
      request_hash: `retention:${n}`,
      created_at: at,
      started_at: at,
    });
    const call = await insertCall(tx, {
      session_id: session.id,
      org_id: member.org_id,
      member_id: member.id,
      contact_id: 1,
      position: 0,
      phone: '2125550100',
      started_at: at,
      connected: 1,
    });
    await announceRecording(tx, {
      callId: call.id,
      orgId: member.org_id,
      sourceUrl: 'http://carrier.test/r',
      contentType: 'audio/ogg',
      bytes: 4,
      durationMs: 1000,
      at,
      nowMs: nowMs(),
    });
    const storageKey = recordingKey(member.org_id, at, call.id);
    await tx
      .updateTable('recordings')
      .set(
        leased ? { lease_owner: 'a fetch', lease_until_ms: nowMs() + 60_000 } : { state: 'stored', storage_key: storageKey, stored_at: at },
      )
      .where('call_id', '=', call.id)
      .execute();
    await queueTranscript(tx, { callId: call.id, orgId: member.org_id, at, nowMs: nowMs() });
    const transcript = await tx
      .updateTable('transcripts')
      .set({ lease_owner: 'setup' })
      .where('call_id', '=', call.id)
      .returning('id')
      .executeTakeFirstOrThrow();
    await settleTranscript(tx, transcript.id, 'setup', {
      status: 'summarized',
      text: `we talked about ${word}`,
      segments: '[]',
      summary: `About ${word}.`,
      completed_at: at,
    });
    return { callId: call.id, key: storageKey };
  });
  if (!leased) await server.ctx.recordings.store.put(key, Buffer.from('OggS'));
  return { callId, key, word };
}

const callOf = async (member: Member, callId: number) => (await as(member).get(`/rest/1/dialsession/call/${callId}`)).body.call.call;
const fileOf = (key: string) => server.ctx.recordings.store.size(key);
const searchFinds = async (word: string) => (await transcriptsSaying(server.ctx.store.db, word, 10)).length > 0;

async function expectDeleted(member: Member, r: Recorded) {
  const call = await callOf(member, r.callId);
  expect([call.recording_status, call.transcript_status, call.transcript_id]).toEqual(['deleted', 'deleted', null]);
  expect(call.transcript_reason).toBe("Deleted with its recording after 30 days, the organisation's retention.");
  expect(await fileOf(r.key)).toBeUndefined();
  expect(await searchFinds(r.word)).toBe(false);
  const transcript = await server.ctx.store.db
    .selectFrom('transcripts')
    .select(['id', 'text', 'segments', 'summary'])
    .where('call_id', '=', r.callId)
    .executeTakeFirstOrThrow();
  expect(transcript).toEqual({ id: transcript.id, text: '', segments: null, summary: null });
  const read = (await as(member).get(`/rest/1/transcripts/${transcript.id}`)).body.transcript;
  expect(read).toMatchObject({ status: 'deleted', segments: [], summary: '', reason: call.transcript_reason });
  expect((await as(member).get(`/rest/1/dialsession/call/${r.callId}/recording`)).status).toBe(404);
}

async function expectKept(member: Member, r: Recorded) {
  const call = await callOf(member, r.callId);
  expect([call.recording_status, call.transcript_status]).toEqual(['stored', 'summarized']);
  expect(await fileOf(r.key)).toBe(4);
  expect(await searchFinds(r.word)).toBe(true);
}

beforeAll(async () => {
  setClock(TODAY);
  ({ server, team, api: as } = await serverWithTeam());
  // Nothing in the background touches what the test sets up.
  await server.ctx.recordings.loop.stop();
  await server.ctx.transcription?.stop();
  expect((await as(team.vendor).put('/rest/1/dialsession/settings', { recording_retention_days: 30 })).status).toBe(200);
});
afterAll(async () => {
  resetClock();
  await server?.close();
});

describe('a housekeeping pass', () => {
  it("deletes the recordings and transcripts older than the organisation's retention, keeps the newer and another organisation's", async () => {
    // More old recordings than a chunk takes (200), so the pass goes on until none is left.
    const old = [];
    for (let i = 0; i < 205; i++) old.push(await recordedCall(i % 2 ? team.rep : team.teammate, 31 + (i % 40)));
    const recent = [await recordedCall(team.rep, 29), await recordedCall(team.teammate, 1)];
    const otherOrganisations = await recordedCall(team.otherVendor, 300);

    const taken = await server.ctx.housekeeper.runOnce();
    expect(taken.recordings).toBe(205);
    for (const r of [old[0]!, old[1]!, old[204]!]) await expectDeleted(team.vendor, r);
    const leftFiles = await Promise.all(old.map((r) => fileOf(r.key)));
    expect(leftFiles.filter((size) => size !== undefined)).toEqual([]);
    for (const r of recent) await expectKept(team.vendor, r);
    await expectKept(team.otherVendor, otherOrganisations);
    // The member who made the call sees it the same way; a second pass finds nothing more.
    expect((await callOf(team.rep, old[1]!.callId)).recording_status).toBe('deleted');
    expect((await server.ctx.housekeeper.runOnce()).recordings).toBe(0);
  });

  it('follows a change of the retention: a shorter one takes what the longer one kept', async () => {
    const r = await recordedCall(team.rep, 10);
    expect((await server.ctx.housekeeper.runOnce()).recordings).toBe(0);
    await expectKept(team.vendor, r);
    expect((await as(team.vendor).put('/rest/1/dialsession/settings', { recording_retention_days: 7 })).status).toBe(200);
    // This one and the first test's 29-day-old one; the one of yesterday stays.
    expect((await server.ctx.housekeeper.runOnce()).recordings).toBe(2);
    expect((await callOf(team.vendor, r.callId)).recording_status).toBe('deleted');
    expect((await as(team.vendor).put('/rest/1/dialsession/settings', { recording_retention_days: 30 })).status).toBe(200);
  });

  it('removes the file of a recording marked deleted by a process that stopped before removing it', async () => {
    const r = await recordedCall(team.rep, 45);
    const cutoff = daysAgo(30);
    expect(
      await server.ctx.store.write((tx) =>
        expireRecordings(tx, team.rep.org_id, cutoff, nowMs(), "Deleted with its recording after 30 days, the organisation's retention."),
      ),
    ).toBe(1);
    expect(await fileOf(r.key)).toBe(4);
    expect((await server.ctx.housekeeper.runOnce()).recordings).toBe(0);
    await expectDeleted(team.vendor, r);
  });

  it('waits for a recording being fetched (leased) and takes it once the lease is over', async () => {
    const r = await recordedCall(team.rep, 45, true);
    expect((await server.ctx.housekeeper.runOnce()).recordings).toBe(0);
    expect((await callOf(team.vendor, r.callId)).recording_status).toBe('pending');
    await server.ctx.store.write((tx) =>
      tx
        .updateTable('recordings')
        .set({ lease_until_ms: nowMs() - 1 })
        .where('call_id', '=', r.callId)
        .execute(),
    );
    expect((await server.ctx.housekeeper.runOnce()).recordings).toBe(1);
    expect((await callOf(team.vendor, r.callId)).recording_status).toBe('deleted');
  });

  it('marks each recording once when two housekeepers pass at the same time', async () => {
    const rs = [];
    for (let i = 0; i < 30; i++) rs.push(await recordedCall(team.teammate, 60));
    const second = new Housekeeper(server.ctx.store, server.ctx.logger, server.ctx.recordings.store);
    const [a, b] = await Promise.all([server.ctx.housekeeper.runOnce(), second.runOnce()]);
    expect(a.recordings + b.recordings).toBe(30);
    for (const r of [rs[0]!, rs[29]!]) await expectDeleted(team.vendor, r);
  });
});

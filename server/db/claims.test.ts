import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimRows, dueCandidates } from '../callbacks/outbox.repository.js';
import { stopBackground } from '../context.js';
import { nowMs } from '../lib/clock.js';
import type { LeaseTask } from '../lib/lease-loop.js';
import { now } from '../lib/time.js';
import { claimJob } from '../modules/bulk-jobs/bulk-jobs.repository.js';
import { insertCall } from '../modules/dial-sessions/calls.repository.js';
import { claimDueSession, dueSessions } from '../modules/dial-sessions/dial-sessions.repository.js';
import { eventsSince, insertEvent, settledEventId } from '../modules/dial-sessions/dial-events.repository.js';
import { claimEmails } from '../modules/emails/emails.repository.js';
import { claimRecordings } from '../modules/recordings/recordings.repository.js';
import { claimTranscripts } from '../modules/transcripts/transcripts.repository.js';
import { onPostgres } from '../test/databases.js';
import { serverWithTeam, type Team, type TestServer } from '../test/harness.js';
import { nextTurn } from './chunks.js';
import { openStore, type Store } from './database.js';
import { lockKeys } from './locks.js';
import { claimPass, releasePass } from './passes.js';

/*
 * The concurrency contract's claims (docs/store.md): two stores opened on one database, as two servers are, claim the
 * same due rows at once, round after round; no row may be claimed by both, and every row is claimed. On PostgreSQL
 * this is `for update skip locked` plus the claim's update repeating its conditions; on SQLite one writer at a time.
 * The server that seeds the rows has its background work stopped, so only the two stores claim.
 */
let server: TestServer;
let team: Team;
let stores: [Store, Store];
const LEASE_MS = 60_000;

beforeAll(async () => {
  ({ server, team } = await serverWithTeam());
  await stopBackground(server.ctx);
  stores = [await openStore(server.ctx.config.databaseUrl), await openStore(server.ctx.config.databaseUrl)];
}, 60_000);
afterAll(async () => {
  for (const store of stores ?? []) await store.close();
  await server?.close();
});

/** Both stores claim until neither finds anything: the ids each got, in the order they got them. */
/** A lease-loop task's claim (lib/lease-loop.ts), four rows a time, raced by both stores until each finds none. */
const raceLeases = (claim: LeaseTask<{ id: number }>['claim']) =>
  race((store, owner) =>
    store.write(async (tx) => {
      const at = nowMs();
      return (await claim(tx, owner, at, at + LEASE_MS, 4)).map((r) => r.id);
    }),
  );

async function race(claim: (store: Store, owner: string) => Promise<number[]>): Promise<number[][]> {
  return Promise.all(
    stores.map(async (store, n) => {
      const got: number[] = [];
      for (let empty = 0; empty < 3;) {
        const ids = await claim(store, `store-${n}`);
        got.push(...ids);
        empty = ids.length ? 0 : empty + 1;
      }
      return got;
    }),
  );
}

function expectEachOnce(claimed: number[][], all: number[]) {
  const flat = claimed.flat();
  expect(flat.length, 'a row claimed twice').toBe(new Set(flat).size);
  expect([...flat].sort((a, b) => a - b)).toEqual([...all].sort((a, b) => a - b));
}

/** Calls on a session of the rep's (one contact, called again and again): what recordings and transcripts belong to. */
async function calls(n: number) {
  const reply = await server
    .as(server.tokenOf(team.rep))
    .post('/rest/1/dialsession', { contacts: [{ first_name: 'Claim', phone: '2125550142' }] });
  const sessionId = Number(reply.body.dialsessions.dialsession_id);
  const { contact_id } = await server.ctx.store.db
    .selectFrom('dial_session_contacts')
    .select('contact_id')
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return server.ctx.store.write(async (tx) => {
    const made = [];
    for (let position = 0; position < n; position++) {
      made.push(
        await insertCall(tx, {
          session_id: sessionId,
          org_id: team.rep.org_id,
          member_id: team.rep.id,
          contact_id,
          position,
          phone: '2125550142',
          started_at: now(),
          connected_at: null,
          ended_at: null,
          connected: 0,
          live: 0,
          machine: 0,
          voicemail: 0,
          voicemail_sent: null,
          email_sent: 0,
          email_ok: 0,
          hangup_status: '',
          message_id: null,
          disposition: '',
          disposition_key: null,
          duration: 0,
          talk_seconds: 0,
        }),
      );
    }
    return made;
  });
}

describe('two stores on one database claiming at once', () => {
  it('claim each callback once', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({
      org_id: team.rep.org_id,
      session_id: null,
      ordering_key: `claim:${i}`,
      type: 'callbegin',
      url: `https://hooks.example/${i % 7}`,
      body: '{}',
      state: 'pending' as const,
      attempts: 0,
      created_at_ms: 0,
      next_attempt_at_ms: 0,
    }));
    const ids = (await server.ctx.store.write((tx) => tx.insertInto('outbox').values(rows).returning('id').execute())).map((r) => r.id);
    const claimed = await race((store, owner) =>
      store.write(async (tx) => {
        const at = nowMs();
        const chosen = (await dueCandidates(tx, at, [])).slice(0, 8).map((c) => c.id);
        return (await claimRows(tx, owner, chosen, at, at + LEASE_MS)).map((r) => r.id);
      }),
    );
    expectEachOnce(claimed, ids);
  });

  it('claim each bulk job once', async () => {
    const at = now();
    const rows = Array.from({ length: 60 }, () => ({
      org_id: team.rep.org_id,
      member_id: team.rep.id,
      action: 'tag',
      params: '{}',
      selection: '{"ids":[]}',
      status: 'queued' as const,
      total: 0,
      processed: 0,
      changed: 0,
      cursor: null,
      error: null,
      failures: 0,
      created_at: at,
      finished_at: null,
    }));
    const ids = (await server.ctx.store.write((tx) => tx.insertInto('bulk_jobs').values(rows).returning('id').execute())).map((r) => r.id);
    const claimed = await race((store, owner) =>
      store.write(async (tx) => {
        const at = nowMs();
        const job = await claimJob(tx, owner, at, at + LEASE_MS);
        return job ? [job.id] : [];
      }),
    );
    expectEachOnce(claimed, ids);
  });

  it('claim each recording and each transcription once', async () => {
    const made = await calls(60);
    const at = now();
    const recordings = (
      await server.ctx.store.write((tx) =>
        tx
          .insertInto('recordings')
          .values(
            made.map((call, i) => ({
              call_id: call.id,
              org_id: team.rep.org_id,
              state: 'announced' as const,
              source_url: `https://carrier.example/${i}`,
              storage_key: null,
              content_type: 'audio/wav',
              bytes: 0,
              duration_ms: 0,
              attempts: 0,
              next_attempt_at_ms: 0,
              error: null,
              created_at: at,
              stored_at: null,
            })),
          )
          .returning('id')
          .execute(),
      )
    ).map((r) => r.id);
    const transcripts = (
      await server.ctx.store.write((tx) =>
        tx
          .insertInto('transcripts')
          .values(
            made.map((call) => ({
              call_id: call.id,
              org_id: team.rep.org_id,
              status: 'queued' as const,
              reason: null,
              engine: null,
              segments: null,
              text: '',
              talk_member_ms: 0,
              talk_contact_ms: 0,
              duration_ms: 0,
              summary: null,
              attempts: 0,
              next_attempt_at_ms: 0,
              created_at: at,
              completed_at: null,
            })),
          )
          .returning('id')
          .execute(),
      )
    ).map((r) => r.id);
    expectEachOnce(await raceLeases(claimRecordings), recordings);
    expectEachOnce(await raceLeases(claimTranscripts), transcripts);
  });

  it('claim each disposition e-mail once', async () => {
    const made = await calls(60);
    const at = nowMs();
    const emails = (
      await server.ctx.store.write((tx) =>
        tx
          .insertInto('emails')
          .values(
            made.map((call, i) => ({
              call_id: call.id,
              org_id: team.rep.org_id,
              member_id: team.rep.id,
              message_id: 1,
              to_address: `claim${i}@example.com`,
              from_name: 'Rick',
              from_address: 'rick@example.com',
              subject: 'S',
              body: 'B',
              state: 'pending' as const,
              attempts: 0,
              next_attempt_at_ms: at,
              created_at_ms: at,
            })),
          )
          .returning('id')
          .execute(),
      )
    ).map((r) => r.id);
    expectEachOnce(await raceLeases(claimEmails), emails);
  });

  it("claim a due pass once, and not again until it is due again (the housekeeper's: one server per pass)", async () => {
    const pass = { name: 'claims test', everyMs: 3_600_000 };
    const claim = (store: Store, owner: string) =>
      store.write(async (tx) => {
        const at = nowMs();
        return (await claimPass(tx, pass, owner, at, at + LEASE_MS)) ? [1] : [];
      });
    const first = await race(claim);
    expect(first.flat()).toEqual([1]);
    const holder = `store-${first[0]!.length ? 0 : 1}`;
    await stores[0].write((tx) => releasePass(tx, pass, holder, nowMs() + pass.everyMs));
    expect((await race(claim)).flat()).toEqual([]);
    // Its time has come again: one of the two passes.
    await stores[0].write((tx) =>
      tx
        .updateTable('passes')
        .set({ due_at_ms: nowMs() - 1 })
        .where('name', '=', pass.name)
        .execute(),
    );
    expect((await race(claim)).flat()).toEqual([1]);
  });

  it('wake each due dial session once', async () => {
    // One running session per member (a member runs one at a time): made due again round after round.
    const members = [team.vendor, team.manager, team.rep, team.teammate, team.outsider];
    const sessions: number[] = [];
    for (const member of members) {
      const reply = await server
        .as(server.tokenOf(member))
        .post('/rest/1/dialsession', { contacts: [{ first_name: 'Wake', phone: '2125550143' }] });
      sessions.push(Number(reply.body.dialsessions.dialsession_id));
    }
    const woken: number[] = [];
    for (let round = 0; round < 10; round++) {
      await server.ctx.store.write((tx) =>
        tx.updateTable('dial_sessions').set({ status: 'active', wake_at_ms: 0 }).where('id', 'in', sessions).execute(),
      );
      const claimed = await race(async (store) => {
        const got: number[] = [];
        for (const { id } of await dueSessions(store.db, nowMs(), 50)) {
          // What a wake-up's drive does to a due session: it is no longer due once driven.
          const session = await store.write(async (tx) => {
            const due = await claimDueSession(tx, id, nowMs());
            if (due) await tx.updateTable('dial_sessions').set({ wake_at_ms: null }).where('id', '=', id).execute();
            return due;
          });
          if (session) got.push(session.id);
        }
        return got;
      });
      expectEachOnce(claimed, sessions);
      woken.push(...claimed.flat());
    }
    expect(woken).toHaveLength(sessions.length * 10);
    await server.ctx.store.write((tx) =>
      tx.updateTable('dial_sessions').set({ status: 'ended', wake_at_ms: null }).where('id', 'in', sessions).execute(),
    );
  });
});

describe.runIf(onPostgres)('PostgreSQL key locks across two stores', () => {
  it('a key lock makes a check and its insert one at a time per key', async () => {
    // Each of many writers on either store reads the count of a key's rows and writes one more: under the key's lock
    // none reads a count another is about to change, so the counts come out 1..n with none repeated.
    const key = `claims-test-${Date.now()}`;
    const seen = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        stores[i % 2]!.write(async (tx) => {
          await lockKeys(tx, 'claims test', [key]);
          const n =
            Number((await tx.selectFrom('sign_in_attempts').select('attempts').where('key', '=', key).executeTakeFirst())?.attempts ?? 0) +
            1;
          await tx
            .insertInto('sign_in_attempts')
            .values({ key, attempts: n, window_started_at: now() })
            .onConflict((oc) => oc.column('key').doUpdateSet({ attempts: n }))
            .execute();
          return n;
        }),
      ),
    );
    expect([...seen].sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });
});

describe.runIf(onPostgres)('the dialer event stream over ids that commit out of order', () => {
  it('never settles past an event id still being written', async () => {
    const [a, b] = stores;
    const reply = await server
      .as(server.tokenOf(team.teammate))
      .post('/rest/1/dialsession', { contacts: [{ first_name: 'Stream', phone: '2125550144' }] });
    const sessionId = Number(reply.body.dialsessions.dialsession_id);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let taken!: (id: number) => void;
    const early = new Promise<number>((resolve) => (taken = resolve));
    const order: string[] = [];
    // A takes an id and holds its transaction open; B takes the next id and commits first.
    const slow = a
      .write(async (tx) => {
        taken(await insertEvent(tx, sessionId, 'note', {}, now()));
        await held;
      })
      .then(() => order.push('slow committed'));
    const earlyId = await early;
    const lateId = await b.write((tx) => insertEvent(tx, sessionId, 'note', {}, now()));
    expect(lateId).toBeGreaterThan(earlyId);
    // B's row is visible, A's is not yet: a reader by id alone would move past A's id here.
    expect((await eventsSince(b.db, earlyId - 1, lateId)).map((r) => r.id)).toEqual([lateId]);
    const settled = settledEventId(b.db).then((id) => {
      order.push('settled');
      return id;
    });
    // Until the settling read is seen waiting for the writers' lock, A stays open.
    while (
      !Number(
        (
          await sql<{
            n: number;
          }>`select count(*) as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`.execute(
            b.db,
          )
        ).rows[0]?.n,
      )
    ) {
      await nextTurn();
    }
    // Nothing settled while A was open. (Once A commits, the settling read and A's own acknowledgement come back on two
    // connections at once: which of them this process hears first is not the store's to say.)
    order.push('released');
    release();
    expect(await settled).toBeGreaterThanOrEqual(lateId);
    await slow;
    expect(order[0]).toBe('released');
    expect((await eventsSince(b.db, earlyId - 1, await settled)).map((r) => r.id)).toEqual([earlyId, lateId]);
  });
});

describe('checks and the writes that follow them, at once', () => {
  it('creates one contact of ten at once with one e-mail address; the others update it', async () => {
    const rep = server.as(server.tokenOf(team.rep));
    const email = `once-${Date.now()}@dup.example`;
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => rep.post('/rest/1/contacts', { first_name: `Once${i}`, email })),
    );
    expect(replies.map((r) => r.status).every((s) => s === 201)).toBe(true);
    const actions = replies.map((r) => r.body.contacts.contacts.duplicate_action as string);
    expect(actions.filter((a) => a === 'created')).toHaveLength(1);
    expect(new Set(replies.map((r) => r.body.contacts.contacts.contact_user_id)).size).toBe(1);
  });

  it('gives ten contacts at once one tag new to the organisation: one tag, ten holders', async () => {
    const rep = server.as(server.tokenOf(team.rep));
    const title = `Once ${Date.now()}`;
    const created = await Promise.all(Array.from({ length: 10 }, (_, i) => rep.post('/rest/1/contacts', { first_name: `Tagged${i}` })));
    const ids = created.map((r) => Number(r.body.contacts.contacts.contact_user_id));
    const replies = await Promise.all(ids.map((id) => rep.post(`/rest/1/contacts/${id}/tags`, { title })));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(202));
    const tags = await server.ctx.store.db.selectFrom('tags').select('id').where('title_lc', '=', title.toLowerCase()).execute();
    expect(tags).toHaveLength(1);
    const holders = await server.ctx.store.db.selectFrom('contact_tags').select('contact_id').where('tag_id', '=', tags[0]!.id).execute();
    expect(holders.map((h) => h.contact_id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  });

  it('makes one dial session of ten requests at once with one Idempotency-Key', async () => {
    const headers = { 'content-type': 'application/json', 'idempotency-key': `once-${Date.now()}` };
    const body = JSON.stringify({ contacts: [{ first_name: 'Idem', phone: '2125550145' }] });
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        server.as(server.tokenOf(team.outsider)).raw('/rest/1/dialsession', { method: 'POST', headers, body }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(replies.map((r) => r.body.dialsessions.dialsession_id)).size).toBe(1);
  });
});

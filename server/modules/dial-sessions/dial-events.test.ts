import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import type { Member } from '../../db/schema.js';
import { resetClock, setClock } from '../../lib/clock.js';
import { now } from '../../lib/time.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { openStream } from '../../test/sse.js';
import { insertEvent } from './dial-events.repository.js';
import { DialEventHub } from './dial-events.js';

/*
 * The event hub over a store with thousands of events in two busy sessions and a few in a quiet one, interleaved.
 * A hub here polls only when poked (its timer is a minute), so what it reads follows from what the test does.
 */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
const ids = { busy: [] as number[], other: [] as number[], quiet: [] as number[] };
const session = { busy: 0, other: 0, quiet: 0 };
const last = <T>(list: T[]) => list[list.length - 1]!;

async function newSession(phone: string): Promise<number> {
  const reply = await api(team.rep).post('/rest/1/dialsession', {
    contacts: [{ first_name: 'Eve', last_name: 'Stream', phone, allow_duplicates: 1 }],
  });
  expect(reply.status, reply.text).toBe(201);
  return Number(reply.body.dialsessions.dialsession_id);
}

const addEvent = (sessionId: number) =>
  server.ctx.store.write((tx) => insertEvent(tx, sessionId, 'state', { call_state: 'Ringing' }, now()));

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  ({ server, team, api } = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02' }));
  for (const [name, phone] of [
    ['busy', '3124730108'],
    ['other', '3124730118'],
    ['quiet', '3124730128'],
  ] as const)
    session[name] = await newSession(phone);
  await server.ctx.store.write(async (tx) => {
    for (let i = 0; i < 2_500; i++) {
      ids.busy.push(await insertEvent(tx, session.busy, 'state', { i }, now()));
      ids.other.push(await insertEvent(tx, session.other, 'state', { i }, now()));
      if (i % 100 === 0) ids.quiet.push(await insertEvent(tx, session.quiet, 'state', { i }, now()));
    }
  });
});
afterAll(async () => {
  resetClock();
  await server?.close();
});

/** The rows the store hands a hub, counted. */
function counted(db: Db) {
  const read = { rows: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      read.rows += args.result.rows.length;
      return args.result;
    },
  };
  return { db: db.withPlugin(plugin), read };
}

/** A stream's listener: the ids it was given, and a wait for one of them. */
function follow(hub: DialEventHub, sessionId: number, after: number) {
  const got: number[] = [];
  let wake = () => undefined as unknown;
  const stop = hub.subscribe(
    sessionId,
    after,
    (row) => {
      got.push(row.id);
      wake();
    },
    () => got.push(-1),
  );
  const until = (id: number) =>
    new Promise<void>((resolve) => {
      wake = () => got.includes(id) && resolve();
      wake();
    });
  return { got, stop, until };
}

describe('the event hub', () => {
  it("replays a stream resuming from 0 from its own session's events, not from every session's", async () => {
    const { db, read } = counted(server.ctx.store.db);
    const hub = new DialEventHub(db, { pollMs: 60_000 });
    const quiet = follow(hub, session.quiet, 0);
    await quiet.until(last(ids.quiet));
    expect(quiet.got).toEqual(ids.quiet);
    // Its own 25 events and a look at the store's last id, against 5,025 had it read every session's.
    expect(read.rows).toBeLessThan(ids.quiet.length + 5);
    hub.close();
  });

  it("does not hold back another session's stream while one catches up from 0", async () => {
    const hub = new DialEventHub(server.ctx.store.db, { pollMs: 60_000 });
    const quiet = follow(hub, session.quiet, ids.quiet[ids.quiet.length - 2]!);
    await quiet.until(last(ids.quiet));
    const fresh = await addEvent(session.quiet);
    const busy = follow(hub, session.busy, 0);
    await quiet.until(fresh);
    // The quiet stream's new event came before the busy stream had its 2,500 old ones.
    expect(busy.got.length).toBeLessThan(ids.busy.length);
    await busy.until(last(ids.busy));
    expect(busy.got).toEqual(ids.busy);
    expect(quiet.got).toEqual([last(ids.quiet), fresh]);
    const next = [await addEvent(session.busy), await addEvent(session.quiet)];
    hub.poke();
    await Promise.all([busy.until(next[0]!), quiet.until(next[1]!)]);
    expect([busy.got.slice(ids.busy.length), quiet.got.slice(2)]).toEqual([[next[0]], [next[1]]]);
    hub.close();
    expect([last(busy.got), last(quiet.got)]).toEqual([-1, -1]);
  });

  it('takes a cursor in the future as now, and one that is not a whole number as the number below it or 0', async () => {
    const hub = new DialEventHub(server.ctx.store.db, { pollMs: 60_000 });
    const before = [
      ...ids.quiet,
      ...(
        await server.ctx.store.db
          .selectFrom('dial_events')
          .select('id')
          .where('session_id', '=', session.quiet)
          .where('id', '>', last(ids.quiet))
          .orderBy('id')
          .execute()
      ).map((r) => r.id),
    ];
    const future = follow(hub, session.quiet, 1e12);
    const notANumber = follow(hub, session.quiet, Number.NaN);
    const half = follow(hub, session.quiet, last(before) - 0.5);
    await half.until(last(before));
    const fresh = await addEvent(session.quiet);
    hub.poke();
    await Promise.all([future.until(fresh), notANumber.until(fresh), half.until(fresh)]);
    expect(future.got).toEqual([fresh]);
    expect(notANumber.got).toEqual([...before, fresh]);
    expect(half.got).toEqual([last(before), fresh]);
    hub.close();
  });

  it('drops a stream that cannot take an event, and goes on serving the others', async () => {
    const hub = new DialEventHub(server.ctx.store.db, { pollMs: 60_000 });
    let closed = false;
    const start = (
      await server.ctx.store.db
        .selectFrom('dial_events')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirstOrThrow()
    ).id as number;
    hub.subscribe(
      session.quiet,
      start,
      () => {
        throw new Error('the client has gone');
      },
      () => (closed = true),
    );
    const quiet = follow(hub, session.quiet, start);
    const fresh = [await addEvent(session.quiet), await addEvent(session.quiet)];
    hub.poke();
    await quiet.until(fresh[1]!);
    expect([quiet.got, closed]).toEqual([fresh, true]);
    hub.close();
  });
});

describe('GET /rest/1/dialsession/{id}/events', () => {
  it.each([
    ['99999999999', '3124730138'],
    ['abc', '3124730148'],
  ])('with Last-Event-ID %s goes on with what comes next', async (lastEventId, phone) => {
    const id = await newSession(phone);
    const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events`, {
      authorization: `Bearer ${server.tokenOf(team.rep)}`,
      'last-event-id': lastEventId,
    });
    expect((await api(team.rep).post(`/rest/1/dialsession/${id}/start`)).status).toBe(200);
    await stream.waitFor((e) => e.event === 'state' && e.data.call_state === 'Session complete');
    expect(new Set(stream.events.map((e) => e.id)).size).toBe(stream.events.length);
    stream.close();
  });
});

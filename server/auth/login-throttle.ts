import type { Db, Store } from '../db/database.js';
import { tooManyRequests } from '../lib/errors.js';
import { addSeconds, now, parseTimestamp } from '../lib/time.js';

/*
 * Failed sign-ins are counted per username and per client address in the store (so restarts and several
 * processes share them). Past a few failures each further one doubles the wait, up to 15 minutes.
 */
const WINDOW_SECONDS = 15 * 60;
const MAX_DELAY_SECONDS = 15 * 60;
const FREE_FAILURES = { user: 5, ip: 20 };

const keys = (username: string, ip: string) => [
  { key: `user:${username.toLowerCase()}`, free: FREE_FAILURES.user },
  { key: `ip:${ip}`, free: FREE_FAILURES.ip },
];

export async function assertNotThrottled(db: Db, username: string, ip: string): Promise<void> {
  const at = now();
  const rows = await db
    .selectFrom('login_failures')
    .select(['blocked_until'])
    .where('key', 'in', keys(username, ip).map((k) => k.key))
    .execute();
  const until = rows.map((r) => r.blocked_until).filter((t): t is string => !!t && t > at).sort().pop();
  if (until) {
    const seconds = Math.max(1, Math.ceil((parseTimestamp(until) - Date.now()) / 1000));
    throw tooManyRequests(`Too many failed sign-ins. Try again in ${seconds} seconds.`, seconds);
  }
}

export async function recordFailure(store: Store, username: string, ip: string): Promise<void> {
  await store.write((tx) => countFailure(tx, username, ip));
}

async function countFailure(db: Db, username: string, ip: string) {
  const at = now();
  for (const { key, free } of keys(username, ip)) {
    const row = await db.selectFrom('login_failures').selectAll().where('key', '=', key).executeTakeFirst();
    const fresh = !row || addSeconds(row.window_started_at, WINDOW_SECONDS) <= at;
    const failures = fresh ? 1 : row.failures + 1;
    const delay = failures >= free ? Math.min(MAX_DELAY_SECONDS, 2 ** (failures - free + 1)) : 0;
    const values = {
      failures,
      window_started_at: fresh ? at : row.window_started_at,
      blocked_until: delay ? addSeconds(at, delay) : null,
    };
    await db
      .insertInto('login_failures')
      .values({ key, ...values })
      .onConflict((oc) => oc.column('key').doUpdateSet(values))
      .execute();
  }
}

export async function clearFailures(store: Store, username: string): Promise<void> {
  await store.write((tx) => tx.deleteFrom('login_failures').where('key', '=', `user:${username.toLowerCase()}`).execute());
}

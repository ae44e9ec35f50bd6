import { pruneSignInCounts, pruneWebSessions } from '../../auth/auth.repository.js';
import { WINDOW_SECONDS } from '../../auth/login-throttle.js';
import { pruneCallbacks } from '../../callbacks/outbox.repository.js';
import { nextTurn } from '../../db/chunks.js';
import { tryPassLock } from '../../db/locks.js';
import type { Db, Store } from '../../db/database.js';
import { nowMs } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import { toTimestamp } from '../../lib/time.js';
import type { RecordingStore } from '../../recordings/store.js';
import { pruneBulkJobs } from '../bulk-jobs/bulk-jobs.repository.js';
import { pruneDialEvents } from '../dial-sessions/dial-events.repository.js';
import { giveUpExpected } from '../recordings/recordings.repository.js';
import { expireOldRecordings } from './recording-retention.js';

/** How long what has served its purpose is kept (docs/store.md, "What is kept, and for how long"). */
export const RETENTION_DAYS = { callbacks: 30, dialEvents: 7, bulkJobs: 30 } as const;

/** Rows per transaction: a few milliseconds of writing, so requests' writes go between chunks. */
const CHUNK = 1_000;
const PASS_EVERY_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

type Task = (tx: Db, atMs: number, limit: number) => Promise<number>;

const TASKS: Record<string, Task> = {
  callbacks: (tx, atMs, limit) => pruneCallbacks(tx, atMs - RETENTION_DAYS.callbacks * DAY_MS, limit),
  dialEvents: (tx, atMs, limit) => pruneDialEvents(tx, toTimestamp(new Date(atMs - RETENTION_DAYS.dialEvents * DAY_MS)), limit),
  bulkJobs: (tx, atMs, limit) => pruneBulkJobs(tx, toTimestamp(new Date(atMs - RETENTION_DAYS.bulkJobs * DAY_MS)), limit),
  webSessions: (tx, atMs, limit) => pruneWebSessions(tx, toTimestamp(new Date(atMs)), limit),
  signInCounts: (tx, atMs, limit) => pruneSignInCounts(tx, toTimestamp(new Date(atMs - WINDOW_SECONDS * 1000)), limit),
  expectedRecordings: (tx, atMs, limit) => giveUpExpected(tx, atMs, limit),
};

/** Rows taken per kind of TASKS, and the recordings that went after their organisation's retention. */
export type PassResult = Record<string, number> & { recordings: number };

/**
 * Deletes what has served its purpose, so the tables that grow with use (the callback outbox, dial events, bulk jobs,
 * web sessions, sign-in counts) stay the size of their retention, not of the product's age, and recordings and their
 * transcripts go after their organisation's retention (recording-retention.ts). Every process runs one, an
 * hour apart, the first pass a few minutes after start (at a random point, so processes started together do not pass
 * together); passes are idempotent, and on PostgreSQL each chunk is taken under one lock per database: a server that
 * finds it held ends its pass, so servers sharing the database do not pass at once.
 */
export class Housekeeper {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<unknown> | undefined;
  private running = false;
  private stopping = false;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly recordings: RecordingStore,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    this.schedule(60_000 + Math.floor(Math.random() * 9 * 60_000));
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    clearTimeout(this.timer);
    await this.pass;
  }

  /** One pass over every kind, a chunk per transaction with a turn of the event loop between; answers the rows taken. */
  async runOnce(): Promise<PassResult> {
    const atMs = nowMs();
    const taken = {} as PassResult;
    // Each chunk's transaction first takes the pass's lock (PostgreSQL: `pg_try_advisory_xact_lock`, docs/store.md);
    // a server that finds another's chunk holding it ends its pass there: one server passes at a time.
    let yielded = false;
    for (const [kind, task] of Object.entries(TASKS)) {
      taken[kind] = 0;
      while (!yielded) {
        const n = await this.store.write(async (tx) => ((await tryPassLock(tx, 'housekeeping')) ? task(tx, atMs, CHUNK) : null));
        if (n === null) yielded = true;
        taken[kind] += n ?? 0;
        if (!n || this.stopping) break;
        await nextTurn();
      }
    }
    if (yielded) this.logger.debug('housekeeping: another server is passing; this pass ends');
    taken.recordings = this.stopping || yielded ? 0 : await expireOldRecordings(this.store, this.recordings, atMs, () => this.stopping);
    if (Object.values(taken).some(Boolean)) this.logger.info({ taken }, 'housekeeping: deleted what its retention let go');
    return taken;
  }

  private schedule(delayMs: number) {
    this.timer = setTimeout(() => {
      this.pass = this.runOnce()
        .catch((error) => this.logger.error({ err: error }, 'housekeeping pass failed; the next pass retries'))
        .finally(() => {
          this.pass = undefined;
          if (this.running) this.schedule(PASS_EVERY_MS);
        });
    }, delayMs).unref();
  }
}

import { pruneSignInCounts, pruneWebSessions } from '../../auth/auth.repository.js';
import { pruneUnusedCodes } from '../../auth/oauth.repository.js';
import { WINDOW_SECONDS } from '../../auth/login-throttle.js';
import { pruneCallbacks } from '../../callbacks/outbox.repository.js';
import { nextTurn } from '../../db/chunks.js';
import type { Db, Store } from '../../db/database.js';
import { nowMs } from '../../lib/clock.js';
import { LeaseLoop } from '../../lib/lease-loop.js';
import { passTask } from '../../lib/pass-task.js';
import type { Pass } from '../../db/passes.js';
import type { Logger } from '../../lib/logger.js';
import { toTimestamp } from '../../lib/time.js';
import type { RecordingStore } from '../../recordings/store.js';
import { pruneBulkJobs } from '../bulk-jobs/bulk-jobs.repository.js';
import { pruneDialEvents } from '../dial-sessions/dial-events.repository.js';
import { pruneEmails } from '../emails/emails.repository.js';
import { pruneImports } from '../imports/imports.repository.js';
import { giveUpExpected } from '../recordings/recordings.repository.js';
import { expireOldRecordings } from './recording-retention.js';

/** How long what has served its purpose is kept (docs/store.md, "What is kept, and for how long"). */
export const RETENTION_DAYS = { callbacks: 30, emails: 30, dialEvents: 7, bulkJobs: 30, imports: 30 } as const;

/** Rows per transaction: a few milliseconds of writing, so requests' writes go between chunks. */
const CHUNK = 1_000;
const PASS_EVERY_MS = 60 * 60_000;
/** How often an idle process looks whether the pass is due (a read of one row). */
const LOOK_EVERY_MS = 60_000;
/** Renewed while the pass runs: a server that dies mid-pass leaves it to another this long after. */
const LEASE_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

type Task = (tx: Db, atMs: number, limit: number) => Promise<number>;

const TASKS: Record<string, Task> = {
  callbacks: (tx, atMs, limit) => pruneCallbacks(tx, atMs - RETENTION_DAYS.callbacks * DAY_MS, limit),
  emails: (tx, atMs, limit) => pruneEmails(tx, atMs - RETENTION_DAYS.emails * DAY_MS, limit),
  dialEvents: (tx, atMs, limit) => pruneDialEvents(tx, toTimestamp(new Date(atMs - RETENTION_DAYS.dialEvents * DAY_MS)), limit),
  bulkJobs: (tx, atMs, limit) => pruneBulkJobs(tx, toTimestamp(new Date(atMs - RETENTION_DAYS.bulkJobs * DAY_MS)), limit),
  webSessions: (tx, atMs, limit) => pruneWebSessions(tx, toTimestamp(new Date(atMs)), limit),
  signInCounts: (tx, atMs, limit) => pruneSignInCounts(tx, toTimestamp(new Date(atMs - WINDOW_SECONDS * 1000)), limit),
  oauthCodes: (tx, atMs, limit) => pruneUnusedCodes(tx, toTimestamp(new Date(atMs - DAY_MS)), limit),
  expectedRecordings: (tx, atMs, limit) => giveUpExpected(tx, atMs, limit),
  /* An upload cut off a day ago will not go on; a finished import's rows serve its refused rows and its undo a month. */
  imports: (tx, atMs, limit) =>
    pruneImports(tx, toTimestamp(new Date(atMs - DAY_MS)), toTimestamp(new Date(atMs - RETENTION_DAYS.imports * DAY_MS)), limit),
};

/** Rows taken per kind of TASKS, and the recordings that went after their organisation's retention. */
export type PassResult = Record<string, number> & { recordings: number };

/**
 * Deletes what has served its purpose, so the tables that grow with use (the callback outbox, dial events, bulk jobs,
 * web sessions, sign-in counts, OAuth codes never redeemed) stay the size of their retention, not of the product's age, and recordings and their
 * transcripts go after their organisation's retention (recording-retention.ts). Every process runs a lease loop over
 * one pass (lib/pass-task.ts): the pass's row says when the next is due (an hour after the last), and the server that
 * claims it passes while the others find it leased, on either store. A process first looks a few minutes after it
 * starts, at a random point; passes are idempotent, so `runOnce` (a pass now, whatever the row says) is safe beside it.
 */
export class Housekeeper {
  private readonly loop: LeaseLoop<Pass>;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly recordings: RecordingStore,
  ) {
    const task = passTask(store, { name: 'housekeeping', everyMs: PASS_EVERY_MS }, (signal) =>
      this.runOnce(signal).then(
        () => undefined,
        (error: unknown) => this.logger.error({ err: error }, 'housekeeping pass failed; the next pass retries'),
      ),
    );
    this.loop = new LeaseLoop(store, logger, task, {
      concurrency: 1,
      leaseMs: LEASE_MS,
      pollMs: LOOK_EVERY_MS,
      startAfterMs: 60_000 + Math.floor(Math.random() * 9 * 60_000),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Ends a pass in hand between chunks. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass over every kind, a chunk per transaction with a turn of the event loop between; answers the rows taken. */
  async runOnce(signal?: AbortSignal): Promise<PassResult> {
    const atMs = nowMs();
    const taken = {} as PassResult;
    for (const [kind, task] of Object.entries(TASKS)) {
      taken[kind] = 0;
      while (!signal?.aborted) {
        const n = await this.store.write((tx) => task(tx, atMs, CHUNK));
        taken[kind] += n;
        if (!n) break;
        await nextTurn();
      }
    }
    const stopping = () => signal?.aborted ?? false;
    taken.recordings = stopping() ? 0 : await expireOldRecordings(this.store, this.recordings, atMs, stopping);
    if (Object.values(taken).some(Boolean)) this.logger.info({ taken }, 'housekeeping: deleted what its retention let go');
    return taken;
  }
}

import crypto from 'node:crypto';
import type { Db, Store } from '../db/database.js';
import { nowMs } from './clock.js';
import type { Logger } from './logger.js';

/*
 * Background work kept in the store, done by whichever server process claims it: claim, work, renew, release, stop.
 * One loop serves every kind (callback delivery, bulk jobs, recordings' fetches, transcription, the housekeeper's
 * pass). A claim is a conditional update (no two processes win one row); a lease that runs out (its process died or
 * stalled) makes the row claimable again, so work survives `kill -9`; a process never holds more than `concurrency`
 * items. Work longer than a lease has it renewed while it runs, by the loop or by its own writes. Work is told through
 * its lease's signal when the process stops or the lease was lost, so long work (a bulk job, a pass) ends between
 * steps. The outcome is written while the lease holds: by the work itself, or by the loop, several at once, in the
 * write that claims the next items.
 */

export type Lease = {
  owner: string;
  untilMs: number;
  /** Aborted when the loop stops or a renewal finds the lease lost: work that can stop between steps does. */
  signal: AbortSignal;
};

export type LeaseTask<T, R = void> = {
  /** For logs. */
  name: string;
  /** Whether anything may be claimed (a read, so an idle process does not write to find out). */
  anyDue(db: Db, nowMs: number): Promise<boolean>;
  /** Leases up to `limit` due items to `owner` until `untilMs`, in a write. */
  claim(tx: Db, owner: string, nowMs: number, untilMs: number, limit: number): Promise<T[]>;
  /**
   * Extends the lease of an item still held by `owner`; answers false when it was lost. Without it the lease must
   * outlast the work, or the work's own writes extend it (a bulk job's chunks do).
   */
  renew?(tx: Db, item: T, owner: string, untilMs: number): Promise<boolean>;
  /** Does the work; a throw is logged and the lease left to run out. Records its outcome itself unless `record` is given. */
  work(item: T, lease: Lease): Promise<R>;
  /**
   * Records what `work` answered, checking the lease, in the write that claims the next items: outcomes that arrive
   * within `flushMs` of each other share one write (callback delivery takes the write lock once per turn, not twice).
   */
  record?(tx: Db, owner: string, outcomes: R[]): Promise<void>;
};

export type LeaseLoopOptions = {
  concurrency: number;
  leaseMs: number;
  /** How often an idle loop looks for due items written by other processes (its own writes nudge it at once). */
  pollMs: number;
  /** With `record`: how long an ended item's outcome waits for others to share its write while work is in flight. */
  flushMs?: number;
  /** The first look after start (the housekeeper's pass is not due the moment a server starts). */
  startAfterMs?: number;
};

type InFlight = { done: Promise<void>; abort: AbortController };

export class LeaseLoop<T, R = void> {
  readonly owner = `${process.pid}.${crypto.randomBytes(6).toString('hex')}`;
  private readonly inFlight = new Set<InFlight>();
  private settled: R[] = [];
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private signalled = false;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly task: LeaseTask<T, R>,
    private readonly options: LeaseLoopOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Work was just queued here: look now rather than at the next poll. */
  nudge(): void {
    this.signalled = true;
    this.wake?.();
  }

  /** Claims no more, tells the work in hand to stop, waits for it to end and records its outcomes. */
  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    for (const item of this.inFlight) item.abort.abort();
    await this.loop;
    await Promise.all([...this.inFlight].map((item) => item.done));
    const last = this.settled.splice(0);
    if (!last.length || !this.task.record) return;
    await this.store
      .write((tx) => this.task.record!(tx, this.owner, last))
      .catch((error: unknown) =>
        this.logger.error(
          { err: error, task: this.task.name },
          'outcomes not recorded; their leases will run out and they will be tried again',
        ),
      );
  }

  private async run() {
    if (this.options.startAfterMs) await this.pause(this.options.startAfterMs, false);
    while (this.running) {
      const outcomes = this.settled.splice(0);
      try {
        await this.round(outcomes);
      } catch (error) {
        this.settled.unshift(...outcomes);
        this.logger.error({ err: error, task: this.task.name }, 'background work could not be claimed; retrying');
        // Not at once, even when nudged: a lost store fails every round until it is back.
        await this.pause(this.options.pollMs, false);
        continue;
      }
      await this.idle();
    }
  }

  /** One turn at the store: records the outcomes in hand, claims items for the free places, and starts them. */
  private async round(outcomes: R[]) {
    const free = this.running ? this.options.concurrency - this.inFlight.size : 0;
    if (!outcomes.length && (free <= 0 || !(await this.task.anyDue(this.store.db, nowMs())))) return;
    const items = await this.store.write(async (tx) => {
      if (outcomes.length) await this.task.record?.(tx, this.owner, outcomes);
      if (free <= 0) return [];
      const at = nowMs();
      return this.task.claim(tx, this.owner, at, at + this.options.leaseMs, free);
    });
    for (const item of items) this.begin(item);
    // More may be due than this claim took: look again at once.
    if (items.length) this.signalled = true;
  }

  private begin(item: T) {
    const abort = new AbortController();
    const lease: Lease = { owner: this.owner, untilMs: nowMs() + this.options.leaseMs, signal: abort.signal };
    if (!this.running) abort.abort();
    const renewal = this.task.renew ? setInterval(() => void this.renew(item, lease, abort), this.options.leaseMs / 3).unref() : undefined;
    const entry: InFlight = {
      abort,
      done: this.task
        .work(item, lease)
        .then((outcome) => {
          if (this.task.record) this.settled.push(outcome);
        })
        .catch((error: unknown) =>
          this.logger.error(
            { err: error, task: this.task.name },
            'background work failed; its lease will run out and it will be tried again',
          ),
        )
        .finally(() => {
          clearInterval(renewal);
          this.inFlight.delete(entry);
          this.nudge();
        }),
    };
    this.inFlight.add(entry);
  }

  private async renew(item: T, lease: Lease, abort: AbortController) {
    const untilMs = nowMs() + this.options.leaseMs;
    try {
      if (await this.store.write((tx) => this.task.renew!(tx, item, this.owner, untilMs))) lease.untilMs = untilMs;
      else abort.abort();
    } catch (error) {
      this.logger.warn({ err: error, task: this.task.name }, 'lease not renewed');
    }
  }

  /** Until there is work: a nudge (an item ended, or work was queued here) or the poll; then outcomes wait `flushMs`. */
  private async idle() {
    if (!this.running) return;
    if (!this.signalled) await this.pause(this.options.pollMs, true);
    this.signalled = false;
    if (this.options.flushMs && this.settled.length && this.inFlight.size) await new Promise((r) => setTimeout(r, this.options.flushMs));
  }

  /** Waits `ms`, ended early by stop, and by a nudge when `nudged`. Background work alone keeps no process alive. */
  private async pause(ms: number, nudged: boolean) {
    if (!this.running) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms).unref();
      const stopping = () => (this.running && !nudged ? undefined : done());
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = stopping;
    });
    this.wake = undefined;
  }
}

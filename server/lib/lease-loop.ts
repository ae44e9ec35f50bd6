import crypto from 'node:crypto';
import type { Db, Store } from '../db/database.js';
import { nowMs } from './clock.js';
import type { Logger } from './logger.js';

/*
 * Background work kept in the store, done by whichever server process claims it: claim, work, renew, release, stop.
 * A claim is a conditional update (no two processes win one row); a lease that runs out (its process died or stalled)
 * makes the row claimable again, so work survives `kill -9`; work longer than a lease renews it while it runs; a
 * process never holds more than `concurrency` items. The task records its own outcome, in a write that checks it
 * still holds the lease.
 */

export type Lease = { owner: string; untilMs: number };

export type LeaseTask<T> = {
  /** For logs. */
  name: string;
  /** Whether anything may be claimed (a read, so an idle process does not write to find out). */
  anyDue(db: Db, nowMs: number): Promise<boolean>;
  /** Leases up to `limit` due items to `owner` until `untilMs`, in a write. */
  claim(tx: Db, owner: string, nowMs: number, untilMs: number, limit: number): Promise<T[]>;
  /** Extends the lease of an item still held by `owner`; answers false when it was lost. */
  renew(tx: Db, item: T, owner: string, untilMs: number): Promise<boolean>;
  /** Does the work and records its outcome (checking the lease); a throw is logged and the lease left to run out. */
  work(item: T, lease: Lease): Promise<void>;
};

export type LeaseLoopOptions = { concurrency: number; leaseMs: number; pollMs: number };

export class LeaseLoop<T> {
  readonly owner = `${process.pid}.${crypto.randomBytes(6).toString('hex')}`;
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private signalled = false;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly task: LeaseTask<T>,
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

  /** Claims no more, and waits for the work in hand to finish. */
  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    await this.loop;
    await Promise.all(this.inFlight);
  }

  private async run() {
    while (this.running) {
      try {
        await this.claimAndStart();
      } catch (error) {
        this.logger.error({ err: error, task: this.task.name }, 'background work could not be claimed; retrying');
      }
      await this.idle();
    }
  }

  private async claimAndStart() {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0 || !(await this.task.anyDue(this.store.db, nowMs()))) return;
    const items = await this.store.write((tx) => {
      const at = nowMs();
      return this.task.claim(tx, this.owner, at, at + this.options.leaseMs, free);
    });
    for (const item of items) this.begin(item);
    if (items.length === free) this.signalled = true;
  }

  private begin(item: T) {
    const lease: Lease = { owner: this.owner, untilMs: nowMs() + this.options.leaseMs };
    const renewal = setInterval(() => void this.renew(item, lease), this.options.leaseMs / 3).unref();
    const work = this.task
      .work(item, lease)
      .catch((error: unknown) =>
        this.logger.error(
          { err: error, task: this.task.name },
          'background work failed; its lease will run out and it will be tried again',
        ),
      )
      .finally(() => {
        clearInterval(renewal);
        this.inFlight.delete(work);
        this.nudge();
      });
    this.inFlight.add(work);
  }

  private async renew(item: T, lease: Lease) {
    const untilMs = nowMs() + this.options.leaseMs;
    try {
      if (await this.store.write((tx) => this.task.renew(tx, item, this.owner, untilMs))) lease.untilMs = untilMs;
    } catch (error) {
      this.logger.warn({ err: error, task: this.task.name }, 'lease not renewed');
    }
  }

  private async idle() {
    if (!this.running) return;
    if (!this.signalled) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.options.pollMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wake = done;
      });
      this.wake = undefined;
    }
    this.signalled = false;
  }
}

import crypto from 'node:crypto';
import type { Store } from '../db/database.js';
import type { OutboxRow } from '../db/schema.js';
import { nowMs } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import { addSeconds, now } from '../lib/time.js';
import { describeUrl } from './address-guard.js';
import { anyDue, claimDue, type OrgSecrets, type Outcome, recordOutcomes, secretsOf } from './outbox.repository.js';
import { nextAttemptAt } from './retry-policy.js';
import type { Sender } from './sender.js';
import { signedHeaders } from './signing.js';

export type DeliveryOptions = {
  /** How often an idle worker looks for due rows written by other processes (its own writes nudge it at once). */
  pollMs: number;
  /** Rows leased per round; each is the head of its ordering key, so they go out side by side. */
  batch: number;
  /** Longer than a delivery may take, so a lease outlives its attempt; a dead worker's rows are retried after it. */
  leaseMs: number;
  random: () => number;
};

const DEFAULTS: DeliveryOptions = { pollMs: 250, batch: 128, leaseMs: 30_000, random: Math.random };
/** The previous secret keeps signing for this long after a rotation, so receivers can switch over. */
const ROTATION_OVERLAP_SECONDS = 24 * 3600;

/**
 * Sends the outbox's due callbacks, signed, at least once: a row is marked delivered only after a 2xx, and a process
 * that dies mid-send leaves its lease to expire, so another worker sends the row again (receivers dedupe on
 * webhook-id, which stays the same across attempts). Leases also keep two processes from sending one row at once.
 */
export class DeliveryWorker {
  private readonly options: DeliveryOptions;
  private readonly owner = `${process.pid}.${crypto.randomBytes(6).toString('hex')}`;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly store: Store,
    private readonly sender: Sender,
    private readonly logger: Logger,
    options: Partial<DeliveryOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** A row was just written here: look now rather than at the next poll. */
  nudge(): void {
    this.wake?.();
  }

  /** Finishes the round in flight (its sends end within the sender's time-out), then stops. */
  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    await this.loop;
    this.sender.close();
  }

  private async run() {
    let settled: Outcome[] = [];
    while (this.running) {
      let sent = 0;
      try {
        const rows = await this.claim(settled);
        settled = [];
        if (rows.length) settled = await this.send(rows);
        sent = rows.length;
      } catch (error) {
        this.logger.error({ err: error }, 'callback delivery round failed; retrying');
      }
      if (!sent && this.running) await this.idle();
    }
    if (!settled.length) return;
    await this.store
      .write((tx) => recordOutcomes(tx, this.owner, settled))
      .catch((error: unknown) =>
        this.logger.error({ err: error }, 'callback outcomes not recorded; their leases will run out and they will be sent again'),
      );
  }

  private idle(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.options.pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    }).finally(() => (this.wake = undefined));
  }

  /**
   * Records what became of the last batch and claims the next, in one write: each round takes its turn at the write
   * lock once instead of twice (the turn was a third of a round with the dialer writing beside it). With nothing to
   * record, a read first tells whether anything is due, so an idle worker does not write to find out.
   */
  private async claim(settled: Outcome[]): Promise<OutboxRow[]> {
    if (!settled.length && !(await anyDue(this.store.db, nowMs()))) return [];
    return this.store.write(async (tx) => {
      await recordOutcomes(tx, this.owner, settled);
      const started = nowMs();
      return claimDue(tx, this.owner, started, started + this.options.leaseMs, this.options.batch);
    });
  }

  /** Sends a claimed batch side by side; answers the outcomes, to be recorded with the next claim. */
  private async send(rows: OutboxRow[]): Promise<Outcome[]> {
    const secrets = await secretsOf(this.store.db, [...new Set(rows.map((r) => r.org_id))]);
    return Promise.all(rows.map((row) => this.deliver(row, secrets.get(row.org_id))));
  }

  private async deliver(row: OutboxRow, secrets: OrgSecrets | undefined): Promise<Outcome> {
    const headers = signedHeaders(signingSecrets(secrets), `msg_${row.id}`, new Date(nowMs()), row.body);
    const result = await this.sender.send(row.url, headers, row.body);
    if (result.ok) return { id: row.id, delivered: true, status: result.status!, atMs: nowMs() };
    const next = nextAttemptAt(row.created_at_ms, row.attempts, nowMs(), this.options.random);
    // The URL is the integration's: its path and query can hold secrets, so only its origin is logged.
    this.logger.warn(
      {
        callback: row.id,
        to: describeUrl(row.url),
        attempt: row.attempts,
        status: result.status,
        error: result.error,
        retry: next !== null,
      },
      next === null ? 'callback failed for 24 hours; giving up' : 'callback not delivered; will retry',
    );
    return { id: row.id, delivered: false, status: result.status, error: result.error ?? 'not delivered', nextAttemptAtMs: next };
  }
}

/** The current secret, and during a day after a rotation the previous one too. */
function signingSecrets(secrets: OrgSecrets | undefined): string[] {
  if (!secrets?.current) throw new Error('An organisation without a callback secret cannot send callbacks.');
  const overlapping = secrets.previous && secrets.rotatedAt && addSeconds(secrets.rotatedAt, ROTATION_OVERLAP_SECONDS) > now();
  return overlapping ? [secrets.current, secrets.previous!] : [secrets.current];
}

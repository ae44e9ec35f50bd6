import crypto from 'node:crypto';
import type { Store } from '../db/database.js';
import type { OutboxRow } from '../db/schema.js';
import { nowMs } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import { addSeconds, now } from '../lib/time.js';
import { describeUrl } from './address-guard.js';
import { DeliverySlots, type SlotLimits } from './delivery-slots.js';
import { anyDue, claimRows, dueCandidates, type OrgSecrets, type Outcome, recordOutcomes, secretsOf } from './outbox.repository.js';
import { nextAttemptAt } from './retry-policy.js';
import type { Sender } from './sender.js';
import { signedHeaders } from './signing.js';

export type DeliveryOptions = SlotLimits & {
  /** How often an idle worker looks for due rows written by other processes (its own writes nudge it at once). */
  pollMs: number;
  /** Outcomes of sends that end this close together are recorded in one write, which also claims the next rows. */
  flushMs: number;
  /** Longer than a send may take and its outcome's recording, so a lease outlives its attempt; a dead worker's rows are retried after it. */
  leaseMs: number;
  random: () => number;
};

const DEFAULTS: DeliveryOptions = {
  total: 256,
  perDestination: 8,
  perPromptDestination: 64,
  promptMs: 1_000,
  pollMs: 250,
  flushMs: 5,
  leaseMs: 30_000,
  random: Math.random,
};
/** What a lease must outlast a send's time-out by: the wait for the write that records the outcome. */
const RECORDING_MARGIN_MS = 10_000;
/** The previous secret keeps signing for this long after a rotation, so receivers can switch over. */
const ROTATION_OVERLAP_SECONDS = 24 * 3600;

/**
 * Sends the outbox's due callbacks, signed, at least once: a row is marked delivered only after a 2xx, and a process
 * that dies mid-send leaves its lease to expire, so another worker sends the row again (receivers dedupe on
 * webhook-id, which stays the same across attempts). Leases also keep two processes from sending one row at once.
 *
 * A pipeline, not rounds: as soon as sends end, their outcomes are recorded and more rows claimed in the same write,
 * up to `total` in flight and a limit per destination (DeliverySlots). A receiver that answers late or never holds
 * its own few slots until the sender's time-out; nobody else's callback waits for it.
 */
export class DeliveryWorker {
  private readonly options: DeliveryOptions;
  private readonly owner = `${process.pid}.${crypto.randomBytes(6).toString('hex')}`;
  private readonly slots: DeliverySlots;
  private readonly sends = new Set<Promise<void>>();
  private settled: Outcome[] = [];
  private running = false;
  private loop: Promise<void> | undefined;
  private signalled = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly store: Store,
    private readonly sender: Sender,
    private readonly logger: Logger,
    options: Partial<DeliveryOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    if (this.options.leaseMs < sender.timeoutMs + RECORDING_MARGIN_MS) {
      throw new Error(
        `A delivery lease (${this.options.leaseMs} ms) must outlast the sender's time-out (${sender.timeoutMs} ms) by ${RECORDING_MARGIN_MS} ms.`,
      );
    }
    this.slots = new DeliverySlots(this.options);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** A row was just written here: look now rather than at the next poll. */
  nudge(): void {
    this.signalled = true;
    this.wake?.();
  }

  /** Claims no more, lets the sends in flight end (within the sender's time-out), records their outcomes, then stops. */
  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    await this.loop;
    this.sender.close();
  }

  private async run() {
    while (this.running) {
      await this.round();
      await this.waitForWork();
    }
    await Promise.all(this.sends);
    const last = this.settled.splice(0);
    await this.store
      .write((tx) => recordOutcomes(tx, this.owner, last))
      .catch((error: unknown) =>
        this.logger.error({ err: error }, 'callback outcomes not recorded; their leases will run out and they will be sent again'),
      );
  }

  /** One turn at the store: records the outcomes in hand, claims rows for the free slots, and starts sending them. */
  private async round() {
    const outcomes = this.settled.splice(0);
    let rows: OutboxRow[];
    try {
      rows = await this.recordAndClaim(outcomes);
    } catch (error) {
      this.settled.unshift(...outcomes);
      this.logger.error({ err: error }, 'callback delivery round failed; retrying');
      await new Promise((resolve) => setTimeout(resolve, this.options.pollMs));
      return;
    }
    if (!rows.length) return;
    // More may be due than this claim looked at: look again at once.
    this.nudge();
    await this.launch(rows).catch((error: unknown) =>
      this.logger.error({ err: error }, 'claimed callbacks not sent; their leases will run out and they will be sent again'),
    );
  }

  /**
   * Records and claims in one write: each turn at the write lock is taken once instead of twice (the turn was a third
   * of a round with the dialer writing beside it). With nothing to record, a read first tells whether anything is due
   * that there is a slot for, so an idle or saturated worker does not write to find out.
   */
  private async recordAndClaim(outcomes: Outcome[]): Promise<OutboxRow[]> {
    const claiming = this.running && this.slots.free > 0;
    if (!outcomes.length && !(claiming && (await anyDue(this.store.db, nowMs(), this.slots.full())))) return [];
    return this.store.write(async (tx) => {
      await recordOutcomes(tx, this.owner, outcomes);
      if (!claiming) return [];
      const started = nowMs();
      const chosen = this.slots.choose(await dueCandidates(tx, started, this.slots.full()));
      return claimRows(tx, this.owner, chosen, started, started + this.options.leaseMs);
    });
  }

  /** Until there is work: a send ended (its outcome waits flushMs for others to share the write), a nudge, or the poll. */
  private async waitForWork() {
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
    if (this.settled.length && this.sends.size) await new Promise((resolve) => setTimeout(resolve, this.options.flushMs));
  }

  /** Sends claimed rows side by side, each in a slot of its destination until its outcome is known. */
  private async launch(rows: OutboxRow[]) {
    for (const row of rows) this.slots.take(row.url);
    const secrets = await secretsOf(this.store.db, [...new Set(rows.map((r) => r.org_id))]).catch((error: unknown) => {
      for (const row of rows) this.slots.give(row.url, Infinity);
      throw error;
    });
    for (const row of rows) {
      const started = performance.now();
      const send = this.deliver(row, secrets.get(row.org_id))
        .then((outcome) => void this.settled.push(outcome))
        .catch((error: unknown) =>
          this.logger.error({ err: error, callback: row.id }, 'callback not sent; its lease will run out and it will be sent again'),
        )
        .finally(() => {
          this.slots.give(row.url, performance.now() - started);
          this.sends.delete(send);
          this.nudge();
        });
      this.sends.add(send);
    }
  }

  private async deliver(row: OutboxRow, secrets: OrgSecrets | undefined): Promise<Outcome> {
    // Receivers check webhook-timestamp against their own clock: real time, never the product's (CLOCK_START moves it).
    const headers = signedHeaders(signingSecrets(secrets), `msg_${row.id}`, new Date(), row.body);
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

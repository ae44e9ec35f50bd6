import type { Store } from '../db/database.js';
import type { OutboxRow } from '../db/schema.js';
import { nowMs } from '../lib/clock.js';
import { LeaseLoop, type LeaseTask } from '../lib/lease-loop.js';
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

type Claimed = { row: OutboxRow; secrets: OrgSecrets | undefined };

/**
 * Sends the outbox's due callbacks, signed, at least once: a row is marked delivered only after a 2xx, and a process
 * that dies mid-send leaves its lease to expire, so another worker sends the row again (receivers dedupe on
 * webhook-id, which stays the same across attempts). Leases also keep two processes from sending one row at once.
 *
 * A pipeline, not rounds, on the lease loop (lib/lease-loop.ts): as soon as sends end, their outcomes are recorded and
 * more rows claimed in the same write, up to `total` in flight and a limit per destination (DeliverySlots). A receiver
 * that answers late or never holds its own few slots until the sender's time-out; nobody else's callback waits for it.
 * No renewal: the lease outlasts a send and the write of its outcome.
 */
export class DeliveryWorker {
  private readonly options: DeliveryOptions;
  private readonly slots: DeliverySlots;
  private readonly loop: LeaseLoop<Claimed, Outcome>;

  constructor(
    store: Store,
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
    const { total, leaseMs, pollMs, flushMs } = this.options;
    this.loop = new LeaseLoop(store, logger, this.task(), { concurrency: total, leaseMs, pollMs, flushMs });
  }

  start(): void {
    this.loop.start();
  }

  /** A row was just written here: look now rather than at the next poll. */
  nudge(): void {
    this.loop.nudge();
  }

  /** Claims no more, lets the sends in flight end (within the sender's time-out), records their outcomes, then stops. */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.sender.close();
  }

  private task(): LeaseTask<Claimed, Outcome> {
    return {
      name: 'callback delivery',
      // Rows to destinations without a free slot are left out, so a saturated worker does not write to find out.
      anyDue: (db, at) => anyDue(db, at, this.slots.full()),
      claim: async (tx, owner, at, untilMs, limit) => {
        const chosen = this.slots.choose(await dueCandidates(tx, at, this.slots.full())).slice(0, limit);
        const rows = await claimRows(tx, owner, chosen, at, untilMs);
        const secrets = await secretsOf(tx, [...new Set(rows.map((r) => r.org_id))]);
        return rows.map((row) => ({ row, secrets: secrets.get(row.org_id) }));
      },
      work: (claimed) => this.send(claimed),
      record: recordOutcomes,
    };
  }

  /** A send in a slot of its destination until its outcome is known (the slot is taken before the first await). */
  private async send({ row, secrets }: Claimed): Promise<Outcome> {
    this.slots.take(row.url);
    const started = performance.now();
    try {
      return await this.deliver(row, secrets);
    } finally {
      this.slots.give(row.url, performance.now() - started);
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

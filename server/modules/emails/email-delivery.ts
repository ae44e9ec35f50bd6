import type { Store } from '../../db/database.js';
import type { EmailRow } from '../../db/schema.js';
import { nowMs } from '../../lib/clock.js';
import { type Lease, LeaseLoop, type LeaseTask } from '../../lib/lease-loop.js';
import type { Logger } from '../../lib/logger.js';
import { nextAttemptAt } from '../../callbacks/retry-policy.js';
import type { Mailer } from '../../mail/mailer.js';
import { findCall, updateCall } from '../dial-sessions/calls.repository.js';
import { claimEmails, anyEmailDue, settleEmail } from './emails.repository.js';

/*
 * Sends queued disposition e-mails through the deployment's mail server, from any process: a row is claimed with a
 * lease, sent, and marked sent in the store right after the server accepted it, with its call's email_ok. A process
 * that dies between the two leaves the lease to run out and the e-mail is sent again with the same Message-ID (derived
 * from the row's id), which is how a receiving server or a reader recognises the copy: the one window in which an
 * e-mail can go twice. A temporary refusal (4xx, no connection) is tried again with growing pauses for a day; a
 * permanent one (5xx) is recorded as failed at once.
 */

export type EmailDeliveryOptions = { concurrency: number; pollMs: number; random: () => number };
export type EmailDelivery = { start(): void; nudge(): void; stop(): Promise<void> };

const DEFAULTS: EmailDeliveryOptions = { concurrency: 4, pollMs: 1_000, random: Math.random };
/** What a lease outlasts a send by: the write that records it. */
const RECORDING_MARGIN_MS = 10_000;

export function createEmailDelivery(
  store: Store,
  mailer: Mailer,
  logger: Logger,
  options: Partial<EmailDeliveryOptions> = {},
): EmailDelivery {
  const o = { ...DEFAULTS, ...options };
  const task: LeaseTask<EmailRow> = {
    name: 'e-mail delivery',
    anyDue: anyEmailDue,
    claim: claimEmails,
    work: (email, lease) => deliver({ store, mailer, logger, random: o.random }, email, lease),
  };
  const loop = new LeaseLoop(store, logger, task, {
    concurrency: o.concurrency,
    leaseMs: mailer.timeoutMs + RECORDING_MARGIN_MS,
    pollMs: o.pollMs,
  });
  return {
    start: () => loop.start(),
    nudge: () => loop.nudge(),
    stop: async () => {
      await loop.stop();
      mailer.close();
    },
  };
}

/** The Message-ID of an outbox row: the same for every attempt, so a copy sent after a crash is known for one. */
export const messageIdOf = (email: Pick<EmailRow, 'id' | 'org_id'>, domain: string) =>
  `<ringbook-email-${email.id}.${email.org_id}@${domain}>`;

type Deps = { store: Store; mailer: Mailer; logger: Logger; random: () => number };

async function deliver(deps: Deps, email: EmailRow, lease: Lease): Promise<void> {
  const result = await deps.mailer.send({
    messageId: messageIdOf(email, email.from_address.split('@')[1] || 'ringbook.invalid'),
    from: { name: email.from_name, address: email.from_address },
    to: email.to_address,
    subject: email.subject,
    text: email.body,
  });
  if (result.accepted) {
    await deps.store.write(async (tx) => {
      // The e-mail went, whatever became of its call: one no longer there (removed since) is not an error.
      const settled = await settleEmail(tx, email.id, lease.owner, { state: 'sent', sent_at_ms: nowMs() });
      if (settled && (await findCall(tx, email.call_id))) await updateCall(tx, email.call_id, { email_ok: 1 });
    });
    return;
  }
  // The callbacks' pauses: 5 s doubling to an hour, less up to half at random, for a day.
  const next = result.permanent ? null : nextAttemptAt(email.created_at_ms, email.attempts, nowMs(), deps.random);
  deps.logger.warn(
    { email: email.id, call: email.call_id, attempt: email.attempts, error: result.error, retry: next !== null },
    'e-mail not sent',
  );
  await deps.store.write((tx) =>
    settleEmail(
      tx,
      email.id,
      lease.owner,
      next === null ? { state: 'failed', last_error: result.error } : { last_error: result.error, next_attempt_at_ms: next },
    ),
  );
}

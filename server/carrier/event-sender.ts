import { Webhook } from 'standardwebhooks';

/*
 * Status callbacks, as a telephony provider sends them: one call's events in the order they happened (the next waits
 * for the previous to be answered 2xx), each signed the Standard Webhooks way with the carrier secret, retried with
 * growing pauses for ten minutes, then dropped (Ringbook's wake-ups end a call whose events never came).
 */

const RETRY_PAUSES_MS = [200, 500, 1_000, 2_000, 5_000, 10_000, 30_000];
const GIVE_UP_AFTER_MS = 10 * 60_000;
const TIMEOUT_MS = 10_000;

type Pending = { url: string; id: string; body: string; firstAttemptMs: number };
export type SendLog = (message: string, detail: Record<string, unknown>) => void;

export class EventSender {
  private readonly queues = new Map<string, Pending[]>();
  private readonly signer: Webhook;
  private closed = false;
  private sequence = 0;

  constructor(
    secret: string,
    private readonly log: SendLog = () => undefined,
  ) {
    this.signer = new Webhook(secret);
  }

  /** Queues an event of call `callId` for `url`; answers its event id. */
  send(callId: string, url: string, event: Record<string, unknown>): string {
    const id = `evt_${callId}_${++this.sequence}_${Date.now().toString(36)}`;
    const pending: Pending = { url, id, body: JSON.stringify({ event_id: id, call_id: callId, ...event }), firstAttemptMs: Date.now() };
    const queue = this.queues.get(callId);
    if (queue) {
      queue.push(pending);
      return id;
    }
    this.queues.set(callId, [pending]);
    void this.drain(callId);
    return id;
  }

  /** Resolves once every queued event has been answered or given up on (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.queues.size && !this.closed) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  close(): void {
    this.closed = true;
    this.queues.clear();
  }

  private async drain(callId: string) {
    const queue = this.queues.get(callId)!;
    while (queue.length && !this.closed) {
      const next = queue[0]!;
      for (let attempt = 0; !this.closed; attempt++) {
        if (await this.post(next)) break;
        if (Date.now() - next.firstAttemptMs > GIVE_UP_AFTER_MS) {
          this.log('status callback given up', { call: callId, event: next.id });
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSES_MS[Math.min(attempt, RETRY_PAUSES_MS.length - 1)]).unref());
      }
      queue.shift();
    }
    this.queues.delete(callId);
  }

  private async post(pending: Pending): Promise<boolean> {
    const at = new Date();
    try {
      const response = await fetch(pending.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': pending.id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': this.signer.sign(pending.id, at, pending.body),
        },
        body: pending.body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) return true;
      this.log('status callback refused', { event: pending.id, status: response.status });
    } catch (error) {
      this.log('status callback not delivered', { event: pending.id, error: (error as Error).message });
    }
    return false;
  }
}

import { DeliveryWorker } from '../../callbacks/delivery-worker.js';
import { DELIVERY_TIMEOUT_MS } from '../../callbacks/retry-policy.js';
import { createSender } from '../../callbacks/sender.js';
import type { Context } from '../../context.js';
import type { Carrier, CarrierEvent } from '../../dialer/carrier.js';
import { createCarrier } from '../../dialer/carriers.js';
import { nowMs } from '../../lib/clock.js';
import { findCall } from './calls.repository.js';
import { DialEventHub } from './dial-events.js';
import { dueSessions } from './dial-sessions.repository.js';
import { drive } from './dialing.service.js';

/** What each server process runs for the dialer: the carrier, the event hub, the callback delivery, the wake-ups. */
export type DialerRuntime = {
  carrier: Carrier;
  events: DialEventHub;
  delivery: DeliveryWorker;
  start(): void;
  /** Stops the wake-ups and the carrier, ends open event streams and lets delivery finish its round. */
  stop(): Promise<void>;
};

export function createDialerRuntime(ctx: Context): DialerRuntime {
  const { config, logger } = ctx;
  const events = new DialEventHub(ctx.store.db);
  const carrier = createCarrier(config.carrier.name, {
    timeScale: config.carrier.timeScale,
    onEvent: (callId, event) => void carrierEvent(ctx, callId, event),
  });
  const delivery = new DeliveryWorker(
    ctx.store,
    createSender({ allowedHosts: config.callbackAllowedHosts, timeoutMs: DELIVERY_TIMEOUT_MS }),
    logger,
  );
  // Wake-ups scale with the carrier, so a lost event in a sped-up test or benchmark is not waited for at full length.
  const tickMs = Math.min(1000, Math.max(20, 1000 * config.carrier.timeScale));
  let ticker: NodeJS.Timeout | undefined;
  let waking = false;
  const wake = async () => {
    if (waking) return;
    waking = true;
    await wakeDue(ctx).finally(() => (waking = false));
  };
  return {
    carrier,
    events,
    delivery,
    start() {
      delivery.start();
      ticker ??= setInterval(() => void wake(), tickMs).unref();
    },
    async stop() {
      clearInterval(ticker);
      ticker = undefined;
      events.close();
      carrier.close();
      await delivery.stop();
    },
  };
}

/** A carrier event for one of our calls, whichever process placed it. */
async function carrierEvent(ctx: Context, callId: number, event: CarrierEvent) {
  try {
    const call = await findCall(ctx.store.db, callId);
    if (call) await drive(ctx, call.session_id, { type: 'carrier', position: call.position, event });
  } catch (error) {
    // The engine's wake-up for this call ends it if the event is never applied.
    ctx.logger.error({ err: error, call: callId, event: event.kind }, 'carrier event not applied');
  }
}

/** Sessions whose wake-up time has come: in every process; a session woken twice is woken once (the engine checks). */
async function wakeDue(ctx: Context) {
  try {
    for (const { id } of await dueSessions(ctx.store.db, nowMs(), 50)) await drive(ctx, id, { type: 'wake' });
  } catch (error) {
    ctx.logger.error({ err: error }, 'dial session wake-up failed; retrying at the next tick');
  }
}

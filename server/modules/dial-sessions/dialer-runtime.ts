import { DeliveryWorker } from '../../callbacks/delivery-worker.js';
import { DELIVERY_TIMEOUT_MS } from '../../callbacks/retry-policy.js';
import { createSender } from '../../callbacks/sender.js';
import { carrierSecretOf } from '../../carrier/secret.js';
import { type Config, localUrl } from '../../config.js';
import type { Store } from '../../db/database.js';
import type { Carrier } from '../../dialer/carrier.js';
import { createCarrierClient } from '../../dialer/carrier-client.js';
import { nowMs } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import { createMailer } from '../../mail/mailer.js';
import { createEmailDelivery, type EmailDelivery } from '../emails/email-delivery.js';
import { DialEventHub } from './dial-events.js';
import { dueSessions } from './dial-sessions.repository.js';

/**
 * What each server process runs for the dialer: its client of the one carrier service, the event hub, the callback
 * delivery, the disposition e-mails' delivery (its client of the one mail server) and the wake-ups. The carrier's events come back through POST /carrier/events, to any process.
 */
export type DialerRuntime = {
  carrier: Carrier;
  /** Shared with the carrier: its commands' bearer, its events' signing secret, media links' signatures. */
  carrierSecret: string;
  /** This deployment's address as the carrier reaches it (status callbacks, media links). */
  callbackBase(): string;
  events: DialEventHub;
  delivery: DeliveryWorker;
  /** Disposition e-mails' delivery: absent when this deployment sends none (no SMTP_URL), and then none is queued. */
  emails: EmailDelivery | undefined;
  /** Starts the wake-ups and delivery; `listeningUrl` is where this server listens (the default callback base). */
  start(listeningUrl?: string): void;
  /** Stops the wake-ups, ends open event streams and lets delivery finish its round. */
  stop(): Promise<void>;
};

export type DialerRuntimeDeps = {
  store: Store;
  config: Pick<Config, 'carrier' | 'host' | 'port' | 'eventPollMs' | 'callbackAllowedHosts' | 'smtpUrl'>;
  logger: Logger;
  secretKey: Buffer;
};

/** What wakes one due session (dialing.service.ts `wake`): given by the composition root, as driving a session needs this runtime. */
export type WakeSession = (sessionId: number) => Promise<void>;

export function createDialerRuntime(ctx: DialerRuntimeDeps, wakeSession: WakeSession): DialerRuntime {
  const { config, logger } = ctx;
  const { signals } = ctx.store;
  const events = new DialEventHub(ctx.store.db, {
    signals,
    pollMs: config.eventPollMs,
    signalledPollMs: config.eventPollMs,
    onError: (error) => logger.warn({ err: error }, 'dialer streams cannot hear other servers (the store is away); polling meanwhile'),
  });
  const carrierSecret = carrierSecretOf(config.carrier.secret, ctx.secretKey);
  let base = config.carrier.callbackUrl ?? localUrl(config.host, config.port);
  const carrier = createCarrierClient({
    url: config.carrier.url ?? 'http://127.0.0.1:9',
    secret: carrierSecret,
    statusCallback: () => `${base}/carrier/events`,
  });
  const delivery = new DeliveryWorker(
    ctx.store,
    createSender({ allowedHosts: config.callbackAllowedHosts, timeoutMs: DELIVERY_TIMEOUT_MS }),
    logger,
  );
  const emails = config.smtpUrl ? createEmailDelivery(ctx.store, createMailer(config.smtpUrl), logger) : undefined;
  // Wake-ups scale with the carrier, so a lost event in a sped-up test or benchmark is not waited for at full length.
  const tickMs = Math.min(1000, Math.max(20, 1000 * config.carrier.timeScale));
  let ticker: NodeJS.Timeout | undefined;
  let waking = false;
  const wake = async () => {
    if (waking) return;
    waking = true;
    await wakeDue(ctx, wakeSession).finally(() => (waking = false));
  };
  return {
    carrier,
    carrierSecret,
    callbackBase: () => base,
    events,
    delivery,
    emails,
    start(listeningUrl) {
      if (listeningUrl && !config.carrier.callbackUrl) base = listeningUrl.replace(/\/+$/, '');
      delivery.start();
      emails?.start();
      ticker ??= setInterval(() => void wake(), tickMs).unref();
    },
    async stop() {
      clearInterval(ticker);
      ticker = undefined;
      events.close();
      await Promise.all([delivery.stop(), emails?.stop()]);
    },
  };
}

/** Sessions whose wake-up time has come: in every process; each is claimed (dialing.service.ts `wake`), so one process wakes it. */
async function wakeDue(ctx: DialerRuntimeDeps, wakeSession: WakeSession) {
  try {
    for (const { id } of await dueSessions(ctx.store.db, nowMs(), 50)) await wakeSession(id);
  } catch (error) {
    ctx.logger.error({ err: error }, 'dial session wake-up failed; retrying at the next tick');
  }
}

import type { CarrierEventBody } from '../../carrier/protocol.js';
import type { CarrierEvent } from '../../dialer/carrier.js';
import { nowMs } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/time.js';
import { findCall } from '../dial-sessions/calls.repository.js';
import { drive, type DialingDeps } from '../dial-sessions/dialing.service.js';
import { recordingAnnounced, type AnnounceDeps } from '../recordings/recordings.service.js';

/** A carrier event drives its session (dialing.service.ts), and may announce the call's recording. */
export type CarrierEventsDeps = DialingDeps & AnnounceDeps;

/**
 * A status callback from the carrier, in whichever server process it lands: the session's engine takes the call's
 * event (a repeat, or one the session has moved past, changes nothing), or the call's recording is noted for the
 * recording job to fetch. A call we do not know (deleted since) is acknowledged and ignored.
 */
export async function applyCarrierEvent(ctx: CarrierEventsDeps, body: CarrierEventBody): Promise<void> {
  const call = await findCall(ctx.store.db, Number(body.call_id));
  if (!call) return;
  if (body.kind === 'recording') {
    if (body.recording) await recordingAnnounced(ctx, call, body.recording, productTime(body.at));
    return;
  }
  await drive(ctx, call.session_id, { type: 'carrier', position: call.position, event: eventOf(body), at: productTime(body.at) });
}

function eventOf(body: CarrierEventBody): CarrierEvent {
  switch (body.kind) {
    case 'answered':
      return { kind: 'answered', by: body.by ?? 'person' };
    case 'failed':
      return { kind: 'failed', reason: body.reason ?? 'failed' };
    default:
      return { kind: body.kind as Exclude<CarrierEvent['kind'], 'answered' | 'failed'> };
  }
}

/** The carrier keeps real time; the store keeps the product's clock (CLOCK_START may move it): the same instant on it. */
const productTime = (iso: string) => toTimestamp(new Date(Date.parse(iso) + (nowMs() - Date.now())));

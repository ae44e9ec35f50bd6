/*
 * The phone network's API, as Ringbook and a carrier speak it: the shape of a REST/webhook telephony provider.
 * Commands go to the carrier (Authorization: Bearer <carrier secret>); status callbacks come back, one call's in the
 * order they happened, each signed the Standard Webhooks way with the same secret and retried until answered 2xx.
 * docs/carrier.md describes it, and how a real provider or a SIP stack plugs in behind it.
 */
import { z } from 'zod';

/** Ringbook's own call id: the carrier takes it as the call's reference, so a repeated command is idempotent. */
const callId = z.string().regex(/^\d{1,15}$/, { error: 'must be a call id' });

/** POST /v1/calls */
export const placeCallCommand = z.object({
  call_id: callId,
  to: z.string().regex(/^\+?\d{3,20}$/, { error: 'must be a phone number' }),
  ring_seconds: z.number().min(0).max(600),
  /** Record the call, the member on the left channel and the contact on the right. */
  record: z.boolean(),
  status_callback: z.url({ protocol: /^https?$/ }),
  /** The carrier ends a call that lasts this long, whatever else happens (a lost hang-up cannot keep a line open). */
  time_limit_seconds: z
    .number()
    .int()
    .min(1)
    .max(4 * 3600)
    .default(4 * 3600),
});
export type PlaceCallCommand = z.input<typeof placeCallCommand>;

/** POST /v1/calls/{call_id}/play: plays the audio into the answered call, then hangs up. */
export const playCommand = z.object({
  audio_url: z.url({ protocol: /^https?$/ }),
  duration_seconds: z.number().min(0).max(600),
});
export type PlayCommand = z.input<typeof playCommand>;

export const CALL_EVENT_KINDS = ['ringing', 'answered', 'busy', 'no_answer', 'failed', 'ended', 'recording'] as const;

/** What the carrier posts to a call's status_callback. */
export const carrierEventBody = z.object({
  event_id: z.string().min(1).max(100),
  call_id: callId,
  kind: z.enum(CALL_EVENT_KINDS),
  /** When it happened, in real time (ISO 8601). */
  at: z.iso.datetime({ offset: true }),
  by: z.enum(['person', 'machine']).optional(),
  reason: z.string().max(200).optional(),
  recording: z
    .object({
      /** Where to fetch it (relative to the carrier's address, or absolute), with the same bearer secret. */
      url: z.string().min(1).max(2000),
      content_type: z.string().max(100),
      duration_seconds: z.number().min(0),
      bytes: z.number().int().min(0),
      channels: z.tuple([z.literal('member'), z.literal('contact')]),
    })
    .optional(),
});
export type CarrierEventBody = z.output<typeof carrierEventBody>;

export const RECORDING_CONTENT_TYPE = 'audio/ogg; codecs=opus';

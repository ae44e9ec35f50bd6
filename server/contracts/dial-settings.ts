/*
 * Dial-session settings (GET and PUT /rest/1/dialsession/settings). Browser-safe: zod only.
 * Values go over the wire as strings (or null), as the contract shows them.
 */
import { z } from 'zod';
import { flagLike, intLike, text } from './common.js';

/** The settings keys that name a message of the library to send for that disposition. */
export const MESSAGE_KEYS = ['busy', 'badphone', 'noanswer', 'fax', 'voicemail', 'interested', 'notinterested', 'wrongperson'] as const;
export type MessageKey = (typeof MESSAGE_KEYS)[number];

export type DialSettings = {
  dialsecs: number;
  ringing: boolean;
  emails: boolean;
  messages: Partial<Record<MessageKey, number>>;
  calltime_min: string;
  calltime_max: string;
  connectme_preset: string | null;
  send_skips: boolean;
};

export const DEFAULT_DIAL_SETTINGS: DialSettings = {
  dialsecs: 30,
  ringing: true,
  emails: false,
  messages: {},
  calltime_min: '0800',
  calltime_max: '2100',
  connectme_preset: null,
  send_skips: false,
};

export const DIALSECS_RANGE = { min: 21, max: 120 };
/** How long the organisation keeps recordings and transcripts: a day to ten years. */
export const RETENTION_DAYS_RANGE = { min: 1, max: 3650 };
const RETENTION_REASON = `must be a whole number of days from ${RETENTION_DAYS_RANGE.min} to ${RETENTION_DAYS_RANGE.max}`;

const HHMM = /^(0[89]|1\d|20)[0-5]\d$|^2100$/;
const callTime = z
  .union([z.string(), z.number()], { error: 'must be a time HHMM from 0800 to 2100' })
  .transform((v) => String(v).trim().padStart(4, '0'))
  .pipe(z.string().regex(HHMM, { error: 'must be a time HHMM from 0800 to 2100' }));

const messageId = z
  .union([z.null(), z.literal(''), intLike], { error: 'must be the id of a message of the library' })
  .transform((v) => (v === '' || v === null || v === 0 ? null : v))
  .pipe(z.number().int().positive({ error: 'must be the id of a message of the library' }).nullable());

const settingsFields = z.object({
  dialsecs: intLike
    .pipe(
      z
        .number()
        .int()
        .min(DIALSECS_RANGE.min, { error: 'must be greater than 20 (seconds)' })
        .max(DIALSECS_RANGE.max, { error: `must be at most ${DIALSECS_RANGE.max} seconds` }),
    )
    .optional(),
  ringing: flagLike.optional(),
  emails: flagLike.optional(),
  ...(Object.fromEntries(MESSAGE_KEYS.map((k) => [k, messageId.optional()])) as Record<MessageKey, z.ZodOptional<typeof messageId>>),
  calltime_min: callTime.optional(),
  calltime_max: callTime.optional(),
  connectme_preset: z
    .union([z.null(), text(20)], { error: 'must be a 10-digit phone number' })
    .transform((v) => (v === null ? null : v.replace(/\D/g, '') || null))
    .pipe(
      z
        .string()
        .regex(/^\d{10}$/, { error: 'must be a 10-digit phone number' })
        .nullable(),
    )
    .optional(),
  send_skips: flagLike.optional(),
  /* Organisation-wide, vendor only: whether calls are recorded, and how long recordings and transcripts are kept. */
  record_calls: flagLike.optional(),
  recording_retention_days: z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,6}$/, { error: RETENTION_REASON }),
      ],
      { error: RETENTION_REASON },
    )
    .transform(Number)
    .pipe(
      z
        .number()
        .int({ error: RETENTION_REASON })
        .min(RETENTION_DAYS_RANGE.min, { error: RETENTION_REASON })
        .max(RETENTION_DAYS_RANGE.max, { error: RETENTION_REASON }),
    )
    .optional(),
  /* Vendor only: 'rotate' replaces the organisation's callback signing secret. */
  callback_secret: z.literal('rotate', { error: "can only be set to 'rotate' (a new secret is made)" }).optional(),
  /* Left only when it holds no keys (settingsInput unwraps it otherwise). */
  payload: z.undefined({ error: 'must be a set of named settings (an object)' }).optional(),
});

const isFields = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The body as the settings schema reads it. The contract nests the keys under `payload` and spells `dialsecs` as
 * `dialsec` in its example; both are unwrapped before validation, so a bad value is reported as given (not as
 * missing) and `payload[dialsec]` counts like `dialsec`. A `payload` that holds no keys is kept, to be refused.
 */
export function settingsInput(raw: unknown): unknown {
  if (!isFields(raw)) return raw;
  const { payload, ...rest } = raw;
  const merged: Record<string, unknown> = isFields(payload) ? { ...rest, ...payload } : payload == null ? rest : raw;
  const { dialsec, ...fields } = merged;
  return dialsec !== undefined && fields.dialsecs === undefined ? { ...fields, dialsecs: dialsec } : fields;
}

/** PUT /rest/1/dialsession/settings, after `settingsInput`. */
export const updateDialSettingsBody = settingsFields.superRefine((body, ctx) => {
  if (body.calltime_min && body.calltime_max && body.calltime_min > body.calltime_max) {
    ctx.addIssue({ code: 'custom', path: ['calltime_max'], message: 'must not be earlier than the earliest time to call' });
  }
});
export type UpdateDialSettingsBody = z.output<typeof updateDialSettingsBody>;

/** The settings record as GET and PUT answer it: the member's settings, then the organisation's recording settings. */
export type DialSettingsRecord = Record<
  'dialsecs' | 'ringing' | 'emails' | MessageKey | 'calltime_min' | 'calltime_max' | 'connectme_preset' | 'send_skips',
  string | null
> & {
  record_calls: '0' | '1';
  recording_retention_days: string;
  callback_secret?: string;
};

/** The keys only the vendor may change. */
export const ORGANISATION_KEYS = ['record_calls', 'recording_retention_days', 'callback_secret'] as const;

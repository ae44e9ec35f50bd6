/*
 * Dial sessions: creation, listing, calls, usage and the dialer screen's actions. Browser-safe: zod only.
 */
import { z } from 'zod';
import { flagLike, idLike, intLike, listOf, paging, query, text } from './common.js';
import { contactFilter } from './contacts.js';
import { parseFlexibleDate } from './dates.js';

/** A session holds at most this many contacts (documented in docs/api.md). */
export const CONTACT_LIMIT = 5000;

export const CALLBACK_TYPES = ['api_callbegin', 'api_calldone', 'api_contact_displayed'] as const;
export type CallbackType = (typeof CALLBACK_TYPES)[number];

const callbackEntry = z.object(
  {
    callback_type: z.enum(CALLBACK_TYPES, { error: `must be one of ${CALLBACK_TYPES.join(', ')}` }),
    callback: text(2000).pipe(z.string().min(1, { error: 'must be the URL of your receiving route' })),
  },
  { error: 'must be an object { callback_type, callback }' },
);

const customData = z
  .union([z.record(z.string(), z.unknown()), z.array(z.unknown()).max(0)], { error: 'must be an object of key/value pairs' })
  .transform((v) => (Array.isArray(v) ? null : v));

export const createDialSessionBody = z
  .object({
    /* Each entry is checked on its own: a bad one is refused in `errors`, the others go ahead. */
    contacts: listOf(z.unknown()).pipe(
      z
        .array(z.unknown())
        .max(CONTACT_LIMIT, { error: `must list at most ${CONTACT_LIMIT} contacts (the session limit)` })
        .optional(),
    ),
    contact_filter: contactFilter.optional(),
    callbacks: listOf(callbackEntry),
    custom_data: customData.optional(),
    dialing_disposition_set_id: idLike.optional(),
    answer_disposition_set_id: idLike.optional(),
    preview_mode: flagLike.default(false),
    send_skips: flagLike.optional(),
    preset_id: intLike.optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.contacts?.length && !body.contact_filter) {
      ctx.addIssue({ code: 'custom', path: ['contacts'], message: 'must list at least one contact (or give contact_filter)' });
    }
  });
export type CreateDialSessionBody = z.output<typeof createDialSessionBody>;

/** An entry naming a contact the caller can see, instead of a contact to create (extension). */
export const existingContactEntry = z.object({ contact_user_id: idLike }).strict();

/** A day of the calendar as YYYY-MM-DD: 2026-02-30 is refused, not read as the 2nd of March. */
const calendarDate = z
  .string({ error: 'is required' })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date YYYY-MM-DD' })
  .refine((v) => parseFlexibleDate(v) === v, { error: 'must be a real date YYYY-MM-DD' });

const dateParam = query.value(calendarDate.optional());

export const DIAL_SESSION_STATUSES = ['ready', 'active', 'ended'] as const;

/** Extensions: `status` (the app finds a running session with status=active) and `member_id` (one member of the caller's team). */
export const listDialSessionsQuery = paging.extend({
  date_start: dateParam,
  date_end: dateParam,
  status: query.value(z.enum(DIAL_SESSION_STATUSES, { error: `must be one of ${DIAL_SESSION_STATUSES.join(', ')}` }).optional()),
  member_id: query.value(idLike.optional()),
});

export const dialSessionQuery = paging.extend({
  include_recording: query.flag,
  include_transcript: query.flag,
});

export const dialSessionIdParam = z.object({ dialsession_id: idLike });
export const callIdParam = z.object({ call_id: idLike });
export const transcriptIdParam = z.object({ transcript_id: idLike });
export const callQuery = z.object({
  call_id: query.value(idLike.optional()),
  include_recording: query.flag,
  include_transcript: query.flag,
});

/** Usage covers at most this many days: date_end at most 90 days after date_start (the contract's limit). */
export const MAX_USAGE_DAYS = 90;

export const usageQuery = z.object({ date_start: query.value(calendarDate), date_end: query.value(calendarDate) });

/** One member's figures in GET /rest/1/dialsession/usage; talk times in whole minutes. */
export type UsageRecord = {
  sessions: number;
  calls: number;
  connected: number;
  voicemail: number;
  emails: number;
  talktime: number;
  avg_talktime: number;
};

/** GET /rest/1/dialsession/usage/days and /usage/dispositions (extensions): the same days, optionally one member of the caller's team. */
export const usageBreakdownQuery = usageQuery.extend({ member_id: query.value(idLike.optional()) });

/** One UTC day in GET /rest/1/dialsession/usage/days: every day of the range is there, zeros included. */
export type UsageDayRecord = { date: string; calls: number; connected: number; voicemail: number; talktime_minutes: number };

/** One disposition label in GET /rest/1/dialsession/usage/dispositions; '' counts the calls not dispositioned yet. */
export type UsageDispositionRecord = { disposition: string; calls: number };

/* The dialer screen's actions (extensions): POST /rest/1/dialsession/{id}/{action}. */
export const DIAL_ACTIONS = ['start', 'call', 'hangup', 'skip', 'disposition', 'voicemail', 'end', 'note'] as const;
export type DialAction = (typeof DIAL_ACTIONS)[number];
export const dialActionParam = z.object({
  dialsession_id: idLike,
  action: z.enum(DIAL_ACTIONS, { error: `must be one of ${DIAL_ACTIONS.join(', ')}` }),
});
export const callActionBody = z.object({ phone: text(40).optional() });
export const dispositionActionBody = z.object({ disposition_id: idLike });
export const voicemailActionBody = z.object({ recording_id: idLike });
export const noteActionBody = z.object({ note: text(20000).pipe(z.string().min(1, { error: 'must not be empty' })) });

export const eventsQuery = z.object({ after: query.value(intLike.optional()) });

export type DialSessionRecord = {
  dialsession_id: string;
  callerid: string | null;
  start_when: string | null;
  end_when: string | null;
  connected_when: string | null;
  disconnected_when: string | null;
  call_count: number;
  /* Extensions. */
  member_id: string;
  status: (typeof DIAL_SESSION_STATUSES)[number];
  preview_mode: '0' | '1';
  contact_count: number;
  calls?: CallRecord[];
};

export type CallRecord = {
  call_id: string;
  user_id: string;
  phone: string;
  start_when: string;
  end_when: string | null;
  connected: '0' | '1';
  voicemail: '0' | '1';
  voicemail_sent: string | null;
  email_sent: string;
  email_ok: '0' | '1';
  hangup_status: string;
  message_id: string;
  note: string;
  disposition: string;
  duration: number;
  /** Set once the call's transcript is 'completed' or 'summarized' (the contract's rule). */
  transcript_id: string | null;
  /** The transcript summary object with include_transcript=1 (and a transcript_id); otherwise null. */
  transcript: TranscriptSummary | null;
  /** Extension on the session's calls and GET /rest/1/dialsession/call: the contact's name as it is now ('' once deleted). */
  contact_name?: string;
  /** With include_recording=1: where to fetch the recording (authorised like the call), or null when there is none. */
  recording_url?: string | null;
  /** Extensions: the recording's state, and the transcript's status and why it is not there (docs/api.md). */
  recording_status: 'none' | 'pending' | 'stored' | 'failed' | 'deleted';
  transcript_status: 'none' | 'queued' | 'processing' | 'completed' | 'summarized' | 'failed' | 'unavailable' | 'deleted';
  transcript_reason: string | null;
};

/** The contract's transcript summary object; talk_time in seconds. */
export type TranscriptSummary = {
  transcript_id: string;
  summary: string;
  talk_time: { speaker: string; speaker_label: 'member' | 'contact'; time: number }[];
  status: 'completed' | 'summarized';
};

/** GET /api/rest/transcript/{id}: the full segmented transcript (its shape is ours: the contract does not show it). */
export type TranscriptRecord = Omit<TranscriptSummary, 'status'> & {
  call_id: string;
  status: 'queued' | 'processing' | 'completed' | 'summarized' | 'failed' | 'unavailable' | 'deleted';
  reason: string | null;
  engine: string | null;
  duration: number;
  segments: {
    speaker: string;
    speaker_label: 'member' | 'contact';
    start: number;
    end: number;
    text: string;
    words: { text: string; start: number; end: number; confidence: number | null }[];
  }[];
  created_at: string;
  completed_at: string | null;
};

export const CONTENT_TYPES = ['onetouch', 'script', 'aac_email', 'add_appt_email', 'wmw_invitation', 'affiliate_invitation'] as const;
export const contentQuery = z.object({
  type: query.value(z.enum(CONTENT_TYPES, { error: `must be one of ${CONTENT_TYPES.join(', ')}` }).optional()),
  list: query.value(z.enum(['user', 'system', 'both'], { error: 'must be user, system or both' }).default('both')),
});
export const recordingIdParam = z.object({ recording_id: idLike });
export const phoneNumberParam = z.object({
  phone_number: text(40).refine((v) => /^\d{7,15}$/.test(v.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '')), {
    error: 'must be a phone number of 7 to 15 digits',
  }),
});

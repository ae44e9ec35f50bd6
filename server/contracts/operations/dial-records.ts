/* The dialer's records and the other resources' as zod schemas, each checked against its type (see records.ts). */
import { z } from 'zod';
import { BULK_ACTIONS, type BulkJobRecord } from '../bulk-jobs.js';
import type { ListedCallRecord } from '../calls.js';
import {
  type CallRecord,
  DIAL_SESSION_STATUSES,
  type DialSessionRecord,
  type TranscriptRecord,
  type UsageDayRecord,
  type UsageDispositionRecord,
  type UsageRecord,
} from '../dial-sessions.js';
import { type DialSettingsRecord, MESSAGE_KEYS } from '../dial-settings.js';
import type { ContentRecord } from '../content.js';
import type { ClockRecord } from '../system.js';
import type { VoicemailRecord } from '../voicemails.js';
import type { Same } from './records.js';

const s = z.string();
const n = z.number();
const flag = z.enum(['0', '1']).describe('"1" or "0"');

export const bulkJobItem = z.object({
  bulk_job_id: s,
  action: z.enum(BULK_ACTIONS),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  total: n,
  processed: n,
  changed: n,
  error: s.nullable(),
  created_at: s,
  finished_at: s.nullable(),
});

export const voicemailItem = z.object({
  recording_id: s,
  name: s,
  playback_url: s,
  created_when: s,
  duration_seconds: n,
  duration_ms: n.describe('Extension.'),
  member_id: s.nullable().describe('Extension: who recorded it.'),
  member_name: s.nullable().describe('Extension.'),
  system: flag.describe('Extension: "1" for the starter greeting.'),
  can_edit: flag.describe('Extension: whether the caller may rename or delete it.'),
});

export const contentItem = z.object({
  cm_content_id: s,
  display_name: s,
  description: s,
  message_id: s,
  display_order: s,
  system_message: z.union([z.literal(0), z.literal(1)]),
  type: s.describe('Extension: onetouch for an e-mail.'),
  subject: s.describe('Extension: with merge fields such as {first_name}.'),
  body: s.describe('Extension: with merge fields.'),
  member_id: s.nullable().describe('Extension: whose message it is; null for a system message.'),
  can_edit: flag.describe('Extension: whether the caller may change or delete it.'),
});

const transcriptSummary = z.object({
  transcript_id: s,
  summary: s,
  talk_time: z.array(z.object({ speaker: s, speaker_label: z.enum(['member', 'contact']), time: n })),
  status: z.enum(['completed', 'summarized']),
});

export const callItem = z.object({
  call_id: s,
  user_id: s,
  phone: s,
  start_when: s,
  end_when: s.nullable(),
  connected: flag,
  voicemail: flag,
  voicemail_sent: s.nullable(),
  email_sent: s,
  email_ok: flag,
  hangup_status: s,
  message_id: s,
  note: s,
  disposition: s,
  duration: n,
  transcript_id: s.nullable(),
  transcript: transcriptSummary.nullable().describe('With include_transcript=1 and a transcript.'),
  contact_name: s.optional().describe('Extension.'),
  recording_url: s.nullable().optional().describe('With include_recording=1.'),
  recording_status: z.enum(['none', 'pending', 'stored', 'failed', 'deleted']).describe('Extension.'),
  transcript_status: z
    .enum(['none', 'queued', 'processing', 'completed', 'summarized', 'failed', 'unavailable', 'deleted'])
    .describe('Extension.'),
  transcript_reason: s.nullable().describe('Extension.'),
});
const speaker = { speaker: s, speaker_label: z.enum(['member', 'contact']) };
export const transcriptItem = transcriptSummary.omit({ status: true }).extend({
  call_id: s,
  status: z.enum(['queued', 'processing', 'completed', 'summarized', 'failed', 'unavailable', 'deleted']),
  reason: s.nullable().describe('Why there is no transcript to show, when there is none.'),
  engine: s.nullable(),
  duration: n,
  segments: z.array(
    z.object({
      ...speaker,
      start: n,
      end: n,
      text: s,
      words: z.array(z.object({ text: s, start: n, end: n, confidence: n.nullable() })),
    }),
  ),
  created_at: s,
  completed_at: s.nullable(),
});

const SETTING_KEYS = [
  'dialsecs',
  'ringing',
  'emails',
  ...MESSAGE_KEYS,
  'calltime_min',
  'calltime_max',
  'connectme_preset',
  'send_skips',
] as const;
export const settingsItem = z
  .object(
    Object.fromEntries(SETTING_KEYS.map((k) => [k, s.nullable()])) as Record<(typeof SETTING_KEYS)[number], z.ZodNullable<z.ZodString>>,
  )
  .extend({
    record_calls: flag.describe('The organisation’s: calls are recorded.'),
    recording_retention_days: s.describe('The organisation’s: days recordings and transcripts are kept.'),
    callback_secret: s.optional().describe('The organisation’s callback signing secret: to the vendor only.'),
  });

export const listedCallItem = callItem.extend({ session_id: s, member_id: s, member_name: s });

export const dialSessionItem = z.object({
  dialsession_id: s,
  callerid: s.nullable(),
  start_when: s.nullable(),
  end_when: s.nullable(),
  connected_when: s.nullable(),
  disconnected_when: s.nullable(),
  call_count: n,
  member_id: s.describe('Extension.'),
  status: z.enum(DIAL_SESSION_STATUSES).describe('Extension.'),
  preview_mode: flag.describe('Extension.'),
  contact_count: n.describe('Extension.'),
  calls: z.array(callItem).optional(),
});

export const usageItem = z.object({ sessions: n, calls: n, connected: n, voicemail: n, emails: n, talktime: n, avg_talktime: n });
export const usageDayItem = z.object({ date: s, calls: n, connected: n, voicemail: n, talktime_minutes: n });
export const usageDispositionItem = z.object({ disposition: s, calls: n });
export const clockItem = z.object({ now: s, today: s });

export const dialTypeChecks: [
  Same<z.output<typeof bulkJobItem>, BulkJobRecord>,
  Same<z.output<typeof voicemailItem>, VoicemailRecord>,
  Same<z.output<typeof callItem>, CallRecord>,
  Same<z.output<typeof listedCallItem>, ListedCallRecord>,
  Same<z.output<typeof dialSessionItem>, DialSessionRecord>,
  Same<z.output<typeof usageItem>, UsageRecord>,
  Same<z.output<typeof usageDayItem>, UsageDayRecord>,
  Same<z.output<typeof usageDispositionItem>, UsageDispositionRecord>,
  Same<z.output<typeof clockItem>, ClockRecord>,
  Same<z.output<typeof transcriptItem>, TranscriptRecord>,
  Same<z.output<typeof settingsItem>, DialSettingsRecord>,
  Same<z.output<typeof contentItem>, ContentRecord>,
] = [true, true, true, true, true, true, true, true, true, true, true, true];

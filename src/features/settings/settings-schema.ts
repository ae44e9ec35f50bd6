import { z } from 'zod';
import {
  DIALSECS_RANGE,
  type DialSettingsRecord,
  MESSAGE_KEYS,
  type MessageKey,
  RETENTION_DAYS_RANGE,
} from '../../../server/contracts/dial-settings';
import type { FieldMap } from '../../components/ui/form-error';

/*
 * The settings form: what the member sees (times as HH:MM, flags as checkboxes, messages as ids or '' for none) and
 * the wire's keys and values (HHMM, '1'/'0', null). Ranges come from the contract; the server checks them again.
 */

export const MESSAGE_LABELS: Record<MessageKey, string> = {
  busy: 'Busy',
  badphone: 'Bad phone',
  noanswer: 'No answer',
  fax: 'Fax',
  voicemail: 'Voicemail',
  interested: 'Interested',
  notinterested: 'Not interested',
  wrongperson: 'Wrong person',
};

export const FIELD_LABELS = {
  dialsecs: 'Ring time (seconds)',
  ringing: 'Play a ringing sound while dialing',
  emails: 'Send disposition e-mails',
  calltime_min: 'Calling hours from',
  calltime_max: 'Calling hours until',
  send_skips: 'Report skipped contacts',
  record_calls: 'Record calls',
  recording_retention_days: 'Keep recordings and transcripts (days)',
  ...MESSAGE_LABELS,
} as const;

const EARLIEST = '08:00';
const LATEST = '21:00';
export const CALL_WINDOW = { min: EARLIEST, max: LATEST };

const time = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: `must be a time from ${EARLIEST} to ${LATEST}` })
  .refine((v) => !/^\d\d:\d\d$/.test(v) || (v >= EARLIEST && v <= LATEST), { error: `must be a time from ${EARLIEST} to ${LATEST}` });

const wholeIn = (range: { min: number; max: number }, unit: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: `must be a whole number of ${unit}` })
    .refine((v) => !/^\d+$/.test(v) || (Number(v) >= range.min && Number(v) <= range.max), {
      error: `must be from ${range.min} to ${range.max} ${unit}`,
    });

export const settingsFormSchema = z
  .object({
    dialsecs: wholeIn(DIALSECS_RANGE, 'seconds'),
    ringing: z.boolean(),
    emails: z.boolean(),
    send_skips: z.boolean(),
    calltime_min: time,
    calltime_max: time,
    messages: z.object(Object.fromEntries(MESSAGE_KEYS.map((k) => [k, z.string()])) as Record<MessageKey, z.ZodString>),
    record_calls: z.boolean(),
    recording_retention_days: wholeIn(RETENTION_DAYS_RANGE, 'days'),
  })
  .superRefine((v, ctx) => {
    if (v.calltime_min && v.calltime_max && v.calltime_min > v.calltime_max) {
      ctx.addIssue({ code: 'custom', path: ['calltime_max'], message: `must not be earlier than the start (${v.calltime_min})` });
    }
  });
export type SettingsForm = z.infer<typeof settingsFormSchema>;

const toTime = (hhmm: string | null) => (hhmm ? `${hhmm.slice(0, 2)}:${hhmm.slice(2)}` : '');

export function toForm(s: DialSettingsRecord): SettingsForm {
  return {
    dialsecs: s.dialsecs ?? '',
    ringing: s.ringing === '1',
    emails: s.emails === '1',
    send_skips: s.send_skips === '1',
    calltime_min: toTime(s.calltime_min),
    calltime_max: toTime(s.calltime_max),
    messages: Object.fromEntries(MESSAGE_KEYS.map((k) => [k, s[k] ?? ''])) as Record<MessageKey, string>,
    record_calls: s.record_calls === '1',
    recording_retention_days: s.recording_retention_days,
  };
}

/** The body to PUT: the member's keys, and the organisation's when the vendor saves. */
export function toBody(v: SettingsForm, vendor: boolean): Record<string, string | number | null> {
  const flag = (b: boolean) => (b ? '1' : '0');
  return {
    dialsecs: Number(v.dialsecs),
    ringing: flag(v.ringing),
    emails: flag(v.emails),
    send_skips: flag(v.send_skips),
    calltime_min: v.calltime_min.replace(':', ''),
    calltime_max: v.calltime_max.replace(':', ''),
    ...Object.fromEntries(MESSAGE_KEYS.map((k) => [k, v.messages[k] || null])),
    ...(vendor ? { record_calls: flag(v.record_calls), recording_retention_days: Number(v.recording_retention_days) } : {}),
  };
}

/** Where the API's 400 reasons go: each wire key to its field and label. */
export const SERVER_FIELDS: FieldMap<SettingsForm> = {
  ...Object.fromEntries(
    (
      ['dialsecs', 'ringing', 'emails', 'send_skips', 'calltime_min', 'calltime_max', 'record_calls', 'recording_retention_days'] as const
    ).map((k) => [k, { name: k, label: FIELD_LABELS[k] }]),
  ),
  dialsec: { name: 'dialsecs', label: FIELD_LABELS.dialsecs },
  ...Object.fromEntries(MESSAGE_KEYS.map((k) => [k, { name: `messages.${k}` as const, label: MESSAGE_LABELS[k] }])),
};

import type { CallRecord, DialSessionRecord } from '../../contracts/dial-sessions.js';
import type { Call, DialSession } from '../../db/schema.js';
import type { CallWithContact } from './calls.repository.js';

const flag = (v: number | boolean) => (v ? '1' : '0') as '0' | '1';

export function toSessionRecord(s: DialSession, callCount: number): DialSessionRecord {
  return {
    dialsession_id: String(s.id),
    callerid: s.callerid,
    start_when: s.started_at,
    end_when: s.ended_at,
    connected_when: s.connected_at,
    disconnected_when: s.disconnected_at,
    call_count: callCount,
    member_id: String(s.member_id),
    status: s.status,
    preview_mode: flag(s.preview_mode),
    contact_count: s.contact_count,
  };
}

/**
 * The contract's Call, plus the contact (`user_id`, and `contact_name` where the read joined it) and `duration`
 * (seconds). Recordings and transcripts do not exist yet: transcript_id and transcript are null, and include_recording
 * adds recording_url: null.
 */
export function toCallRecord(c: Call | CallWithContact, includeRecording: boolean): CallRecord {
  return {
    call_id: String(c.id),
    user_id: String(c.contact_id),
    phone: c.phone,
    start_when: c.started_at,
    end_when: c.ended_at,
    connected: flag(c.connected),
    voicemail: flag(c.voicemail),
    voicemail_sent: c.voicemail_sent,
    email_sent: flag(c.email_sent),
    email_ok: flag(c.email_ok),
    hangup_status: c.hangup_status,
    message_id: c.message_id ?? '',
    note: (JSON.parse(c.notes) as string[]).join('\n'),
    disposition: c.disposition,
    duration: c.duration,
    transcript_id: null,
    transcript: null,
    ...('contact_first_name' in c ? { contact_name: [c.contact_first_name, c.contact_last_name].filter(Boolean).join(' ') } : {}),
    ...(includeRecording ? { recording_url: null } : {}),
  };
}

import type { CallRecord, DialSessionRecord, TranscriptSummary } from '../../contracts/dial-sessions.js';
import type { CallMedia } from '../transcripts/transcripts.repository.js';
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

/** How a call is shown: the contract's include_recording and include_transcript, and where recordings are fetched. */
export type CallView = { includeRecording: boolean; includeTranscript: boolean; publicUrl: string };

const DONE = ['completed', 'summarized'];

/**
 * The contract's Call, plus the contact (`user_id`, and `contact_name` where the read joined it), `duration` (seconds),
 * and what became of its recording and transcript (`media`, read for a page of calls at once: transcripts.repository).
 */
export function toCallRecord(c: Call | CallWithContact, view: CallView, media?: CallMedia): CallRecord {
  const done = media?.transcript_id != null && DONE.includes(media.transcript_status ?? '');
  const recorded = media?.recording_state === 'stored' || media?.recording_state === 'announced' || media?.recording_state === 'expected';
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
    transcript_id: done ? String(media!.transcript_id) : null,
    transcript: done && view.includeTranscript ? transcriptSummary(media!) : null,
    ...('contact_first_name' in c ? { contact_name: [c.contact_first_name, c.contact_last_name].filter(Boolean).join(' ') } : {}),
    ...(view.includeRecording ? { recording_url: recorded ? recordingUrl(view.publicUrl, c.id) : null } : {}),
    recording_status: !media?.recording_state
      ? 'none'
      : media.recording_state === 'announced' || media.recording_state === 'expected'
        ? 'pending'
        : (media.recording_state as CallRecord['recording_status']),
    transcript_status: (media?.transcript_status as CallRecord['transcript_status'] | null) ?? 'none',
    transcript_reason: media?.transcript_reason ?? null,
  };
}

export const recordingUrl = (publicUrl: string, callId: number) => `${publicUrl}/rest/1/dialsession/call/${callId}/recording`;

/** The contract's transcript summary object: talk time per speaker in seconds. */
export function transcriptSummary(
  t: Pick<CallMedia, 'transcript_id' | 'transcript_status' | 'summary' | 'talk_member_ms' | 'talk_contact_ms'>,
): TranscriptSummary {
  return {
    transcript_id: String(t.transcript_id),
    summary: t.summary ?? '',
    talk_time: [
      { speaker: 'Member', speaker_label: 'member', time: (t.talk_member_ms ?? 0) / 1000 },
      { speaker: 'Contact', speaker_label: 'contact', time: (t.talk_contact_ms ?? 0) / 1000 },
    ],
    status: t.transcript_status as TranscriptSummary['status'],
  };
}

import type { ListedCallRecord } from '../../../server/contracts/calls';

type CallFacts = Pick<
  ListedCallRecord,
  'disposition' | 'end_when' | 'connected' | 'hangup_status' | 'recording_status' | 'transcript_status'
>;

/** What came of a call: its disposition, else what the line did. */
export function callOutcome(call: CallFacts): string {
  if (call.disposition) return call.disposition;
  if (!call.end_when) return 'On the line';
  if (call.connected === '1') return 'Connected';
  /* The line's own words are lower case ('busy', 'no answer', 'cancelled'). */
  const said = call.hangup_status.trim();
  return said ? said.charAt(0).toUpperCase() + said.slice(1) : 'No result';
}

/** Seconds as m:ss (an hour and more as 61:05: calls are short). */
export function callDuration(seconds: number): string {
  const s = Number.isFinite(seconds) ? Math.max(0, Math.round(seconds)) : 0;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Recorded / transcribed, as far as the call has got. */
export function callKept(call: CallFacts): string[] {
  const kept: string[] = [];
  if (call.recording_status === 'stored') kept.push('Recorded');
  else if (call.recording_status === 'pending') kept.push('Recording…');
  if (call.transcript_status === 'completed' || call.transcript_status === 'summarized') kept.push('Transcribed');
  else if (call.transcript_status === 'queued' || call.transcript_status === 'processing') kept.push('Transcribing…');
  return kept;
}

/*
 * The phone network as the dialer sees it: one carrier service for the whole deployment, reached from any server
 * process by call id (docs/carrier.md). Commands go out after the step that decided them has committed; the calls'
 * events come back as status callbacks (POST /carrier/events), which any server process applies to the session.
 *
 * The promises a carrier keeps: a call gets at most one terminal event (busy, no_answer, failed, ended) and nothing
 * after it but its recording; a hang-up or a voicemail for a call that is unknown or finished does nothing; a command
 * sent twice (a retry) acts once. The engine ignores stale events, and wakes up to end a call whose events never came.
 */
export type CarrierEvent =
  | { kind: 'ringing' }
  | { kind: 'answered'; by: 'person' | 'machine' }
  | { kind: 'busy' }
  | { kind: 'no_answer' }
  | { kind: 'failed'; reason: string }
  /** A call that was answered, or cancelled while ringing, has ended. */
  | { kind: 'ended' };

export type TerminalKind = 'busy' | 'no_answer' | 'failed' | 'ended';

export const isTerminal = (event: CarrierEvent): event is Extract<CarrierEvent, { kind: TerminalKind }> =>
  event.kind !== 'ringing' && event.kind !== 'answered';

export type PlaceCall = {
  callId: number;
  /** Ten digits, North American. */
  to: string;
  /** How long to ring before giving up: the account's dialsecs. */
  ringSeconds: number;
  /** Record it, two channels (the organisation's setting). */
  record: boolean;
};

export type Carrier = {
  placeCall(call: PlaceCall): Promise<void>;
  /** Ends the call, or cancels a ringing one: 'ended'. */
  hangUp(callId: number): Promise<void>;
  /** Plays the recording at `audioUrl` into an answered call, then ends it: 'ended'. */
  playVoicemail(callId: number, recording: { audioUrl: string; durationSeconds: number }): Promise<void>;
  /** A recording the carrier announced, fetched whole; and told it may be deleted there. */
  fetchRecording(url: string): Promise<Buffer>;
  deleteRecording(url: string): Promise<void>;
};

/*
 * The phone network as the dialer sees it. The engine places calls and reacts to events; a real carrier can be
 * added behind this interface later.
 *
 * The promises every carrier keeps: events arrive asynchronously (never from inside a method call), a call gets
 * at most one terminal event (busy, no_answer, failed, ended) and nothing after it, and hangUp or playVoicemail
 * for a call that is unknown or finished does nothing. Another server process may have placed the call, and the
 * engine ignores stale events, so a carrier never throws from these methods.
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

/** Called for every event; it must not throw (it runs from a timer or a network callback). */
export type CarrierListener = (callId: number, event: CarrierEvent) => void;

export type PlaceCall = {
  callId: number;
  /** Ten digits, North American. */
  to: string;
  /** How long to ring before giving up: the account's dialsecs. */
  ringSeconds: number;
};

export type Carrier = {
  placeCall(call: PlaceCall): void;
  /** Ends the call, or cancels a ringing one: 'ended'. */
  hangUp(callId: number): void;
  /** Plays a recording into an answered call, then ends it: 'ended'. */
  playVoicemail(callId: number, recording: { durationSeconds: number }): void;
  /** Stops every timer (server shutdown); no events after it. */
  close(): void;
};

export type CarrierName = 'simulated';

export type CarrierOptions = {
  /** Multiplies every simulated duration (CARRIER_TIME_SCALE): 1 in production, 0.02 in tests. */
  timeScale: number;
  onEvent: CarrierListener;
};

/*
 * The rendered conversations as the carrier would record them (composed, then 24 kbit/s stereo Ogg Opus), one
 * second of silence after each script: what the engine's tests, the summarizer's fixture and the benchmark use.
 */
import { composeCall, type PlacedTurn, placeTurns } from './compose.js';
import type { Conversation } from './conversations.js';
import { createOggOpusEncoder } from './ogg-opus.js';
import { SPEECH_RATE } from './pcm.js';
import type { VoiceBank } from './voices.js';

export type SampleCall = { conversation: Conversation; seed: number; connectedSeconds: number; turns: PlacedTurn[]; recording: Buffer };

export function sampleCall(voices: VoiceBank, conversation: Conversation, seed: number): SampleCall {
  const connectedSeconds = Math.ceil(placeTurns(voices, conversation, seed).scriptSeconds + 1);
  const call = composeCall({ voices, conversation, connectedSeconds, seed });
  const encoder = createOggOpusEncoder({ sampleRate: SPEECH_RATE, channels: 2, bitrateKbps: 24 });
  const recording = Buffer.concat([encoder.write(call.channels), encoder.end()]);
  return { conversation, seed, connectedSeconds, turns: call.turns, recording };
}

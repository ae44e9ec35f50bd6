/*
 * A call's audio from rendered lines: each turn on its speaker's channel (member first, contact second, as in
 * CALL_CHANNEL), one after another with the pauses people leave when the other stops talking, drawn from a seeded
 * generator so a call sounds the same every time it is made again. The call lasts exactly as long as it was
 * connected: cut mid-line when it is shorter than the script, silence after the script when it is longer.
 */
import { CONVERSATIONS, type Conversation } from './conversations.js';
import { CALL_CHANNEL, type Speaker, SPEECH_RATE } from './pcm.js';
import type { VoiceBank } from './voices.js';

export type PlacedTurn = { clipId: string; speaker: Speaker; text: string; start: number; end: number };
export type ComposedCall = { sampleRate: typeof SPEECH_RATE; channels: [Float32Array, Float32Array]; turns: PlacedTurn[] };

/** From the line being answered to the answer: most replies come quickly, some after a moment's thought. */
const REPLY_GAP = { quick: [0.25, 0.8], thinking: [1.0, 1.6], thinkingShare: 0.15 } as const;
/** The contact picks up, then says hello after this long. */
const FIRST_LINE_AT = [0.3, 0.7] as const;
/** A line cut by the end of the call fades out over this long instead of clicking. */
const FADE_SECONDS = 0.02;

/** mulberry32: a small, fast, seeded generator; the same seed gives the same pauses. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (next: () => number, [low, high]: readonly [number, number]) => low + next() * (high - low);
const samplesOf = (seconds: number) => Math.round(seconds * SPEECH_RATE);

/** Where each line of the conversation starts and ends, in seconds from the moment the call connects. */
export function placeTurns(voices: VoiceBank, conversation: Conversation, seed: number): { turns: PlacedTurn[]; scriptSeconds: number } {
  const next = random(seed);
  const clips = voices.turns(conversation);
  let at = between(next, FIRST_LINE_AT);
  const turns = clips.map((clip, i) => {
    if (i > 0) at += between(next, next() < REPLY_GAP.thinkingShare ? REPLY_GAP.thinking : REPLY_GAP.quick);
    const start = samplesOf(at) / SPEECH_RATE;
    at = start + clip.pcm.length / SPEECH_RATE;
    return { clipId: clip.id, speaker: clip.speaker, text: clip.text, start, end: at };
  });
  return { turns, scriptSeconds: at };
}

/** Copies `clip` into `channel` from `start` seconds, cut (with a short fade) where the channel ends. */
function place(channel: Float32Array, clip: Float32Array, start: number) {
  const from = samplesOf(start);
  const room = channel.length - from;
  if (room <= 0) return;
  if (room >= clip.length) {
    channel.set(clip, from);
    return;
  }
  const fade = Math.min(room, samplesOf(FADE_SECONDS));
  for (let i = 0; i < room; i++) channel[from + i] = clip[i]! * Math.min(1, (room - i) / fade);
}

function emptyChannels(seconds: number): [Float32Array, Float32Array] {
  if (!(Number.isFinite(seconds) && seconds >= 0)) throw new RangeError(`a call lasts zero seconds or more, not ${seconds}`);
  return [new Float32Array(samplesOf(seconds)), new Float32Array(samplesOf(seconds))];
}

/** Two channels of exactly `connectedSeconds` at 16 kHz with the conversation's lines placed on them. */
export function composeCall(input: {
  voices: VoiceBank;
  conversation: Conversation;
  connectedSeconds: number;
  seed: number;
}): ComposedCall {
  const channels = emptyChannels(input.connectedSeconds);
  const { turns } = placeTurns(input.voices, input.conversation, input.seed);
  const clips = new Map(input.voices.turns(input.conversation).map((clip) => [clip.id, clip]));
  for (const turn of turns) place(channels[CALL_CHANNEL[turn.speaker]], clips.get(turn.clipId)!.pcm, turn.start);
  const heard = turns.filter((t) => t.start < input.connectedSeconds).map((t) => ({ ...t, end: Math.min(t.end, input.connectedSeconds) }));
  return { sampleRate: SPEECH_RATE, channels, turns: heard };
}

/** FNV-1a: a stable 32-bit hash of a string, the same in every process and every release of Node. */
export function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/** The conversation a call plays, from a key such as the contact's id and the call's outcome. */
export function chooseConversation(key: string): Conversation {
  return CONVERSATIONS[hashKey(key) % CONVERSATIONS.length]!;
}

/** An answering machine: its greeting shortly after it picks up, then its beep. */
const MACHINE = { greetingAt: 0.4, beepAfter: 0.3, beepSeconds: 0.5, beepHz: 1000, beepLevel: 0.25 } as const;
/** A voicemail dropped with no time given starts this long after the beep. */
const DROP_AFTER_BEEP = 0.4;
const TAIL_SECONDS = 0.5;

export type MachineTimings = { greetingStart: number; beepStart: number; beepEnd: number };

/** When the machine's greeting and beep play, in seconds from the moment it answers. */
export function machineTimings(voices: VoiceBank): MachineTimings {
  const greetingSeconds = voices.machineGreeting().pcm.length / SPEECH_RATE;
  const beepStart = MACHINE.greetingAt + greetingSeconds + MACHINE.beepAfter;
  return { greetingStart: MACHINE.greetingAt, beepStart, beepEnd: beepStart + MACHINE.beepSeconds };
}

function beep(): Float32Array {
  const length = samplesOf(MACHINE.beepSeconds);
  const edge = samplesOf(0.01);
  return Float32Array.from(
    { length },
    (_, i) =>
      MACHINE.beepLevel * Math.min(1, i / edge, (length - 1 - i) / edge) * Math.sin((2 * Math.PI * MACHINE.beepHz * i) / SPEECH_RATE),
  );
}

export type ComposedVoicemail = ComposedCall & MachineTimings & { voicemailStart: number; voicemailEnd: number };

/**
 * A voicemail drop: the machine's greeting and beep on the contact's channel, then the member's recorded greeting
 * (from the voicemail library, 16 kHz mono) on the member's channel. A drop asked for before the beep waits for
 * it, as dialers do. The call lasts `connectedSeconds` when given, else until the greeting ends and a breath after.
 */
export function composeVoicemail(input: {
  voices: VoiceBank;
  greetingPcm16k: Float32Array;
  dropAtSeconds?: number;
  connectedSeconds?: number;
}): ComposedVoicemail {
  const timings = machineTimings(input.voices);
  const voicemailStart = Math.max(timings.beepEnd, input.dropAtSeconds ?? timings.beepEnd + DROP_AFTER_BEEP);
  const naturalEnd = voicemailStart + input.greetingPcm16k.length / SPEECH_RATE;
  const seconds = input.connectedSeconds ?? naturalEnd + TAIL_SECONDS;
  const channels = emptyChannels(seconds);
  const machine = input.voices.machineGreeting();
  place(channels[CALL_CHANNEL.contact], machine.pcm, timings.greetingStart);
  place(channels[CALL_CHANNEL.contact], beep(), timings.beepStart);
  place(channels[CALL_CHANNEL.member], input.greetingPcm16k, voicemailStart);
  const greetingEnd = Math.min(seconds, timings.greetingStart + machine.pcm.length / SPEECH_RATE);
  const turns = [
    { clipId: machine.id, speaker: machine.speaker, text: machine.text, start: timings.greetingStart, end: greetingEnd },
  ].filter((t) => t.start < seconds);
  return { sampleRate: SPEECH_RATE, channels, turns, ...timings, voicemailStart, voicemailEnd: Math.min(seconds, naturalEnd) };
}

import { setImmediate as nextTurn } from 'node:timers/promises';
import { chooseConversation, composeCall, composeVoicemail, hashKey, machineTimings } from '../audio/compose.js';
import { createOggOpusEncoder } from '../audio/ogg-opus.js';
import { decodeAudio, SPEECH_RATE, toSpeechPcm } from '../audio/pcm.js';
import { loadVoices, type VoiceBank } from '../audio/voices.js';
import type { Timeline } from './network.js';
import type { Recorder } from './service.js';

/*
 * The simulated carrier's recordings: what was said on an answered call, on two channels (the member left, the
 * contact right), Ogg Opus at 24 kbit/s. A person speaks one of the scripted conversations, chosen by the number
 * called; a machine plays its greeting and beep, then the voicemail the rep dropped (fetched from its signed link).
 * The recording lasts as long as the call did in the simulated world (real time over the time scale). Only the
 * script's span is composed in memory; the silence after it is encoded a second at a time, and the encoding yields
 * to the event loop between seconds, so a long call neither fills memory nor holds up other calls' events.
 */

/** libopus's complexity 5: half the CPU of its default for speech this plain (about 0.5 CPU-s a stereo minute). */
const COMPLEXITY = 5;
/** The simulated carrier records up to this long; a real carrier records the whole call. */
const LONGEST_SECONDS = 2 * 3600;
/** Longer than any script and any voicemail (3 minutes at most) with the machine's greeting: what is composed in memory. */
const SPOKEN_SECONDS = 240;
const CHUNK = SPEECH_RATE;

export function defaultRecorder(): Recorder {
  let voices: Promise<VoiceBank> | undefined;
  return {
    async record(timeline: Timeline, timeScale: number) {
      voices ??= loadVoices();
      const bank = await voices;
      const seconds = Math.min(LONGEST_SECONDS, (timeline.endedAtMs - timeline.answeredAtMs) / 1000 / timeScale);
      const composed = Math.min(seconds, SPOKEN_SECONDS);
      const spoken =
        timeline.by === 'person' ? personCall(bank, timeline, composed) : await machineCall(bank, timeline, composed, timeScale);
      return { bytes: await encode(spoken, seconds), durationSeconds: seconds };
    },
    async machineBeepEnd() {
      voices ??= loadVoices();
      return machineTimings(await voices).beepEnd;
    },
  };
}

function personCall(voices: VoiceBank, timeline: Timeline, seconds: number): [Float32Array, Float32Array] {
  const conversation = chooseConversation(`${timeline.to}:person`);
  const call = composeCall({ voices, conversation, connectedSeconds: seconds, seed: hashKey(timeline.callId) });
  return call.channels;
}

async function machineCall(
  voices: VoiceBank,
  timeline: Timeline,
  seconds: number,
  timeScale: number,
): Promise<[Float32Array, Float32Array]> {
  const greeting = timeline.voicemail ? await fetchSpeech(timeline.voicemail.audioUrl) : new Float32Array(0);
  const dropAtSeconds = timeline.voicemail ? (timeline.voicemail.startedAtMs - timeline.answeredAtMs) / 1000 / timeScale : undefined;
  return composeVoicemail({ voices, greetingPcm16k: greeting, dropAtSeconds, connectedSeconds: seconds }).channels;
}

/** The dropped voicemail as 16 kHz mono; silence when it cannot be fetched or read (the recording still shows the call). */
async function fetchSpeech(url: string): Promise<Float32Array> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) return new Float32Array(0);
    return toSpeechPcm(await decodeAudio(new Uint8Array(await response.arrayBuffer())));
  } catch {
    return new Float32Array(0);
  }
}

/** The composed channels, then silence up to `seconds`, a second at a time. */
async function encode([member, contact]: [Float32Array, Float32Array], seconds: number): Promise<Buffer> {
  const encoder = createOggOpusEncoder({
    sampleRate: SPEECH_RATE,
    channels: 2,
    bitrateKbps: 24,
    application: 'voip',
    complexity: COMPLEXITY,
  });
  const total = Math.round(seconds * SPEECH_RATE);
  const pages: Buffer[] = [];
  const silence = new Float32Array(CHUNK);
  for (let at = 0; at < total; at += CHUNK) {
    const end = Math.min(total, at + CHUNK);
    const slice = (channel: Float32Array) =>
      at < channel.length ? channel.subarray(at, Math.min(end, channel.length)) : silence.subarray(0, end - at);
    const left = slice(member);
    const right = slice(contact);
    const length = end - at;
    pages.push(encoder.write([fit(left, length), fit(right, length)]));
    await nextTurn();
  }
  pages.push(encoder.end());
  return Buffer.concat(pages);
}

/** A chunk of `length` samples: the part given, then silence. */
const fit = (part: Float32Array, length: number) => {
  if (part.length === length) return part;
  const whole = new Float32Array(length);
  whole.set(part);
  return whole;
};

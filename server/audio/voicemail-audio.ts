/*
 * An uploaded greeting made fit for the library: decoded from whatever format audio-decode reads (WAV, MP3, FLAC,
 * Ogg Opus/Vorbis, AAC/M4A, and WebM/Opus as Chromium's and Firefox's MediaRecorder make it), mixed to mono at
 * 16 kHz, silence cut from both ends, brought to a common loudness, and encoded as Ogg Opus: one format every
 * current browser plays and the carrier reads (server/carrier/recorder.ts).
 */
import { setImmediate } from 'node:timers/promises';
import { decodeChunked } from 'audio-decode';
// @ts-expect-error audio-type ships no types: audio-decode's own format sniffer (a dependency of it, not declared here).
import audioType from 'audio-type';
import { createOggOpusEncoder, oggOpusDurationSeconds } from './ogg-opus.js';
import { decodeAudio, SPEECH_RATE, toSpeechPcm } from './pcm.js';
import { normalizeLevel, trimSilence } from './trim.js';

export const VOICEMAIL_CONTENT_TYPE = 'audio/ogg';
const BITRATE_KBPS = 24;

export type VoicemailAudio = { audio: Buffer; contentType: string; durationMs: number };

export class VoicemailAudioError extends Error {
  override name = 'VoicemailAudioError';
  constructor(
    readonly reason: 'too-long' | 'silent',
    message: string,
  ) {
    super(message);
  }
}

const CHUNK_BYTES = 64 * 1024;

/*
 * Whether the audio lasts longer than `maxSeconds`, decoded a chunk at a time and given up as soon as it does: a whole
 * decode of 12 MB at a low bitrate would be hours of float samples (gigabytes) before its length could be checked.
 * Bytes it cannot read this way are left to the whole decode, which refuses them.
 */
async function lastsLonger(bytes: Uint8Array, maxSeconds: number): Promise<boolean> {
  const format = audioType(bytes) as Parameters<typeof decodeChunked>[1] | undefined;
  if (!format) return false;
  async function* chunks() {
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
  }
  let samples = 0;
  try {
    for await (const { channelData, sampleRate } of decodeChunked(chunks(), format)) {
      samples += channelData[0]?.length ?? 0;
      if (sampleRate && samples / sampleRate > maxSeconds) return true;
    }
  } catch {
    return false;
  }
  return false;
}

/** Throws AudioDecodeError (pcm.ts) when the bytes are not whole audio, VoicemailAudioError when it will not do. */
export async function normalizeVoicemail(bytes: Uint8Array, maxSeconds: number): Promise<VoicemailAudio> {
  const tooLong = () =>
    new VoicemailAudioError('too-long', `the recording lasts longer than ${maxSeconds} s, the most a voicemail may last`);
  if (await lastsLonger(bytes, maxSeconds)) throw tooLong();
  const pcm = await decodeAudio(bytes);
  if ((pcm.channels[0]?.length ?? 0) / pcm.sampleRate > maxSeconds) throw tooLong();
  const sound = trimSilence(toSpeechPcm(pcm), SPEECH_RATE);
  if (!sound.length) throw new VoicemailAudioError('silent', 'the recording is silent: nothing was said');
  const levelled = normalizeLevel(sound, SPEECH_RATE);
  const encoder = createOggOpusEncoder({ sampleRate: SPEECH_RATE, channels: 1, bitrateKbps: BITRATE_KBPS });
  const pages: Buffer[] = [];
  /* A second at a time, letting other requests run between: two minutes take about two seconds to encode. */
  for (let at = 0; at < levelled.length; at += SPEECH_RATE) {
    pages.push(encoder.write([levelled.subarray(at, at + SPEECH_RATE)]));
    await setImmediate();
  }
  const audio = Buffer.concat([...pages, encoder.end()]);
  return { audio, contentType: VOICEMAIL_CONTENT_TYPE, durationMs: Math.round(oggOpusDurationSeconds(audio) * 1000) };
}

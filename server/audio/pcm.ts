/*
 * Audio bytes in, float PCM out, and back to WAV. Decoding is audio-decode's (wav, mp3, flac, ogg opus/vorbis,
 * aac, webm...). It decodes a cut-off file as far as it goes without a word, so where a format declares its
 * length (WAV's data chunk, FLAC's sample count, Ogg's end-of-stream page) the bytes are checked against it.
 */
import decode from 'audio-decode';
import { lastOggPage, OggFormatError, PAGE_EOS } from './ogg.js';
import { resample } from './resample.js';

export type Pcm = { sampleRate: number; channels: Float32Array[] };

/** Two-channel call recordings carry the member on the first channel and the contact on the second. */
export const CALL_CHANNEL = { member: 0, contact: 1 } as const;
export type Speaker = keyof typeof CALL_CHANNEL;

export type AudioDecodeFailure = 'not-audio' | 'truncated' | 'empty';

export class AudioDecodeError extends Error {
  override name = 'AudioDecodeError';
  constructor(
    readonly reason: AudioDecodeFailure,
    message: string,
  ) {
    super(message);
  }
}

const ascii = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');

/** Decodes any format audio-decode knows; AudioDecodeError says why bytes that do not decode whole were refused. */
export async function decodeAudio(bytes: Uint8Array): Promise<Pcm> {
  if (!bytes.length) throw new AudioDecodeError('empty', 'the file is empty');
  let decoded: { sampleRate: number; channelData: Float32Array[] };
  try {
    decoded = await decode(bytes);
  } catch (error) {
    throw new AudioDecodeError('not-audio', `the file is not audio in a known format (${(error as Error).message})`);
  }
  const channels = decoded.channelData;
  const length = channels[0]?.length ?? 0;
  if (!length) throw new AudioDecodeError('truncated', 'the file holds no sound: it is cut off or empty');
  checkDeclaredLength(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), length);
  return { sampleRate: decoded.sampleRate, channels };
}

function checkDeclaredLength(bytes: Buffer, decodedLength: number) {
  const head = ascii(bytes, 0, 4);
  if (head === 'RIFF' && ascii(bytes, 8, 12) === 'WAVE') checkWav(bytes);
  else if (head === 'fLaC') checkFlac(bytes, decodedLength);
  else if (head === 'OggS') checkOgg(bytes);
}

const cutOff = () => new AudioDecodeError('truncated', 'the file is cut off before its end');

function checkWav(bytes: Buffer) {
  for (let at = 12; at + 8 <= bytes.length;) {
    const size = bytes.readUInt32LE(at + 4);
    if (ascii(bytes, at, at + 4) === 'data') {
      /* Recorders that stream a WAV write 0 or 0xffffffff before they know the size: nothing to check. */
      if (size !== 0 && size !== 0xffffffff && at + 8 + size > bytes.length) throw cutOff();
      return;
    }
    at += 8 + size + (size & 1);
  }
  throw cutOff();
}

function checkFlac(bytes: Buffer, decodedLength: number) {
  /* STREAMINFO is the first metadata block; its 36-bit sample count starts at bit 108 of the block. */
  if (bytes.length < 8 + 18) throw cutOff();
  const total = (bytes[8 + 13]! & 0x0f) * 2 ** 32 + bytes.readUInt32BE(8 + 14);
  if (total && decodedLength < total) throw cutOff();
}

function checkOgg(bytes: Buffer) {
  try {
    if (!(lastOggPage(bytes).flags & PAGE_EOS)) throw cutOff();
  } catch (error) {
    if (error instanceof OggFormatError) throw cutOff();
    throw error;
  }
}

/** The member's and the contact's channels of a two-channel call recording. */
export function splitCall(pcm: Pcm): Record<Speaker, Float32Array> {
  const member = pcm.channels[CALL_CHANNEL.member];
  const contact = pcm.channels[CALL_CHANNEL.contact];
  if (!member || !contact || pcm.channels.length !== 2) {
    throw new AudioDecodeError('not-audio', `a call recording has two channels, not ${pcm.channels.length}`);
  }
  return { member, contact };
}

export const SPEECH_RATE = 16000;

/** One channel, or the mean of all, at 16 kHz: what speech recognizers take. */
export function toSpeechPcm(pcm: Pcm): Float32Array {
  const [first, ...rest] = pcm.channels;
  if (!first) return new Float32Array(0);
  const mono = rest.length ? first.map((v, i) => (v + rest.reduce((s, c) => s + c[i]!, 0)) / pcm.channels.length) : first;
  return resample(mono, pcm.sampleRate, SPEECH_RATE);
}

/** A 16-bit PCM WAV file of the channels (all the same length), clipped to [-1, 1]. */
export function encodeWav16(channels: Float32Array[], sampleRate: number): Buffer {
  const length = channels[0]?.length ?? 0;
  const count = channels.length;
  const wav = Buffer.alloc(44 + length * count * 2);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + length * count * 2, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(count, 22);
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * count * 2, 28);
  wav.writeUInt16LE(count * 2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(length * count * 2, 40);
  for (let i = 0; i < length; i++) {
    for (let c = 0; c < count; c++) {
      const v = channels[c]![i]!;
      wav.writeInt16LE(v >= 1 ? 32767 : v <= -1 ? -32768 : Math.round(v * 32767), 44 + (i * count + c) * 2);
    }
  }
  return wav;
}

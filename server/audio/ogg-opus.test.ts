import { describe, expect, it } from 'vitest';
import { OggFormatError, PAGE_BOS, PAGE_EOS, readOggPages } from './ogg.js';
import { createOggOpusEncoder, oggOpusDurationSeconds } from './ogg-opus.js';
import type { OpusSampleRate } from './opus-native.js';
import { decodeAudio } from './pcm.js';
import { rmsLevels } from './levels.js';
import { loadVoices } from './voices.js';

const tone = (rate: number, seconds: number, hz: number, amplitude = 0.3) =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate));

/** `seconds` of silence with a tone from `from` to `to` seconds. */
function burst(rate: number, seconds: number, from: number, to: number, hz: number) {
  const out = new Float32Array(Math.round(rate * seconds));
  out.set(tone(rate, to - from, hz), Math.round(rate * from));
  return out;
}

function encode(channels: Float32Array[], rate: OpusSampleRate, chunk = 1000) {
  const encoder = createOggOpusEncoder({ sampleRate: rate, channels: channels.length as 1 | 2 });
  const parts: Buffer[] = [];
  for (let i = 0; i < channels[0]!.length; i += chunk) parts.push(encoder.write(channels.map((c) => c.subarray(i, i + chunk))));
  parts.push(encoder.end());
  return Buffer.concat(parts);
}

/** RMS of a decoded (48 kHz) channel between two times, away from the edges the codec smears. */
const levelBetween = (samples: Float32Array, from: number, to: number) =>
  rmsLevels(samples.subarray(Math.round(48000 * (from + 0.05)), Math.round(48000 * (to - 0.05))), 48000, to - from)[0]!;

describe('Ogg Opus encoder', () => {
  it.each([8000, 12000, 16000, 24000, 48000] as const)('decodes at %i Hz to exactly the length written', async (rate) => {
    const samples = tone(rate, 2.345, 440);
    const bytes = encode([samples], rate, 777);
    expect(oggOpusDurationSeconds(bytes)).toBe(samples.length / rate);
    const decoded = await decodeAudio(bytes);
    expect(decoded.sampleRate).toBe(48000);
    expect(decoded.channels).toHaveLength(1);
    expect(decoded.channels[0]!.length).toBe((samples.length * 48000) / rate);
  });

  it('keeps a sound where it was and silence where there was none, in one channel', async () => {
    const [decoded] = (await decodeAudio(encode([burst(16000, 3, 0.5, 1.5, 440)], 16000))).channels;
    expect(levelBetween(decoded!, 0.5, 1.5)).toBeGreaterThan(0.2);
    expect(levelBetween(decoded!, 1.7, 3)).toBeLessThan(0.001);
  });

  it('keeps two voices apart, each on its channel (speech: a steady tone leaks ~-25 dB through stereo prediction)', async () => {
    const voices = await loadVoices();
    const [member, contact] = [voices.clip('price-objection-02').pcm, voices.clip('price-objection-03').pcm];
    const seconds = (member.length + contact.length) / 16000 + 1;
    const left = new Float32Array(Math.round(16000 * seconds));
    const right = new Float32Array(left.length);
    left.set(member, 8000);
    right.set(contact, 8000 + member.length);
    const [l, r] = (await decodeAudio(encode([left, right], 16000))).channels;
    const memberSpan = [0.5, 0.5 + member.length / 16000] as const;
    const contactSpan = [memberSpan[1], memberSpan[1] + contact.length / 16000] as const;
    expect(levelBetween(l!, ...memberSpan)).toBeGreaterThan(0.05);
    expect(levelBetween(r!, ...contactSpan)).toBeGreaterThan(0.05);
    expect(levelBetween(r!, ...memberSpan)).toBeLessThan(0.0001);
    expect(levelBetween(l!, ...contactSpan)).toBeLessThan(0.0001);
  });

  it('writes an RFC 7845 stream: headers alone on their pages, a second of packets per page, 48 kHz granules, EOS last', () => {
    const bytes = encode([tone(16000, 3.5, 300), tone(16000, 3.5, 500)], 16000);
    const pages = readOggPages(bytes);
    const [head, tags, ...audio] = pages;
    expect(head!.flags).toBe(PAGE_BOS);
    const opusHead = Buffer.from(head!.packets[0]!);
    expect(opusHead.subarray(0, 8).toString('latin1')).toBe('OpusHead');
    expect([opusHead[9], opusHead.readUInt16LE(10), opusHead.readUInt32LE(12)]).toEqual([2, 312, 16000]);
    expect(Buffer.from(tags!.packets[0]!).subarray(0, 8).toString('latin1')).toBe('OpusTags');
    expect(audio.map((p) => p.packets.length)).toEqual([50, 50, 50, 26]);
    expect(audio.map((p) => p.granule)).toEqual([48000n, 96000n, 144000n, 312n + 168000n]);
    expect(pages.map((p) => p.sequence)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(pages.map((p) => p.flags & PAGE_EOS)).toEqual([0, 0, 0, 0, 0, PAGE_EOS]);
    expect(new Set(pages.map((p) => p.serial)).size).toBe(1);
  });

  it('gives the same bytes however the input is cut into writes', () => {
    const samples = tone(16000, 1.7, 350);
    expect(encode([samples], 16000, 17).equals(encode([samples], 16000, 100_000))).toBe(true);
  });

  it('ends an empty stream with a valid page and no sound', async () => {
    const encoder = createOggOpusEncoder({ sampleRate: 16000, channels: 1 });
    const bytes = encoder.end();
    expect(oggOpusDurationSeconds(bytes)).toBe(0);
    expect(readOggPages(bytes).at(-1)!.flags & PAGE_EOS).toBe(PAGE_EOS);
  });

  it('refuses channels of different lengths, the wrong channel count, and writes after the end', () => {
    const encoder = createOggOpusEncoder({ sampleRate: 16000, channels: 2 });
    expect(() => encoder.write([new Float32Array(10), new Float32Array(11)])).toThrow(RangeError);
    expect(() => encoder.write([new Float32Array(10)])).toThrow(RangeError);
    encoder.end();
    expect(() => encoder.write([new Float32Array(1), new Float32Array(1)])).toThrow(/ended/);
  });

  it('keeps encoders apart: one among five gives the bytes it gives alone', () => {
    const samples = tone(16000, 1, 300);
    const alone = encode([samples], 16000, 320);
    const encoders = Array.from({ length: 5 }, () => createOggOpusEncoder({ sampleRate: 16000, channels: 1 }));
    const outputs = encoders.map(() => [] as Buffer[]);
    for (let i = 0; i < samples.length; i += 320) encoders.forEach((e, k) => outputs[k]!.push(e.write([samples.subarray(i, i + 320)])));
    encoders.forEach((e, k) => outputs[k]!.push(e.end()));
    expect(outputs.every((o) => Buffer.concat(o).equals(alone))).toBe(true);
  });
});

describe('oggOpusDurationSeconds', () => {
  it('refuses bytes that are not a whole Ogg Opus stream', () => {
    const bytes = encode([tone(16000, 2, 300)], 16000);
    expect(() => oggOpusDurationSeconds(bytes.subarray(0, bytes.length - 10))).toThrow(OggFormatError);
    expect(() => oggOpusDurationSeconds(Buffer.from('not an ogg file at all'))).toThrow(OggFormatError);
    const corrupt = Buffer.from(bytes);
    corrupt[corrupt.length - 5]! ^= 0xff;
    expect(() => oggOpusDurationSeconds(corrupt)).toThrow(/no complete Ogg page/);
  });
});

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createOggOpusEncoder } from './ogg-opus.js';
import { AudioDecodeError, decodeAudio, encodeWav16, splitCall, toSpeechPcm } from './pcm.js';
import { resample } from './resample.js';

const tone = (rate: number, seconds: number, hz: number, amplitude = 0.5) =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate));

const power = (samples: Float32Array) => samples.reduce((s, v) => s + v * v, 0) / samples.length;

async function refusal(bytes: Uint8Array) {
  const error = await decodeAudio(bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AudioDecodeError);
  return (error as AudioDecodeError).reason;
}

describe('decodeAudio', () => {
  it('reads back a WAV it wrote, sample for sample at 16-bit precision', async () => {
    const left = tone(8000, 0.5, 440);
    const right = tone(8000, 0.5, 880, 0.25);
    const decoded = await decodeAudio(encodeWav16([left, right], 8000));
    expect(decoded.sampleRate).toBe(8000);
    expect(decoded.channels).toHaveLength(2);
    expect(decoded.channels[0]!.every((v, i) => Math.abs(v - left[i]!) < 1 / 16384)).toBe(true);
    expect(decoded.channels[1]!.every((v, i) => Math.abs(v - right[i]!) < 1 / 16384)).toBe(true);
  });

  it.each([
    ['text', Buffer.from('this is not a sound, only words')],
    ['JSON', Buffer.from('{"recording": true}')],
    ['zeros', Buffer.alloc(4096)],
  ])('refuses %s as not audio', async (_, bytes) => {
    expect(await refusal(bytes)).toBe('not-audio');
  });

  it('refuses an empty file', async () => {
    expect(await refusal(new Uint8Array(0))).toBe('empty');
  });

  it('refuses a FLAC file cut off before the sample count its header declares', async () => {
    /* 3 s of a 440 Hz tone at 8 kHz (its level rising and falling), written by sox: cut at 60 %, audio-decode alone gives back what is left. */
    const flac = fs.readFileSync(new URL('./fixtures/tone.flac', import.meta.url));
    const whole = await decodeAudio(flac);
    expect(whole.channels[0]!.length).toBe(24000);
    expect(await refusal(flac.subarray(0, Math.floor(flac.length * 0.6)))).toBe('truncated');
  });

  it('refuses a WAV and an Ogg Opus file cut off before their end, which the decoder alone would take', async () => {
    const wav = encodeWav16([tone(16000, 1, 440)], 16000);
    const encoder = createOggOpusEncoder({ sampleRate: 16000, channels: 1 });
    const ogg = Buffer.concat([encoder.write([tone(16000, 3, 440)]), encoder.end()]);
    for (const whole of [wav, ogg]) {
      await expect(decodeAudio(whole)).resolves.toBeTruthy();
      expect(await refusal(whole.subarray(0, Math.floor(whole.length * 0.6)))).toBe('truncated');
      expect(await refusal(whole.subarray(0, 40))).toBe('truncated');
    }
  });
});

describe('channels', () => {
  it('splits a two-channel recording into the member (first) and the contact (second)', () => {
    const [a, b] = [new Float32Array([1]), new Float32Array([2])];
    expect(splitCall({ sampleRate: 16000, channels: [a, b] })).toEqual({ member: a, contact: b });
    expect(() => splitCall({ sampleRate: 16000, channels: [a] })).toThrow(AudioDecodeError);
  });

  it('makes 16 kHz mono for speech recognition: channels averaged, rate converted', () => {
    const speech = toSpeechPcm({ sampleRate: 48000, channels: [tone(48000, 1, 500), tone(48000, 1, 500)] });
    expect(speech.length).toBe(16000);
    expect(power(speech.subarray(1000, 15000))).toBeCloseTo(0.125, 3);
  });
});

describe('resample', () => {
  it.each([
    [48000, 16000, 1000],
    [44100, 16000, 3000],
    [8000, 16000, 1000],
    [22050, 16000, 440],
  ])('keeps a tone in the band: %i Hz to %i Hz, %i Hz tone', (from, to, hz) => {
    const out = resample(tone(from, 1, hz), from, to);
    expect(out.length).toBe(to);
    const reference = tone(to, 1, hz);
    const middle = (a: Float32Array) => a.subarray(500, to - 500);
    expect(power(middle(out))).toBeCloseTo(0.125, 3);
    const error = middle(out).reduce((s, v, i) => s + (v - middle(reference)[i]!) ** 2, 0) / (to - 1000);
    expect(error).toBeLessThan(1e-5);
  });

  it('removes what lies above the new Nyquist frequency instead of folding it into the speech band', () => {
    /* 12 kHz at 48 kHz, kept every third sample, would come back as a 4 kHz tone at full level. */
    const high = tone(48000, 1, 12000);
    const naive = high.filter((_, i) => i % 3 === 0);
    expect(power(naive)).toBeGreaterThan(0.1);
    expect(power(resample(high, 48000, 16000).subarray(500, 15500))).toBeLessThan(1e-8);
  });

  it('returns a copy when the rate does not change, and refuses rates that are not positive integers', () => {
    const samples = tone(16000, 0.1, 440);
    const same = resample(samples, 16000, 16000);
    expect(same).toEqual(samples);
    expect(same).not.toBe(samples);
    expect(() => resample(samples, 0, 16000)).toThrow(RangeError);
    expect(() => resample(samples, 16000, 44.1)).toThrow(RangeError);
  });
});

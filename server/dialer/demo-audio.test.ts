import wavefile from 'wavefile';
import { describe, expect, it } from 'vitest';
import { demoRecording, wavDurationSeconds } from './demo-audio.js';

/* Every recording is read back by wavefile itself, not by our own parser. */
const read = (wav: Buffer) => {
  const file = new wavefile.WaveFile(wav);
  return { file, fmt: file.fmt as Record<string, unknown>, samples: Array.from(file.getSamples()) };
};

describe('demoRecording', () => {
  it.each([
    [0, 0.5],
    [1, 3],
    [2, 12.25],
    [3, 20],
  ])('makes kind %s a %s s WAV of 8 kHz, 16-bit, mono PCM', (kind, seconds) => {
    const wav = demoRecording(kind, seconds);
    const { file, fmt, samples } = read(wav);
    expect(file.container).toBe('RIFF');
    expect(file.bitDepth).toBe('16');
    expect(fmt).toMatchObject({ audioFormat: 1, numChannels: 1, sampleRate: 8000, bitsPerSample: 16 });
    expect(samples.length).toBe(seconds * 8000);
    expect(wavDurationSeconds(wav)).toBe(seconds);
  });

  it('fades in and out, and stays well below full scale', () => {
    const { samples } = read(demoRecording(0, 4.5)); // ends in the middle of a note
    const loudest = Math.max(...samples.map(Math.abs));
    expect(loudest).toBeGreaterThan(5000);
    expect(loudest).toBeLessThan(32767 / 2);
    for (const edge of [samples.slice(0, 8), samples.slice(-8)]) {
      expect(Math.max(...edge.map(Math.abs)), 'the first and last millisecond').toBeLessThan(loudest / 20);
    }
  });

  it('plays a different tune for each of the four kinds, then starts again', () => {
    const tunes = [0, 1, 2, 3].map((kind) => demoRecording(kind, 2).toString('base64'));
    expect(new Set(tunes).size).toBe(4);
    expect(demoRecording(4, 2).toString('base64')).toBe(tunes[0]);
    expect(demoRecording(-1, 2).toString('base64')).toBe(tunes[3]);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 601])('refuses a length of %s seconds', (seconds) => {
    expect(() => demoRecording(0, seconds)).toThrow(RangeError);
  });
});

describe('wavDurationSeconds', () => {
  it('reads the length of a WAV file made elsewhere', () => {
    const file = new wavefile.WaveFile();
    file.fromScratch(2, 44100, '24', [new Array(22050).fill(0), new Array(22050).fill(0)]);
    expect(wavDurationSeconds(Buffer.from(file.toBuffer()))).toBe(0.5);
  });

  it('refuses bytes that are not a WAV file', () => {
    expect(() => wavDurationSeconds(Buffer.from('not a wave file at all'))).toThrow();
  });
});

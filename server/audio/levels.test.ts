import { describe, expect, it } from 'vitest';
import { rmsLevels, talkSeconds } from './levels.js';
import { normalizeLevel, trimSilence } from './trim.js';

const RATE = 16000;

/** Bursts of a 200 Hz tone at `level` between the given [from, to] seconds, over `seconds` of `noise` RMS noise. */
function channel(seconds: number, bursts: [number, number][], level = 0.1, noise = 0) {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const out = Float32Array.from({ length: RATE * seconds }, () => noise * Math.sqrt(3) * random());
  for (const [from, to] of bursts) {
    for (let i = Math.round(from * RATE); i < to * RATE; i++) out[i]! += level * Math.SQRT2 * Math.sin((2 * Math.PI * 200 * i) / RATE);
  }
  return out;
}

describe('levels', () => {
  it('measures RMS per window', () => {
    const levels = rmsLevels(channel(1, [[0, 0.5]], 0.1), RATE, 0.1);
    expect(levels).toHaveLength(10);
    expect(levels[0]).toBeCloseTo(0.1, 3);
    expect(levels[9]).toBe(0);
  });

  it.each([
    ['in digital silence', 0],
    ['over line noise 26 dB below the voice', 0.005],
  ])('counts talk time %s, pauses inside a sentence included', (_, noise) => {
    /* 1.5 s, then 2.2 s: the 0.2 s pause inside the second run is part of it. */
    const seconds = talkSeconds(
      channel(
        8,
        [
          [1, 2.5],
          [4, 5],
          [5.2, 6.2],
        ],
        0.1,
        noise,
      ),
      RATE,
    );
    expect(seconds).toBeGreaterThan(3.65);
    expect(seconds).toBeLessThan(3.75);
  });

  it('counts a channel that never pauses as talk from end to end', () => {
    expect(talkSeconds(channel(5, [[0, 5]], 0.1), RATE)).toBe(5);
  });

  it('does not count clicks shorter than a syllable, nor a channel of noise alone', () => {
    expect(talkSeconds(channel(3, [[1, 1.04]], 0.3), RATE)).toBe(0);
    expect(talkSeconds(channel(3, [], 0, 0.005), RATE)).toBe(0);
  });
});

describe('trim and level', () => {
  it('cuts silence from both ends, keeping a margin around the sound', () => {
    const trimmed = trimSilence(channel(3, [[1, 2]], 0.1), RATE);
    expect(trimmed.length / RATE).toBeGreaterThan(1);
    expect(trimmed.length / RATE).toBeLessThan(1.1);
    expect(trimSilence(new Float32Array(RATE), RATE)).toHaveLength(0);
  });

  it('brings speech to -20 dBFS without letting a peak pass the limit', () => {
    const quiet = normalizeLevel(channel(2, [[0.5, 1.5]], 0.01), RATE);
    expect(rmsLevels(quiet.subarray(RATE * 0.6, RATE * 1.4), RATE, 0.8)[0]).toBeCloseTo(0.1, 2);
    const spiky = channel(2, [[0.5, 1.5]], 0.01);
    spiky[RATE] = 0.5;
    expect(Math.max(...normalizeLevel(spiky, RATE).map(Math.abs))).toBeCloseTo(0.9, 5);
  });
});

/*
 * How loud a channel is over time, and how long someone talks on it. Talk time is measured from the sound, not
 * from recognised words: a recognizer drops words it cannot match, and a call's talk split must not depend on
 * how well it did. A window counts as talk when its level stands clear of the channel's own noise floor (and
 * of an absolute floor, for digital silence); pauses between words shorter than a breath count as talk, and
 * clicks shorter than a syllable do not.
 */

export const LEVEL_WINDOW_SECONDS = 0.02;
/** Nothing quieter than this is talk, whatever the noise floor (-50 dBFS). */
const ABSOLUTE_FLOOR = 10 ** (-50 / 20);
/** Talk stands at least this far above the channel's quiet windows (12 dB). */
const ABOVE_NOISE = 10 ** (12 / 20);
/** Whatever the quiet windows, a level of -30 dBFS is talk: a channel with hardly a pause has no noise to measure. */
const TALK_CEILING = 10 ** (-30 / 20);
const BRIDGE_SECONDS = 0.3;
const SHORTEST_TALK_SECONDS = 0.1;

/** Root-mean-square level of each window of `windowSeconds` (the last one may be shorter). */
export function rmsLevels(samples: Float32Array, sampleRate: number, windowSeconds = LEVEL_WINDOW_SECONDS): Float32Array {
  const size = Math.max(1, Math.round(sampleRate * windowSeconds));
  const levels = new Float32Array(Math.ceil(samples.length / size));
  for (let w = 0; w < levels.length; w++) {
    const end = Math.min(samples.length, (w + 1) * size);
    let sum = 0;
    for (let i = w * size; i < end; i++) sum += samples[i]! * samples[i]!;
    levels[w] = Math.sqrt(sum / (end - w * size));
  }
  return levels;
}

/** The level below which a tenth of the windows lie: the channel's noise when nobody talks. */
function noiseFloor(levels: Float32Array): number {
  const sorted = Float32Array.from(levels).sort();
  return sorted[Math.floor(sorted.length * 0.1)] ?? 0;
}

/** Which windows are talk, after bridging short pauses and dropping short blips. */
export function talkWindows(levels: Float32Array, windowSeconds = LEVEL_WINDOW_SECONDS): boolean[] {
  const threshold = Math.max(ABSOLUTE_FLOOR, Math.min(TALK_CEILING, noiseFloor(levels) * ABOVE_NOISE));
  const talk = Array.from(levels, (l) => l >= threshold);
  fillRuns(talk, false, Math.round(BRIDGE_SECONDS / windowSeconds), true);
  fillRuns(talk, true, Math.round(SHORTEST_TALK_SECONDS / windowSeconds), false);
  return talk;
}

/** Sets runs of `value` no longer than `longest` to `to`; a run of pauses is bridged only between two talks. */
function fillRuns(flags: boolean[], value: boolean, longest: number, to: boolean) {
  for (let i = 0; i < flags.length;) {
    if (flags[i] !== value) {
      i++;
      continue;
    }
    let end = i;
    while (end < flags.length && flags[end] === value) end++;
    const inside = value ? true : i > 0 && end < flags.length;
    if (end - i <= longest && inside) flags.fill(to, i, end);
    i = end;
  }
}

/** Seconds of talk on one channel. */
export function talkSeconds(samples: Float32Array, sampleRate: number): number {
  const windows = talkWindows(rmsLevels(samples, sampleRate));
  const size = Math.max(1, Math.round(sampleRate * LEVEL_WINDOW_SECONDS));
  const whole = windows.reduce((n, t, w) => n + (t ? Math.min(size, samples.length - w * size) : 0), 0);
  return whole / sampleRate;
}

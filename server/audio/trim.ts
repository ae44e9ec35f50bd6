/*
 * Tidying a recorded line: silence cut from both ends (so pauses between turns are the composer's to choose, not
 * the synthesizer's), and the level brought to a common loudness (flite's voices differ by 12 dB).
 */
import { rmsLevels } from './levels.js';

const WINDOW_SECONDS = 0.01;
/** A window quieter than this (-45 dBFS) is silence at either end. */
const SILENCE = 10 ** (-45 / 20);
/** Kept around the sound so its first and last consonants are not clipped. */
const MARGIN_SECONDS = 0.03;

/** The samples from the first to the last window that is not silence, with a small margin; empty if all silent. */
export function trimSilence(samples: Float32Array, sampleRate: number): Float32Array {
  const levels = rmsLevels(samples, sampleRate, WINDOW_SECONDS);
  const first = levels.findIndex((l) => l >= SILENCE);
  if (first < 0) return samples.subarray(0, 0);
  const last = levels.findLastIndex((l) => l >= SILENCE);
  const window = Math.round(sampleRate * WINDOW_SECONDS);
  const margin = Math.round(sampleRate * MARGIN_SECONDS);
  return samples.subarray(Math.max(0, first * window - margin), Math.min(samples.length, (last + 1) * window + margin));
}

/**
 * The samples scaled so the windows that carry sound average `targetDb` dBFS RMS, without letting a peak pass
 * `peakLimit`. Silent input comes back unchanged.
 */
export function normalizeLevel(samples: Float32Array, sampleRate: number, targetDb = -20, peakLimit = 0.9): Float32Array {
  const levels = rmsLevels(samples, sampleRate, WINDOW_SECONDS).filter((l) => l >= SILENCE);
  if (!levels.length) return samples.slice();
  const rms = Math.sqrt(levels.reduce((s, l) => s + l * l, 0) / levels.length);
  const peak = samples.reduce((p, v) => Math.max(p, Math.abs(v)), 0);
  const gain = Math.min(10 ** (targetDb / 20) / rms, peakLimit / peak);
  return samples.map((v) => v * gain);
}

/*
 * Sample-rate conversion by a Kaiser-windowed sinc low-pass, evaluated as a polyphase filter. Dropping samples
 * (or averaging them) folds everything above the new Nyquist back into the speech band; this filter passes up to
 * 90 % of the lower Nyquist frequency and attenuates what lies above the new Nyquist by about 80 dB.
 */

/** Zero crossings of the sinc kept on each side, at the lower of the two rates. */
const LOBES = 16;
const PASSBAND = 0.9;
/** Kaiser's beta for ~80 dB of stop-band attenuation. */
const KAISER_BETA = 8;
/** A ratio needing more phases than this (odd rates) uses the nearest of this many. */
const MAX_PHASES = 1024;

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/** Modified Bessel function of the first kind, order 0, by its power series (converges fast for beta <= 20). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; term > 1e-12 * sum; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
  }
  return sum;
}

type Filter = { phases: Float32Array[]; half: number; phaseCount: number };

/** One tap set per fractional input position (multiples of 1/phaseCount), each normalised to unity gain at DC. */
function design(from: number, to: number): Filter {
  const ratio = Math.min(1, to / from);
  const cutoff = 0.5 * ratio * PASSBAND;
  const half = Math.ceil(LOBES / ratio);
  const divisor = gcd(from, to);
  const phaseCount = Math.min(to / divisor, MAX_PHASES);
  const norm = besselI0(KAISER_BETA);
  const phases = Array.from({ length: phaseCount }, (_, p) => {
    const frac = p / phaseCount;
    const taps = new Float32Array(2 * half);
    let sum = 0;
    for (let j = 0; j < 2 * half; j++) {
      const t = j - half + 1 - frac;
      const x = 2 * cutoff * t;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const w = t / half;
      const window = Math.abs(w) >= 1 ? 0 : besselI0(KAISER_BETA * Math.sqrt(1 - w * w)) / norm;
      taps[j] = sinc * window;
      sum += taps[j]!;
    }
    for (let j = 0; j < taps.length; j++) taps[j]! /= sum;
    return taps;
  });
  return { phases, half, phaseCount };
}

const filters = new Map<string, Filter>();

/** `samples` at `from` Hz as the same sound at `to` Hz; the length scales by to/from (rounded). */
export function resample(samples: Float32Array, from: number, to: number): Float32Array {
  if (!(Number.isInteger(from) && Number.isInteger(to) && from > 0 && to > 0))
    throw new RangeError(`sample rates are positive integers, not ${from} and ${to}`);
  if (from === to) return samples.slice();
  const key = `${from}:${to}`;
  const filter = filters.get(key) ?? design(from, to);
  filters.set(key, filter);
  const { phases, half, phaseCount } = filter;
  const out = new Float32Array(Math.round((samples.length * to) / from));
  const last = samples.length - 1;
  for (let n = 0; n < out.length; n++) {
    /* The input position n * from / to, in 1/phaseCount steps (exact when the ratio needs no more phases). */
    const steps = Math.round(((n * from) / to) * phaseCount);
    const base = Math.floor(steps / phaseCount);
    const taps = phases[steps - base * phaseCount]!;
    const start = base - half + 1;
    let acc = 0;
    for (let j = 0; j < taps.length; j++) {
      const k = start + j;
      if (k >= 0 && k <= last) acc += taps[j]! * samples[k]!;
    }
    out[n] = acc;
  }
  return out;
}

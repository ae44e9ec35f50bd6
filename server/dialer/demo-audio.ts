/*
 * Voicemail recordings for the demo data: short tunes instead of speech, so the demo ships no audio files and
 * each recording can be told apart by ear. Telephone quality (8 kHz, 16-bit, mono), notes within its band.
 */
import wavefile from 'wavefile';

// wavefile is CommonJS without named exports that Node can see; its class hangs off the default export.
const { WaveFile } = wavefile;

const SAMPLE_RATE = 8000;
/* Well below full scale, so two overlapping sounds on a call do not clip. */
const PEAK = 0.3 * 32767;
const NOTE_SECONDS = 0.28;
const GAP_SECONDS = 0.06;
/* Each note rises and falls over a few milliseconds, and the whole recording fades, so nothing clicks. */
const ATTACK_SECONDS = 0.01;
const RELEASE_SECONDS = 0.04;
const FADE_SECONDS = 0.05;
const LONGEST_SECONDS = 600;

/** One tune per kind, in Hz, played over and over with a rest after each round. */
const TUNES: readonly (readonly number[])[] = [
  [523.25, 659.25, 783.99, 1046.5], // C E G C: rising
  [783.99, 659.25, 587.33, 523.25], // G E D C: falling
  [440, 554.37, 659.25, 554.37], // A C# E C#: rocking
  [698.46, 880, 783.99, 659.25, 587.33, 523.25], // F A G E D C: a little phrase
];

const tuneOf = (kind: number) => {
  const count = TUNES.length;
  return TUNES[((Math.trunc(kind) % count) + count) % count] ?? TUNES[0]!;
};

/** The tune's level at `t` seconds, from -1 to 1: a note with a soft octave above it, or a rest. */
function tuneAt(tune: readonly number[], t: number): number {
  const slotSeconds = NOTE_SECONDS + GAP_SECONDS;
  const slot = Math.floor(t / slotSeconds);
  const within = t - slot * slotSeconds;
  const frequency = tune[slot % (tune.length + 1)];
  if (frequency === undefined || within >= NOTE_SECONDS) return 0;
  const envelope = Math.min(1, within / ATTACK_SECONDS, (NOTE_SECONDS - within) / RELEASE_SECONDS);
  const phase = 2 * Math.PI * frequency * within;
  return (envelope * (Math.sin(phase) + 0.25 * Math.sin(2 * phase))) / 1.25;
}

/** A WAV file of about `seconds` playing the tune of `kind` (any integer; kinds repeat every four). */
export function demoRecording(kind: number, seconds: number): Buffer {
  if (!(Number.isFinite(seconds) && seconds > 0 && seconds <= LONGEST_SECONDS)) {
    throw new RangeError(`a demo recording lasts more than 0 and at most ${LONGEST_SECONDS} seconds, not ${seconds}`);
  }
  const tune = tuneOf(kind);
  const samples = new Int16Array(Math.max(1, Math.round(seconds * SAMPLE_RATE)));
  const fade = FADE_SECONDS * SAMPLE_RATE;
  for (let i = 0; i < samples.length; i++) {
    const level = Math.min(1, i / fade, (samples.length - 1 - i) / fade);
    samples[i] = Math.round(PEAK * level * tuneAt(tune, i / SAMPLE_RATE));
  }
  const wav = new WaveFile();
  wav.fromScratch(1, SAMPLE_RATE, '16', samples);
  return Buffer.from(wav.toBuffer());
}

type Format = { blockAlign: number; sampleRate: number };

/** How long a WAV file plays; throws when the bytes are not a WAV file. */
export function wavDurationSeconds(wav: Buffer): number {
  const file = new WaveFile();
  file.fromBuffer(wav, false);
  const { blockAlign, sampleRate } = file.fmt as Format;
  const { chunkSize } = file.data as { chunkSize: number };
  return chunkSize / blockAlign / sampleRate;
}

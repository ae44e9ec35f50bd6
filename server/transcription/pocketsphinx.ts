/*
 * CMU PocketSphinx (Debian's pocketsphinx 0.8 and pocketsphinx-en-us) as a transcription engine: one
 * pocketsphinx_continuous process per channel, reading a temporary 16-bit WAV, printing each word with its start,
 * end and posterior probability (-time yes). Fillers (<s>, </s>, <sil>, [NOISE]...) are dropped and alternate
 * pronunciations ("to(2)") named by their word. The process is killed past a time-out, and the WAV deleted.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { encodeWav16, SPEECH_RATE } from '../audio/pcm.js';
import {
  type Availability,
  type TranscriptionEngine,
  TranscriptionFailedError,
  TranscriptionUnavailableError,
  type Word,
} from './engine.js';

export type PocketSphinxModels = { hmm: string; lm: string; dict: string };

const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
export const DEBIAN_MODELS: PocketSphinxModels = {
  hmm: `${MODEL_DIR}/en-us`,
  lm: `${MODEL_DIR}/en-us.lm.bin`,
  dict: `${MODEL_DIR}/cmudict-en-us.dict`,
};

export type PocketSphinxOptions = {
  /** A command looked up on PATH, or a path to it. */
  binary?: string;
  models?: PocketSphinxModels;
  /** The recognizer is killed after baseMs plus perAudioSecondMs for each second of audio. */
  timeout?: { baseMs: number; perAudioSecondMs: number };
  tempDir?: string;
  /** More pocketsphinx_continuous arguments, after ours (a later one wins). */
  extraArgs?: string[];
};

const NOT_INSTALLED = 'PocketSphinx is not installed on this server (apt-get install pocketsphinx pocketsphinx-en-us)';
const DEFAULT_TIMEOUT = { baseMs: 30_000, perAudioSecondMs: 2_000 };
/*
 * The voice-activity threshold raised from 2.0: with the default, the first line on a channel after seconds of
 * near-silence (a codec's last-bit noise) was often lost; word recall on the rendered calls went from 0.84 to 0.88
 * (3.0 gave 0.86, 4.0 fell to 0.80).
 */
const TUNING = ['-vad_threshold', '3.5'];

export function createPocketSphinxEngine(options: PocketSphinxOptions = {}): TranscriptionEngine {
  const binary = options.binary ?? 'pocketsphinx_continuous';
  const models = options.models ?? DEBIAN_MODELS;
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;

  async function availability(): Promise<Availability> {
    if (!(await findExecutable(binary))) return { available: false, reason: NOT_INSTALLED };
    for (const file of [models.hmm, models.lm, models.dict]) {
      if (!(await exists(file)))
        return { available: false, reason: `PocketSphinx's English model is missing: ${file} (apt-get install pocketsphinx-en-us)` };
    }
    return { available: true };
  }

  async function transcribe(pcm: Float32Array, { signal }: { signal?: AbortSignal } = {}): Promise<{ words: Word[] }> {
    signal?.throwIfAborted();
    const ready = await availability();
    if (!ready.available) throw new TranscriptionUnavailableError(ready.reason);
    if (!pcm.length) return { words: [] };
    if (options.tempDir) await fs.mkdir(options.tempDir, { recursive: true });
    const dir = await fs.mkdtemp(path.join(options.tempDir ?? os.tmpdir(), 'ringbook-asr-'));
    try {
      const wav = path.join(dir, 'channel.wav');
      await fs.writeFile(wav, encodeWav16([pcm], SPEECH_RATE));
      const args = [
        '-infile',
        wav,
        '-time',
        'yes',
        '-logfn',
        '/dev/null',
        '-hmm',
        models.hmm,
        '-lm',
        models.lm,
        '-dict',
        models.dict,
        ...TUNING,
        ...(options.extraArgs ?? []),
      ];
      const stdout = await run(binary, args, timeout.baseMs + (timeout.perAudioSecondMs * pcm.length) / SPEECH_RATE, signal);
      return { words: parsePocketSphinxOutput(stdout) };
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  return { name: 'pocketsphinx', availability, transcribe };
}

/** The recognizers' niceness (19 is the lowest priority). */
const BACKGROUND_PRIORITY = 19;

function run(binary: string, args: string[], timeoutMs: number, signal: AbortSignal | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    // Transcription is background work: the recognizers yield the CPU to the server (a rep's actions come first).
    if (child.pid !== undefined) {
      try {
        os.setPriority(child.pid, BACKGROUND_PRIORITY);
      } catch {
        // Not allowed here (a container without the capability): it runs at the server's priority.
      }
    }
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-500)));
    const stop = (error: Error) => {
      child.kill('SIGKILL');
      reject(error);
    };
    const timer = setTimeout(
      () => stop(new TranscriptionFailedError(`PocketSphinx took longer than ${Math.round(timeoutMs / 100) / 10} s and was stopped`)),
      timeoutMs,
    );
    const abort = () => stop(signal!.reason instanceof Error ? signal!.reason : new Error('transcription aborted'));
    signal?.addEventListener('abort', abort, { once: true });
    if (signal?.aborted) abort();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      done();
      reject(
        error.code === 'ENOENT'
          ? new TranscriptionUnavailableError(NOT_INSTALLED)
          : new TranscriptionFailedError(`PocketSphinx did not start: ${error.message}`),
      );
    });
    child.on('close', (code, signalName) => {
      done();
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else
        reject(
          new TranscriptionFailedError(
            `PocketSphinx stopped with ${signalName ?? `exit code ${code}`}${err.trim() ? `: ${err.trim()}` : ''}`,
          ),
        );
    });
  });
}

const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/;
/** Sentence marks, silence, noises ([NOISE], [SPEECH]) and fillers (++UH++) are not words said. */
const FILLER = /^(<.*>|\[.*\]|\+\+.*\+\+)$/;

/** The words of pocketsphinx_continuous -time yes output: "word start end posterior" lines, hypotheses skipped. */
export function parsePocketSphinxOutput(stdout: string): Word[] {
  const words: Word[] = [];
  for (const line of stdout.split('\n')) {
    const match = WORD_LINE.exec(line.trim());
    if (!match) continue;
    const text = match[1]!.replace(/\(\d+\)$/, '');
    if (FILLER.test(text)) continue;
    words.push({ text, start: Number(match[2]), end: Number(match[3]), confidence: Number(match[4]) });
  }
  return words;
}

async function exists(file: string) {
  return fs.access(file, constants.R_OK).then(
    () => true,
    () => false,
  );
}

/** The path a command runs from: itself when it holds a slash, else the first executable match on PATH. */
async function findExecutable(command: string): Promise<string | null> {
  const candidates = command.includes('/')
    ? [command]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    if (
      await fs.access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return null;
}

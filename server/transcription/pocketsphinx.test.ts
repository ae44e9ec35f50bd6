import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATIONS } from '../audio/conversations.js';
import { type SampleCall, sampleCall } from '../audio/sample-calls.js';
import { loadVoices } from '../audio/voices.js';
import { TranscriptionFailedError, TranscriptionUnavailableError } from './engine.js';
import { createPocketSphinxEngine, DEBIAN_MODELS, parsePocketSphinxOutput } from './pocketsphinx.js';
import { scriptWords, wordRecall } from './recall.js';
import { ruleSummarizer } from './summarize.js';
import { type CallTranscript, transcribeCall } from './transcribe-call.js';

const temp: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'asr-test-'));
  temp.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temp.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/*
 * Two of the rendered calls, as the carrier records them, through the real recognizer. Measured word recall on
 * these (PocketSphinx 0.8, en-us): member 0.83 and 0.88, contact 0.93 and 1.00; the floors leave ~0.08 of margin.
 */
describe('PocketSphinx on the rendered calls', () => {
  const FLOOR = { member: 0.77, contact: 0.87 };
  const runs: { call: SampleCall; transcript: CallTranscript }[] = [];
  let scratch: string;

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'asr-calls-'));
    const engine = createPocketSphinxEngine({ tempDir: scratch });
    const voices = await loadVoices();
    for (const id of ['meeting-date', 'price-objection']) {
      const index = CONVERSATIONS.findIndex((c) => c.id === id);
      const call = sampleCall(voices, CONVERSATIONS[index]!, index + 1);
      runs.push({ call, transcript: await transcribeCall(engine, call.recording) });
    }
  }, 240_000);

  it.each(['member', 'contact'] as const)("recognises the %s's words on their channel", (speaker) => {
    const reference = runs.flatMap(({ call }) => call.turns.filter((t) => t.speaker === speaker).flatMap((t) => scriptWords(t.text)));
    const recognised = runs.flatMap(({ transcript }) => transcript.words[speaker].map((w) => w.text));
    expect(wordRecall(reference, recognised)).toBeGreaterThanOrEqual(FLOOR[speaker]);
  });

  it('times every word inside a line its speaker said, and leaves no temporary file', () => {
    for (const { call, transcript } of runs) {
      for (const speaker of ['member', 'contact'] as const) {
        const lines = call.turns.filter((t) => t.speaker === speaker);
        const outside = transcript.words[speaker].filter((w) => !lines.some((t) => w.start >= t.start - 0.25 && w.end <= t.end + 0.25));
        expect(outside).toEqual([]);
      }
    }
    expect(fs.readdirSync(scratch)).toEqual([]);
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('gives the summarizer enough: the price objection, and the meeting on the date agreed', () => {
    const callDate = new Date('2025-10-08T16:00:00Z');
    const summaries = runs.map(({ transcript }) => ruleSummarizer.summarize({ ...transcript, callDate }));
    expect(summaries[0]).toMatch(/Next step: a meeting on Tuesday, October 14, 2025 at 10 am\.$/);
    expect(summaries[1]).toMatch(/objected to the price or budget and said they were not interested/);
  });
});

describe('PocketSphinx engine', () => {
  it('refuses politely when the program is missing, with what to install', async () => {
    const engine = createPocketSphinxEngine({ binary: '/nonexistent/pocketsphinx_continuous' });
    expect(await engine.availability()).toEqual({
      available: false,
      reason: 'PocketSphinx is not installed on this server (apt-get install pocketsphinx pocketsphinx-en-us)',
    });
    await expect(engine.transcribe(new Float32Array(16000))).rejects.toThrow(TranscriptionUnavailableError);
    const onPath = createPocketSphinxEngine({ binary: 'no-such-pocketsphinx-binary' });
    expect((await onPath.availability()).available).toBe(false);
  });

  it('names the model file that is missing', async () => {
    const engine = createPocketSphinxEngine({ models: { ...DEBIAN_MODELS, lm: '/nonexistent/en-us.lm.bin' } });
    expect(await engine.availability()).toEqual({
      available: false,
      reason: "PocketSphinx's English model is missing: /nonexistent/en-us.lm.bin (apt-get install pocketsphinx-en-us)",
    });
  });

  it('stops a recognizer past its time-out, and one that fails, removing the temporary WAV', async () => {
    const dir = tempDir();
    const slow = createPocketSphinxEngine({ tempDir: dir, timeout: { baseMs: 50, perAudioSecondMs: 0 } });
    await expect(slow.transcribe(new Float32Array(16000 * 30))).rejects.toThrow(/took longer than 0.1 s/);
    const failing = createPocketSphinxEngine({ tempDir: dir, binary: '/bin/false' });
    await expect(failing.transcribe(new Float32Array(16000))).rejects.toThrow(TranscriptionFailedError);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('stops when its caller aborts (a server shutting down)', async () => {
    const dir = tempDir();
    const engine = createPocketSphinxEngine({ tempDir: dir });
    const controller = new AbortController();
    const running = engine.transcribe(new Float32Array(16000 * 30), { signal: controller.signal });
    controller.abort(new Error('shutting down'));
    await expect(running).rejects.toThrow('shutting down');
    await expect(engine.transcribe(new Float32Array(16000), { signal: controller.signal })).rejects.toThrow('shutting down');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('reads words and times, without fillers or pronunciation variants', () => {
    const output = [
      'hello there',
      '<s> 0.000 0.150 0.999900',
      'hello 0.160 0.500 0.042952',
      '<sil> 0.510 0.610 0.933693',
      '[NOISE] 0.620 0.700 0.5',
      'to(2) 3.050 3.160 0.427074',
      '++UH++ 3.2 3.3 0.1',
      'there 3.170 3.460 1.000000',
      '</s> 3.470 3.500 1.0',
    ].join('\n');
    expect(parsePocketSphinxOutput(output)).toEqual([
      { text: 'hello', start: 0.16, end: 0.5, confidence: 0.042952 },
      { text: 'to', start: 3.05, end: 3.16, confidence: 0.427074 },
      { text: 'there', start: 3.17, end: 3.46, confidence: 1 },
    ]);
  });
});

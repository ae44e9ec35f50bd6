/*
 * npx tsx bench/transcription.ts [--fixture server/transcription/fixtures/pocketsphinx-calls.json]
 *
 * Transcribes every rendered conversation as the carrier records it (two channels, 24 kbit/s Ogg Opus) with the
 * PocketSphinx engine, one call after another (each call's two recognizers side by side), and prints:
 *   - minutes of two-channel audio transcribed per CPU-second, and the real-time factor (CPU and wall);
 *   - word recall per channel against the script.
 * A CPU-second counts the recognizer processes' user + system time (cutime + cstime of /proc/self/stat: children
 * this process has waited for) plus this process's own (decoding, resampling, levels) from process.cpuUsage().
 * --fixture writes the transcripts the summarizer's tests read (run it again when the voices change).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CONVERSATIONS } from '../server/audio/conversations.js';
import { sampleCall } from '../server/audio/sample-calls.js';
import { loadVoices } from '../server/audio/voices.js';
import { createPocketSphinxEngine } from '../server/transcription/pocketsphinx.js';
import { scriptWords, wordRecall } from '../server/transcription/recall.js';
import { transcribeCall } from '../server/transcription/transcribe-call.js';

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds of the children this process has waited for (fields 16 and 17 of /proc/self/stat). */
function childrenCpuSeconds(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
}

const ownCpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** Prints the engine's speed and recall over every rendered conversation; `fixture`: write the summarizer's fixture there. */
export async function runTranscriptionBench(log: (line: string) => void, fixturePath?: string) {
  const engine = createPocketSphinxEngine();
  const ready = await engine.availability();
  if (!ready.available) throw new Error(ready.reason);
  const voices = await loadVoices();
  const calls = CONVERSATIONS.map((conversation, i) => sampleCall(voices, conversation, i + 1));
  const audioSeconds = calls.reduce((n, c) => n + c.connectedSeconds, 0);
  const bytes = calls.reduce((n, c) => n + c.recording.length, 0);
  log(
    `${calls.length} calls, ${(audioSeconds / 60).toFixed(2)} min of two-channel audio, ${(((bytes / audioSeconds) * 60) / 1000).toFixed(0)} KB a minute at 24 kbit/s`,
  );

  const [children0, own0, wall0] = [childrenCpuSeconds(), ownCpuSeconds(), performance.now()];
  const fixture = [];
  const recall = { member: [0, 0], contact: [0, 0] };
  for (const call of calls) {
    const transcript = await transcribeCall(engine, call.recording);
    const line = [call.conversation.id.padEnd(22)];
    for (const speaker of ['member', 'contact'] as const) {
      const reference = call.turns.filter((t) => t.speaker === speaker).flatMap((t) => scriptWords(t.text));
      const r = wordRecall(
        reference,
        transcript.words[speaker].map((w) => w.text),
      );
      recall[speaker][0]! += r * reference.length;
      recall[speaker][1]! += reference.length;
      line.push(`${speaker} recall ${r.toFixed(3)}, talk ${transcript.talkTime[speaker].toFixed(2)} s`);
    }
    log(line.join('  '));
    const { durationSeconds, talkTime, segments } = transcript;
    fixture.push({
      id: call.conversation.id,
      seed: call.seed,
      durationSeconds,
      talkTime,
      segments: segments.map(({ words: _, ...s }) => s),
    });
  }
  const [children, own, wall] = [childrenCpuSeconds() - children0, ownCpuSeconds() - own0, (performance.now() - wall0) / 1000];
  const cpu = children + own;
  log(
    `word recall: member ${(recall.member[0]! / recall.member[1]!).toFixed(3)}, contact ${(recall.contact[0]! / recall.contact[1]!).toFixed(3)}`,
  );
  log(`CPU: ${children.toFixed(1)} s in PocketSphinx + ${own.toFixed(1)} s in Node = ${cpu.toFixed(1)} s; wall ${wall.toFixed(1)} s`);
  log(
    `${(audioSeconds / 60 / cpu).toFixed(3)} min of two-channel audio per CPU-second; real-time factor ${(cpu / audioSeconds).toFixed(3)} CPU, ${(wall / audioSeconds).toFixed(3)} wall`,
  );
  if (fixturePath) {
    fs.writeFileSync(fixturePath, `${JSON.stringify(fixture, null, 1)}\n`);
    log(`wrote ${fixturePath}`);
  }
}

if (path.resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const { values: args } = parseArgs({ options: { fixture: { type: 'string' } } });
  await runTranscriptionBench((line) => process.stdout.write(`${line}\n`), args.fixture);
}

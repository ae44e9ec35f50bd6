/*
 * npx tsx scripts/render-voices.ts [--member rms] [--contact kal16] [--bitrate 20] [--out server/audio/voices]
 *
 * Renders every line of server/audio/conversations.ts with flite (apt-get install flite), the member's lines in
 * one voice and the contact's in another, and writes them as mono 16 kHz Ogg Opus clips with a manifest. Run it
 * once after changing a line, and commit the clips: the server only decodes them, so a machine with nothing but
 * Node still has speech on its calls.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { allLines } from '../server/audio/conversations.js';
import { oggOpusDurationSeconds } from '../server/audio/ogg-opus.js';
import { SPEECH_RATE } from '../server/audio/pcm.js';
import { type VoiceManifest, VOICES_DIR } from '../server/audio/voices.js';
import { renderClip } from './flite.js';

const { values: args } = parseArgs({
  options: {
    member: { type: 'string', default: 'rms' },
    contact: { type: 'string', default: 'kal16' },
    bitrate: { type: 'string', default: '20' },
    out: { type: 'string', default: VOICES_DIR },
  },
});
const bitrateKbps = Number(args.bitrate);

async function main() {
  const voices = { member: args.member, contact: args.contact };
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'render-voices-'));
  fs.mkdirSync(args.out, { recursive: true });
  const manifest: VoiceManifest = { voices, sampleRate: SPEECH_RATE, bitrateKbps, clips: [] };
  try {
    for (const { id, turn } of allLines()) {
      const bytes = await renderClip(voices[turn.speaker], turn.text, scratch, bitrateKbps);
      fs.writeFileSync(path.join(args.out, `${id}.opus`), bytes);
      manifest.clips.push({ id, speaker: turn.speaker, text: turn.text, duration: oggOpusDurationSeconds(bytes) });
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const kept = new Set(manifest.clips.map((c) => `${c.id}.opus`));
  for (const file of fs.readdirSync(args.out)) if (file.endsWith('.opus') && !kept.has(file)) fs.rmSync(path.join(args.out, file));
  fs.writeFileSync(path.join(args.out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const bytes = [...kept].reduce((n, file) => n + fs.statSync(path.join(args.out, file)).size, 0);
  const seconds = manifest.clips.reduce((n, c) => n + c.duration, 0);
  console.log(`${manifest.clips.length} clips, ${seconds.toFixed(1)} s of speech, ${(bytes / 1024).toFixed(0)} KiB in ${args.out}`);
}

await main();

import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { allLines } from './conversations.js';
import { oggOpusDurationSeconds } from './ogg-opus.js';
import { loadVoices, readVoiceManifest, VOICES_DIR } from './voices.js';

it('has a rendered clip for every line, with its text and speaker (else: npx tsx scripts/render-voices.ts)', async () => {
  const manifest = await readVoiceManifest();
  expect(manifest.clips.map(({ id, speaker, text }) => ({ id, speaker, text }))).toEqual(
    allLines().map(({ id, turn }) => ({ id, ...turn })),
  );
  for (const clip of manifest.clips) {
    expect(oggOpusDurationSeconds(fs.readFileSync(path.join(VOICES_DIR, `${clip.id}.opus`)))).toBe(clip.duration);
  }
});

it('ships under 1.5 MB of clips and holds them in memory as 16 kHz float PCM', async () => {
  const files = fs.readdirSync(VOICES_DIR).filter((f) => f.endsWith('.opus'));
  const bytes = files.reduce((n, f) => n + fs.statSync(path.join(VOICES_DIR, f)).size, 0);
  expect(bytes).toBeLessThan(1.5e6);
  const voices = await loadVoices();
  const seconds = voices.manifest.clips.reduce((n, c) => n + c.duration, 0);
  expect(voices.bytes).toBe(Math.round(seconds * 16000) * 4);
  expect(await loadVoices()).toBe(voices);
});

/*
 * npx tsx scripts/render-starter-voicemail.ts [--voice slt]
 *
 * Renders the system voicemail every organisation starts with (server/audio/starter-voicemail.ts) with flite and
 * writes it as mono 16 kHz Ogg Opus. Run it once after changing the text, and commit the file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { oggOpusDurationSeconds } from '../server/audio/ogg-opus.js';
import { STARTER_VOICEMAIL_FILE, STARTER_VOICEMAIL_TEXT } from '../server/audio/starter-voicemail.js';
import { renderClip } from './flite.js';

const { values: args } = parseArgs({ options: { voice: { type: 'string', default: 'slt' }, bitrate: { type: 'string', default: '20' } } });

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'render-starter-'));
try {
  const bytes = await renderClip(args.voice, STARTER_VOICEMAIL_TEXT, scratch, Number(args.bitrate));
  fs.mkdirSync(path.dirname(STARTER_VOICEMAIL_FILE), { recursive: true });
  fs.writeFileSync(STARTER_VOICEMAIL_FILE, bytes);
  console.log(`${oggOpusDurationSeconds(bytes).toFixed(1)} s, ${(bytes.length / 1024).toFixed(1)} KiB in ${STARTER_VOICEMAIL_FILE}`);
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}

/*
 * The system voicemail every organisation starts with, so "Drop voicemail" works from the first day. Rendered once
 * with flite by scripts/render-starter-voicemail.ts and shipped as Ogg Opus: the server only reads the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { oggOpusDurationSeconds } from './ogg-opus.js';

export const STARTER_VOICEMAIL_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'library', 'starter-voicemail.opus');
export const STARTER_VOICEMAIL_NAME = 'Sorry I missed you (starter)';
export const STARTER_VOICEMAIL_TEXT =
  'Hi, sorry I missed you. I was calling to follow up and would love to find a few minutes to talk. Please call me back when you have a moment. Thanks, and have a great day.';

export type StarterVoicemail = { name: string; content_type: string; audio: Buffer; duration_ms: number };

let cached: StarterVoicemail | undefined;

export function starterVoicemail(): StarterVoicemail {
  if (!cached) {
    const audio = fs.readFileSync(STARTER_VOICEMAIL_FILE);
    cached = {
      name: STARTER_VOICEMAIL_NAME,
      content_type: 'audio/ogg',
      audio,
      duration_ms: Math.round(oggOpusDurationSeconds(audio) * 1000),
    };
  }
  return cached;
}

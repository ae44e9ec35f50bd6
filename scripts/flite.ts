/* Speech rendered with flite (apt-get install flite) as a mono 16 kHz Ogg Opus clip: for audio the repo ships. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createOggOpusEncoder } from '../server/audio/ogg-opus.js';
import { decodeAudio, SPEECH_RATE, toSpeechPcm } from '../server/audio/pcm.js';
import { normalizeLevel, trimSilence } from '../server/audio/trim.js';

function flite(voice: string, text: string, wav: string) {
  const result = spawnSync('flite', ['-voice', voice, '-t', text, '-o', wav], { encoding: 'utf8' });
  if (result.error) throw new Error(`flite did not run (apt-get install flite): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`flite failed on "${text}": ${result.stderr}`);
}

/** One line said by a flite voice, trimmed and levelled; `scratch` is a directory for flite's WAV. */
export async function renderClip(voice: string, text: string, scratch: string, bitrateKbps: number): Promise<Buffer> {
  const wav = path.join(scratch, 'line.wav');
  flite(voice, text, wav);
  const speech = toSpeechPcm(await decodeAudio(fs.readFileSync(wav)));
  const clip = normalizeLevel(trimSilence(speech, SPEECH_RATE), SPEECH_RATE);
  const encoder = createOggOpusEncoder({ sampleRate: SPEECH_RATE, channels: 1, bitrateKbps });
  return Buffer.concat([encoder.write([clip]), encoder.end()]);
}

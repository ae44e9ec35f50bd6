/*
 * The rendered lines (server/audio/voices/, written by scripts/render-voices.ts), decoded once per process and
 * kept as 16 kHz float PCM: 4 bytes a sample, 64 KB a second of speech (the whole set is measured in
 * voices.test.ts: 14.8 MB for 231 s). Decoding them all takes about 2 s, on the first call that needs them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clipId, type Conversation, MACHINE_GREETING_ID } from './conversations.js';
import { decodeAudio, type Speaker, toSpeechPcm } from './pcm.js';

export const VOICES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'voices');

export type VoiceClipInfo = { id: string; speaker: Speaker; text: string; duration: number };
export type VoiceManifest = { voices: Record<Speaker, string>; sampleRate: number; bitrateKbps: number; clips: VoiceClipInfo[] };

export type VoiceClip = VoiceClipInfo & { pcm: Float32Array };
export type VoiceBank = {
  manifest: VoiceManifest;
  clip(id: string): VoiceClip;
  /** The clips of a conversation's turns, in order. */
  turns(conversation: Conversation): VoiceClip[];
  machineGreeting(): VoiceClip;
  /** Bytes of PCM held in memory. */
  bytes: number;
};

export async function readVoiceManifest(dir = VOICES_DIR): Promise<VoiceManifest> {
  return JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8')) as VoiceManifest;
}

async function loadVoiceBank(dir: string): Promise<VoiceBank> {
  const manifest = await readVoiceManifest(dir);
  const clips = new Map<string, VoiceClip>();
  for (const info of manifest.clips) {
    const pcm = toSpeechPcm(await decodeAudio(await fs.readFile(path.join(dir, `${info.id}.opus`))));
    clips.set(info.id, { ...info, pcm });
  }
  const clip = (id: string) => {
    const found = clips.get(id);
    if (!found) throw new Error(`no rendered clip '${id}': run npx tsx scripts/render-voices.ts`);
    return found;
  };
  return {
    manifest,
    clip,
    turns: (conversation) => conversation.turns.map((_, i) => clip(clipId(conversation.id, i))),
    machineGreeting: () => clip(MACHINE_GREETING_ID),
    bytes: [...clips.values()].reduce((n, c) => n + c.pcm.byteLength, 0),
  };
}

const banks = new Map<string, Promise<VoiceBank>>();

/** The voice bank of `dir`, decoded on the first call and shared after (a failed load is tried again next time). */
export function loadVoices(dir = VOICES_DIR): Promise<VoiceBank> {
  const cached = banks.get(dir);
  if (cached) return cached;
  const loading = loadVoiceBank(dir);
  banks.set(dir, loading);
  loading.catch(() => banks.delete(dir));
  return loading;
}

import { Worker } from 'node:worker_threads';
import { AudioDecodeError, type AudioDecodeFailure, decodeAudio, splitCall, SPEECH_RATE, toSpeechPcm } from '../audio/pcm.js';
import { talkTime } from './segments.js';

/*
 * A call recording made ready for the recognizers: decoded, split into the member's and the contact's channels, each
 * brought to 16 kHz, and the talk time measured. For a minute of call that is about 0.7 s of CPU (decoding 0.2 s,
 * resampling 0.25 s a channel) that would hold the server's event loop: a rep's action waiting behind it took p99
 * 1.5 s instead of 0.5 s while calls were transcribed. So it runs in a worker thread, one per process, started on
 * first use and not keeping the process alive.
 */

export type PreparedCall = {
  member: Float32Array;
  contact: Float32Array;
  durationSeconds: number;
  talkTime: { member: number; contact: number };
};

/** The work itself, wherever it runs. Throws AudioDecodeError for bytes that are not a whole two-channel recording. */
export async function prepareCall(recording: Uint8Array): Promise<PreparedCall> {
  const pcm = await decodeAudio(recording);
  const split = splitCall(pcm);
  const member = toSpeechPcm({ sampleRate: pcm.sampleRate, channels: [split.member] });
  const contact = toSpeechPcm({ sampleRate: pcm.sampleRate, channels: [split.contact] });
  return { member, contact, durationSeconds: split.member.length / pcm.sampleRate, talkTime: talkTime({ member, contact }, SPEECH_RATE) };
}

type Reply = { id: number; prepared?: PreparedCall; error?: { message: string; decode?: { reason: AudioDecodeFailure } } };

let worker: Worker | undefined;
const waiting = new Map<number, { resolve: (p: PreparedCall) => void; reject: (e: Error) => void }>();
let nextId = 0;

function started(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./prepare-worker.mjs', import.meta.url));
  w.unref();
  w.on('message', ({ id, prepared, error }: Reply) => {
    const waiter = waiting.get(id);
    waiting.delete(id);
    if (!waiter) return;
    if (prepared) waiter.resolve(prepared);
    else
      waiter.reject(
        error?.decode ? new AudioDecodeError(error.decode.reason, error.message) : new Error(error?.message ?? 'preparing the call failed'),
      );
  });
  // A worker that dies fails what it held; the next call starts another.
  const fail = (error: Error) => {
    if (worker === w) worker = undefined;
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`the audio worker stopped (${code})`)));
  worker = w;
  return w;
}

/** prepareCall in the process's worker thread. */
export function prepareCallOffThread(recording: Uint8Array): Promise<PreparedCall> {
  const id = nextId++;
  const w = started();
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.postMessage({ id, recording });
  });
}

import { parentPort } from 'node:worker_threads';
import { AudioDecodeError } from '../audio/pcm.js';
import { prepareCall } from './prepare-call.js';

/* Runs prepareCall off the server's event loop (prepare-call.ts); the channels go back without a copy. */
parentPort!.on('message', async ({ id, recording }: { id: number; recording: Uint8Array }) => {
  try {
    const prepared = await prepareCall(recording);
    const buffers = [...new Set([prepared.member.buffer, prepared.contact.buffer])] as ArrayBuffer[];
    parentPort!.postMessage({ id, prepared }, buffers);
  } catch (error) {
    const decode = error instanceof AudioDecodeError ? { reason: error.reason } : undefined;
    parentPort!.postMessage({ id, error: { message: (error as Error).message, decode } });
  }
});

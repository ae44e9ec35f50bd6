import { expect, it } from 'vitest';
import { AudioDecodeError, encodeWav16 } from '../audio/pcm.js';
import { createPocketSphinxEngine } from './pocketsphinx.js';
import { transcribeCall } from './transcribe-call.js';

it('refuses a recording that is not two channels, or not audio, before running a recognizer', async () => {
  const engine = createPocketSphinxEngine();
  await expect(transcribeCall(engine, encodeWav16([new Float32Array(16000)], 16000))).rejects.toThrow(AudioDecodeError);
  await expect(transcribeCall(engine, Buffer.from('not a recording'))).rejects.toMatchObject({ reason: 'not-audio' });
});

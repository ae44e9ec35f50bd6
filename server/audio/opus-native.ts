/*
 * libopus 1.4 as compiled by opusscript, reached through its WebAssembly module rather than its JavaScript wrapper.
 * The wrapper views its input buffer at twice the address malloc gave it (HEAPU16.subarray(bytePointer)), outside
 * its allocation: with five encoders alive, the first one's output changed (its input had landed in another's
 * memory), and its views go stale once the WebAssembly memory grows. Here every access goes through the module's
 * current heap views at the addresses malloc returned.
 */
import { createRequire } from 'node:module';

export type OpusSampleRate = 8000 | 12000 | 16000 | 24000 | 48000;
export type OpusApplication = 'voip' | 'audio';

type NativeHandler = {
  _encode(pcm: number, samples: number, out: number, frameSize: number): number;
  _encoder_ctl(ctl: number, arg: number): number;
};
type NativeModule = {
  OpusScriptHandler: { new (rate: number, channels: number, application: number): NativeHandler; destroy_handler(h: NativeHandler): void };
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  HEAPU16: Uint16Array;
  HEAP32: Int32Array;
  HEAPU8: Uint8Array;
};

const APPLICATIONS: Record<OpusApplication, number> = { voip: 2048, audio: 2049 };
const SET_BITRATE = 4002;
const SET_COMPLEXITY = 4010;
const SET_FORCE_CHANNELS = 4022;
const GET_LOOKAHEAD = 4027;
/** RFC 6716's largest packet: 3 frames of 1275 bytes plus framing. */
const MAX_PACKET_BYTES = 4000;

let native: NativeModule | undefined;
/* The emscripten factory instantiates synchronously in Node (it reads the .wasm file next to it). */
const load = () => (native ??= createRequire(import.meta.url)('opusscript/build/opusscript_native_wasm.js')() as NativeModule);

export type OpusEncoder = {
  /** Samples per channel the encoder reads ahead; what the Ogg header's pre-skip is made of. */
  lookahead: number;
  /** One packet from exactly frameSize samples per channel, interleaved, 16-bit. */
  encode(interleaved: Int16Array, frameSize: number): Uint8Array;
  close(): void;
};

type Allocation = { handler: NativeHandler; pcm: number; out: number };
/* An encoder dropped without close() (a write that threw) still gives its memory back. */
const release = (a: Allocation) => {
  const mod = load();
  mod.OpusScriptHandler.destroy_handler(a.handler);
  mod._free(a.pcm);
  mod._free(a.out);
};
const registry = new FinalizationRegistry(release);

export type OpusEncoderOptions = {
  sampleRate: OpusSampleRate;
  channels: 1 | 2;
  application: OpusApplication;
  bitrate: number;
  /** 0-10; libopus's default (9) when left out. */
  complexity?: number;
};

export function createOpusEncoder(opts: OpusEncoderOptions): OpusEncoder {
  const mod = load();
  const handler = new mod.OpusScriptHandler(opts.sampleRate, opts.channels, APPLICATIONS[opts.application]);
  /* 120 ms is the longest Opus frame; at 48 kHz that bounds every frame, and each sample takes two 16-bit slots. */
  const pcmCapacity = 5760 * opts.channels;
  const allocation: Allocation = { handler, pcm: mod._malloc(pcmCapacity * 4), out: mod._malloc(MAX_PACKET_BYTES) };
  const token = {};
  registry.register(token, allocation, token);
  check(handler._encoder_ctl(SET_BITRATE, Math.round(opts.bitrate)), 'setting the bitrate');
  /* Below ~19 kbit/s libopus folds stereo into mono; a call's channels are two people and must stay apart. */
  check(handler._encoder_ctl(SET_FORCE_CHANNELS, opts.channels), 'keeping the channels apart');
  if (opts.complexity !== undefined) check(handler._encoder_ctl(SET_COMPLEXITY, opts.complexity), 'setting the complexity');
  check(handler._encoder_ctl(GET_LOOKAHEAD, allocation.out), 'reading the lookahead');
  const lookahead = mod.HEAP32[allocation.out >> 2]!;
  let closed = false;
  return {
    lookahead,
    encode(interleaved, frameSize) {
      if (closed) throw new Error('the Opus encoder is closed');
      if (interleaved.length !== frameSize * opts.channels || interleaved.length > pcmCapacity) {
        throw new RangeError(`an Opus frame is ${frameSize} samples per channel, not ${interleaved.length / opts.channels}`);
      }
      /* The native side takes the PCM as bytes, one per 16-bit slot, and packs them into samples in place. */
      const slots = mod.HEAPU16;
      const at = allocation.pcm >> 1;
      for (let i = 0; i < interleaved.length; i++) {
        slots[at + 2 * i] = interleaved[i]! & 0xff;
        slots[at + 2 * i + 1] = (interleaved[i]! >> 8) & 0xff;
      }
      const length = check(handler._encode(allocation.pcm, 2 * interleaved.length, allocation.out, frameSize), 'encoding');
      return mod.HEAPU8.slice(allocation.out, allocation.out + length);
    },
    close() {
      if (closed) return;
      closed = true;
      registry.unregister(token);
      release(allocation);
    },
  };
}

const ERRORS = [
  'OK',
  'bad argument',
  'buffer too small',
  'internal error',
  'invalid packet',
  'unimplemented',
  'invalid state',
  'allocation failed',
];

function check(code: number, doing: string): number {
  if (code < 0) throw new Error(`libopus failed ${doing}: ${ERRORS[-code] ?? code}`);
  return code;
}

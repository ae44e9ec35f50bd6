/*
 * Ogg Opus (RFC 7845) from float PCM: OpusHead on the first page, OpusTags on the second, then pages of about a
 * second of 20 ms packets each. Granule positions count 48 kHz samples whatever the input rate, and include the
 * pre-skip (the encoder's lookahead); the end of the input is flushed with lookahead's worth of silence and the
 * last page's granule cuts the decoded stream back to the exact length written.
 */
import { lastOggPage, MAX_SEGMENTS, OggFormatError, PAGE_BOS, PAGE_EOS, readOggPage, segmentsOf, writeOggPage } from './ogg.js';
import { createOpusEncoder, type OpusApplication, type OpusSampleRate } from './opus-native.js';

export type OggOpusOptions = {
  sampleRate: OpusSampleRate;
  channels: 1 | 2;
  /** 24 kbit/s by default: about 180 KB a minute, clear speech on two channels. */
  bitrateKbps?: number;
  application?: OpusApplication;
  /** libopus's complexity, 0-10 (its default, 9, when left out): lower is faster and a little worse. */
  complexity?: number;
  /** The Ogg stream's serial number; fixed by default so the same input gives the same bytes. */
  serial?: number;
};

export type OggOpusEncoder = {
  /** One Float32Array per channel, all the same length, samples in [-1, 1]; answers the pages completed so far. */
  write(channels: Float32Array[]): Buffer;
  /** Flushes what is left; the answer ends with the end-of-stream page. */
  end(): Buffer;
};

const FRAME_MS = 20;
const PACKETS_PER_PAGE = 50;
const DEFAULT_SERIAL = 0x5242_4b31;
const VENDOR = 'libopus 1.4 (opusscript), Ringbook ogg-opus';

export function createOggOpusEncoder(opts: OggOpusOptions): OggOpusEncoder {
  const { sampleRate, channels } = opts;
  const encoder = createOpusEncoder({
    sampleRate,
    channels,
    application: opts.application ?? 'voip',
    bitrate: (opts.bitrateKbps ?? 24) * 1000,
    complexity: opts.complexity,
  });
  const frameSize = (sampleRate * FRAME_MS) / 1000;
  /** 48 kHz samples per input sample: granules and pre-skip are always counted at 48 kHz. */
  const scale = 48000 / sampleRate;
  const preSkip = encoder.lookahead * scale;
  const serial = opts.serial ?? DEFAULT_SERIAL;
  const pending = new Int16Array(frameSize * channels);
  let filled = 0;
  let written = 0;
  let encoded = 0;
  let sequence = 0;
  let page: Uint8Array[] = [];
  let state: 'new' | 'open' | 'ended' = 'new';

  const out: Buffer[] = [];
  const emit = (flags: number, granule: bigint, packets: Uint8Array[]) =>
    out.push(writeOggPage({ flags, granule, serial, sequence: sequence++, packets }));
  const drain = () => Buffer.concat(out.splice(0));

  function headers() {
    emit(PAGE_BOS, 0n, [opusHead(channels, preSkip, sampleRate)]);
    emit(0, 0n, [opusTags()]);
    state = 'open';
  }

  function flushPage(flags: number, granule: bigint) {
    emit(flags, granule, page);
    page = [];
  }

  function encodeFrame() {
    const packet = encoder.encode(pending, frameSize);
    const segments = page.reduce((n, p) => n + segmentsOf(p.length), 0);
    /* A full page goes out when the next packet comes, so the end-of-stream page always holds a packet. */
    if (page.length === PACKETS_PER_PAGE || segments + segmentsOf(packet.length) > MAX_SEGMENTS) flushPage(0, BigInt(encoded * scale));
    page.push(packet);
    encoded += frameSize;
    filled = 0;
  }

  function push(input: Float32Array[], count: number) {
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < channels; c++) pending[filled * channels + c] = toInt16(input[c]![i]!);
      if (++filled === frameSize) encodeFrame();
    }
  }

  return {
    write(input) {
      if (state === 'ended') throw new Error('the Ogg Opus stream has ended');
      const length = checkChannels(input, channels);
      if (state === 'new') headers();
      push(input, length);
      written += length;
      return drain();
    },
    end() {
      if (state === 'ended') throw new Error('the Ogg Opus stream has ended');
      if (state === 'new') headers();
      state = 'ended';
      /* Silence past the input pushes the encoder's lookahead out, then pads the last frame. */
      const tail = encoder.lookahead + (frameSize - ((filled + encoder.lookahead) % frameSize || frameSize));
      push(
        Array.from({ length: channels }, () => new Float32Array(tail)),
        tail,
      );
      encoder.close();
      flushPage(PAGE_EOS, BigInt(preSkip + written * scale));
      return drain();
    },
  };
}

function checkChannels(input: Float32Array[], channels: number): number {
  const length = input[0]?.length ?? 0;
  if (input.length !== channels || input.some((c) => c.length !== length)) {
    throw new RangeError(`write takes ${channels} channel(s) of the same length`);
  }
  return length;
}

const toInt16 = (v: number) => (v >= 1 ? 32767 : v <= -1 ? -32768 : Math.round(v * 32767)) || 0;

function opusHead(channels: number, preSkip: number, inputRate: number): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head.writeUInt8(1, 8);
  head.writeUInt8(channels, 9);
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(inputRate, 12);
  head.writeInt16LE(0, 16);
  head.writeUInt8(0, 18);
  return head;
}

function opusTags(): Buffer {
  const vendor = Buffer.from(VENDOR, 'utf8');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  tags.writeUInt32LE(0, 12 + vendor.length);
  return tags;
}

/**
 * How long an Ogg Opus stream plays, in seconds: the last page's granule less the pre-skip, over 48 kHz. Reads the
 * first and the last page only. Throws OggFormatError when the bytes are not a whole Ogg Opus stream.
 */
export function oggOpusDurationSeconds(bytes: Buffer): number {
  const { page } = readOggPage(bytes, 0);
  const head = page.packets[0];
  if (!head || head.length < 19 || Buffer.from(head.subarray(0, 8)).toString('latin1') !== 'OpusHead') {
    throw new OggFormatError('the first Ogg page is not an OpusHead');
  }
  const preSkip = Buffer.from(head).readUInt16LE(10);
  const last = lastOggPage(bytes);
  if (last.granule < 0n) throw new OggFormatError('the last Ogg page has no granule position');
  return Math.max(0, Number(last.granule) - preSkip) / 48000;
}

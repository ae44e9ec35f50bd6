/*
 * Ogg page framing (RFC 3533), written here rather than taken from npm: the one package that wraps opusscript
 * (@audio/encode-opus) writes a page per 20 ms packet, which costs 27 + 1 bytes of header 50 times a second
 * (11 kbit/s, half of a 24 kbit/s voice stream), and it resamples in JavaScript. A page writer and reader is
 * ~100 lines and lets the encoder group a second of packets per page.
 */

const CAPTURE = Buffer.from('OggS', 'latin1');
const HEADER_BYTES = 27;
/** A page's lacing table has at most 255 entries; a packet takes ceil((length + 1) / 255) of them. */
export const MAX_SEGMENTS = 255;

export const PAGE_CONTINUED = 0x01;
export const PAGE_BOS = 0x02;
export const PAGE_EOS = 0x04;

/** CRC-32 of Ogg: polynomial 0x04c11db7, not reflected, initial value 0, no final xor (unlike zlib's). */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}

/** How many lacing values a packet of this length takes (a multiple of 255 needs a final 0). */
export const segmentsOf = (packetLength: number) => Math.floor(packetLength / 255) + 1;

export type OggPage = {
  flags: number;
  /** -1n when no packet ends on the page. */
  granule: bigint;
  serial: number;
  sequence: number;
  packets: Uint8Array[];
};

/** One page holding whole packets (the encoder never splits a packet across pages). */
export function writeOggPage({ flags, granule, serial, sequence, packets }: OggPage): Buffer {
  const lacing = packets.flatMap((p) => [...Array(segmentsOf(p.length) - 1).fill(255), p.length % 255]);
  if (lacing.length > MAX_SEGMENTS) throw new RangeError(`an Ogg page holds at most ${MAX_SEGMENTS} segments, not ${lacing.length}`);
  const page = Buffer.alloc(HEADER_BYTES + lacing.length + packets.reduce((n, p) => n + p.length, 0));
  CAPTURE.copy(page, 0);
  page.writeUInt8(0, 4);
  page.writeUInt8(flags, 5);
  page.writeBigInt64LE(granule, 6);
  page.writeUInt32LE(serial >>> 0, 14);
  page.writeUInt32LE(sequence >>> 0, 18);
  page.writeUInt8(lacing.length, 26);
  page.set(lacing, HEADER_BYTES);
  let at = HEADER_BYTES + lacing.length;
  for (const p of packets) {
    page.set(p, at);
    at += p.length;
  }
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

export class OggFormatError extends Error {
  override name = 'OggFormatError';
}

/** The page starting at `offset`, checked (capture pattern, version, length, CRC), and where the next one starts. */
export function readOggPage(bytes: Buffer, offset: number): { page: OggPage; next: number } {
  if (bytes.length < offset + HEADER_BYTES || !bytes.subarray(offset, offset + 4).equals(CAPTURE)) {
    throw new OggFormatError(`no Ogg page at byte ${offset}`);
  }
  if (bytes[offset + 4] !== 0) throw new OggFormatError(`unknown Ogg version at byte ${offset}`);
  const count = bytes[offset + 26]!;
  const lacing = bytes.subarray(offset + HEADER_BYTES, offset + HEADER_BYTES + count);
  const end = offset + HEADER_BYTES + count + lacing.reduce((n, v) => n + v, 0);
  if (lacing.length < count || end > bytes.length) throw new OggFormatError(`the Ogg page at byte ${offset} is truncated`);
  const copy = Buffer.from(bytes.subarray(offset, end));
  const stored = copy.readUInt32LE(22);
  copy.writeUInt32LE(0, 22);
  if (oggCrc(copy) !== stored) throw new OggFormatError(`the Ogg page at byte ${offset} fails its CRC`);
  return { page: { ...headerFields(bytes, offset), packets: packetsOf(bytes, offset + HEADER_BYTES + count, lacing) }, next: end };
}

function headerFields(bytes: Buffer, offset: number) {
  return {
    flags: bytes[offset + 5]!,
    granule: bytes.readBigInt64LE(offset + 6),
    serial: bytes.readUInt32LE(offset + 14),
    sequence: bytes.readUInt32LE(offset + 18),
  };
}

/** Whole packets only: a packet left open at the page's end (lacing value 255) is returned as it stands. */
function packetsOf(bytes: Buffer, start: number, lacing: Uint8Array): Uint8Array[] {
  const packets: Uint8Array[] = [];
  let from = start;
  let length = 0;
  for (const value of lacing) {
    length += value;
    if (value < 255) {
      packets.push(bytes.subarray(from, from + length));
      from += length;
      length = 0;
    }
  }
  if (length) packets.push(bytes.subarray(from, from + length));
  return packets;
}

/** Every page of a stream, in order; throws OggFormatError at the first bad one. */
export function readOggPages(bytes: Buffer): OggPage[] {
  const pages: OggPage[] = [];
  for (let at = 0; at < bytes.length;) {
    const { page, next } = readOggPage(bytes, at);
    pages.push(page);
    at = next;
  }
  return pages;
}

/** The last whole, valid page: found from the end, so a long file is not read through. */
export function lastOggPage(bytes: Buffer): OggPage {
  for (let at = bytes.lastIndexOf(CAPTURE); at >= 0; at = at > 0 ? bytes.lastIndexOf(CAPTURE, at - 1) : -1) {
    try {
      const { page, next } = readOggPage(bytes, at);
      if (next === bytes.length) return page;
    } catch (error) {
      if (!(error instanceof OggFormatError)) throw error;
    }
  }
  throw new OggFormatError('no complete Ogg page ends the bytes');
}

import type { Response } from 'express';
import parseRange from 'range-parser';
import type { Readable } from 'node:stream';
import { ApiError, Codes } from './http-errors.js';

/*
 * Audio answered whole, or the byte range asked for (players seek with Range requests). The audio headers go on audio
 * only: a refusal is the JSON error envelope. Cache-Control stays the caller's (the API's no-store: a recording is
 * as private as the calls it belongs to).
 */

type Span = { start: number; end: number } | undefined;

/** The one range to send (undefined: the whole), or a 416 in the envelope for a range outside the audio. */
function spanOf(range: string | undefined, size: number): Span {
  const ranges = range ? parseRange(size, range, { combine: true }) : -2;
  if (ranges === -1) {
    throw new ApiError(
      416,
      [{ code: Codes.rangeNotSatisfiable, reason: `The range asked for is outside the recording's ${size} bytes.` }],
      { 'Content-Range': `bytes */${size}` },
    );
  }
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return undefined;
  return ranges[0];
}

function head(res: Response, contentType: string, size: number, span: Span) {
  res.set({ 'Content-Type': contentType, 'Accept-Ranges': 'bytes' });
  if (!span) return res.status(200).set('Content-Length', String(size));
  return res
    .status(206)
    .set({ 'Content-Range': `bytes ${span.start}-${span.end}/${size}`, 'Content-Length': String(span.end - span.start + 1) });
}

export function sendAudio(range: string | undefined, res: Response, audio: Buffer, contentType: string): void {
  const span = spanOf(range, audio.length);
  head(res, contentType, audio.length, span).end(span ? audio.subarray(span.start, span.end + 1) : audio);
}

/** The same from a store that reads ranges itself: nothing but the bytes asked for is read. */
export function sendAudioStream(
  range: string | undefined,
  res: Response,
  size: number,
  contentType: string,
  read: (span: Span) => Readable,
): void {
  const span = spanOf(range, size);
  const stream = read(span);
  stream.on('error', () => res.destroy());
  stream.pipe(head(res, contentType, size, span));
}

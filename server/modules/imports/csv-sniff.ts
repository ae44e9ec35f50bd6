import type { ImportDelimiter, ImportEncoding } from '../../contracts/imports.js';

/*
 * What an upload's first bytes say about it: whether it is text at all, its encoding and its delimiter. Pure: the
 * upload (import-upload.service.ts) reads the first bytes, asks here, then parses the whole stream accordingly.
 */

const UTF8_BOM = [0xef, 0xbb, 0xbf];

export const hasBom = (bytes: Uint8Array) => UTF8_BOM.every((b, i) => bytes[i] === b);

/** A NUL byte is in no CSV file, in either encoding: the file is binary (a spreadsheet, an image, an archive). */
export const isBinary = (bytes: Uint8Array) => bytes.includes(0);

/** UTF-8 when the bytes decode as UTF-8 (a sequence cut at the end of the sample is fine), else Windows-1252. */
export function encodingOf(sample: Uint8Array): ImportEncoding {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

const CANDIDATES: readonly ImportDelimiter[] = [',', ';', '\t'];

/** Per line, how many times each candidate occurs outside quotes (the first `maxLines` complete lines). */
function countsPerLine(text: string, maxLines: number): Map<ImportDelimiter, number[]> {
  const counts = new Map(CANDIDATES.map((c) => [c, [0]]));
  let quoted = false;
  let lines = 0;
  for (let i = 0; i < text.length && lines < maxLines; i++) {
    const ch = text[i]!;
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      lines++;
      if (lines < maxLines) for (const list of counts.values()) list.push(0);
    } else if (!quoted && CANDIDATES.includes(ch as ImportDelimiter)) {
      const list = counts.get(ch as ImportDelimiter)!;
      list[list.length - 1]!++;
    }
  }
  return counts;
}

/**
 * The delimiter of the first lines: the candidate found on every line the most times at least (a semicolon file's
 * prices "1,50" have commas on some lines only), then the most in all; a comma when none is found.
 */
export function sniffDelimiter(text: string, maxLines = 10): ImportDelimiter {
  const counts = countsPerLine(text, maxLines);
  let best: ImportDelimiter = ',';
  let bestScore = [0, 0];
  for (const [candidate, perLine] of counts) {
    const lines = perLine.length > 1 && perLine[perLine.length - 1] === 0 ? perLine.slice(0, -1) : perLine;
    const score = [Math.min(...lines), lines.reduce((a, b) => a + b, 0)];
    if (score[0]! > bestScore[0]! || (score[0] === bestScore[0] && score[1]! > bestScore[1]!)) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

import type { Response } from 'express';

import type { PageRequest } from '../db/paging.js';

export type PageMeta = { page: number; page_size: number; total_results: number; total_pages: number };

export function pageMeta(paging: PageRequest, totalResults: number): PageMeta {
  return {
    page: paging.page,
    page_size: paging.page_size,
    total_results: totalResults,
    total_pages: Math.ceil(totalResults / paging.page_size),
  };
}

/** The paging fields of an answer that is a list of one (a single record fetched by id). */
export const oneOfOne = (): PageMeta => pageMeta({ page: 1, page_size: 1 }, 1);

/** The paging fields of an answer that is a whole list on one page (a list just replaced). */
export const wholeList = (n: number): PageMeta => ({ page: 1, page_size: Math.max(n, 1), total_results: n, total_pages: n ? 1 : 0 });

/** The contract's success envelope: `{ http_status, status: 'success', <key>: body }`, and any older shapes beside it. */
export function sendSuccess(res: Response, status: number, key: string, body: unknown, alongside: Record<string, unknown> = {}) {
  res.status(status).json({ http_status: status, status: 'success', [key]: body, ...alongside });
}

/** A list nests its array under the same key as the wrapper, beside the paging fields. */
export function sendList(res: Response, key: string, items: object[], meta: PageMeta, extra: Record<string, unknown> = {}) {
  sendSerializedList(
    res,
    key,
    items.map((item) => JSON.stringify(item)),
    meta,
    extra,
  );
}

/** What Express's `res.set('Content-Type', 'application/json')` and `res.send(<string>)` make of it, written as is. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * `sendList` for items already serialized (record-cache.ts): the same bytes, without serializing them again. Sent as
 * bytes with the content type written whole: Express looks a type given as text up in its MIME table and parses it
 * again to add the charset, for every answer.
 */
export function sendSerializedList(
  res: Response,
  key: string,
  items: readonly (string | Buffer)[],
  meta: PageMeta,
  extra: Record<string, unknown> = {},
) {
  res.status(200).setHeader('Content-Type', JSON_TYPE);
  res.send(listBytes(key, items, meta, extra));
}

const COMMA = Buffer.from(',');

/** `listBody` as UTF-8 bytes, the items' bytes copied in as they are (a kept record is bytes already). */
export function listBytes(key: string, items: readonly (string | Buffer)[], meta: PageMeta, extra: Record<string, unknown> = {}): Buffer {
  const name = JSON.stringify(key);
  const parts: Buffer[] = [Buffer.from(`{"http_status":200,"status":"success",${name}:{${name}:[`)];
  items.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(typeof item === 'string' ? Buffer.from(item) : item);
  });
  parts.push(Buffer.from(`],${JSON.stringify({ ...meta, ...extra }).slice(1)}}`));
  return Buffer.concat(parts);
}

/** The success envelope of a list around serialized items, as `JSON.stringify` would write the whole. */
export function listBody(key: string, items: string[], meta: PageMeta, extra: Record<string, unknown> = {}): string {
  const name = JSON.stringify(key);
  const rest = JSON.stringify({ ...meta, ...extra }).slice(1);
  return `{"http_status":200,"status":"success",${name}:{${name}:[${items.join(',')}],${rest}}`;
}

export function sendNoContent(res: Response) {
  res.status(204).end();
}

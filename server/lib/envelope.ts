import type { Response } from 'express';

export type Paging = { page: number; pageSize: number };

export type PageMeta = { page: number; page_size: number; total_results: number; total_pages: number };

export function pageMeta(paging: Paging, totalResults: number): PageMeta {
  return {
    page: paging.page,
    page_size: paging.pageSize,
    total_results: totalResults,
    total_pages: Math.ceil(totalResults / paging.pageSize),
  };
}

/** The contract's success envelope: `{ http_status, status: 'success', <key>: body }`. */
export function sendSuccess(res: Response, status: number, key: string, body: unknown) {
  res.status(status).json({ http_status: status, status: 'success', [key]: body });
}

/** A list nests its array under the same key as the wrapper, beside the paging fields. */
export function sendList(res: Response, key: string, items: unknown, meta: PageMeta, extra: Record<string, unknown> = {}) {
  sendSuccess(res, 200, key, { [key]: items, ...meta, ...extra });
}

export function sendNoContent(res: Response) {
  res.status(204).end();
}

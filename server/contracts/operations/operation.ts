/*
 * The API described: every route of /rest/1 as an operation naming the contract schemas it reads and the envelope it
 * answers. server/modules/openapi builds the OpenAPI document from these lists, and its test fails on a route the
 * server has that no list describes. Browser-safe: zod only.
 */
import type { z } from 'zod';

export type Method = 'get' | 'post' | 'put' | 'delete';

/** What a success answers: the contract's envelope around the resource key, or bytes that are not JSON. */
export type Answer =
  /** `{ <key>: { <key>: [item, ...], page, page_size, total_results, total_pages } }` */
  | { status: number; list: string; item?: z.ZodType; about?: string }
  /** `{ <key>: item }` */
  | { status: number; record: string; item?: z.ZodType; about?: string }
  /** `{ <key>: { <inner>: item, ... } }`: a single record nested once more, beside the paging fields unless `paging: false`. */
  | { status: number; nested: string; inner: string; item?: z.ZodType; paging?: false; about?: string }
  | { status: 204 }
  /** A success with an empty body that is not 204 (RFC 7009's 200): what it means. */
  | { status: number; empty: string }
  /** A bare JSON body, not the envelope (the OAuth token answers). */
  | { status: number; json: z.ZodType; about?: string }
  /** A redirect: Location says where. */
  | { status: 302; redirect: string }
  | { status: number; media: 'audio/*' | 'text/event-stream' | 'application/json' | 'text/csv'; about: string };

export type Operation = {
  method: Method;
  /** The path as the router registers it, below its list's prefix (/rest/1, /oauth) in Express syntax: `/contacts/:contact_id`. */
  route: string;
  /** Path parameters the document writes out as fixed words: one operation per dial-session action. */
  fixed?: Record<string, string>;
  /** The group the reference shows it under. */
  tag: string;
  summary: string;
  description?: string;
  /** Set on what the contract does not have: why we added it (docs/api.md). */
  extension?: string;
  /** Query parameters that are our extensions, on an operation the contract has: name → what it does. */
  extensionParams?: Record<string, string>;
  /** Answers without a bearer token. */
  public?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON or form body. */
  body?: z.ZodType;
  /** A body that is not JSON or a form: its media type and what it is. */
  rawBody?: { media: string; about: string };
  answer: Answer;
  /**
   * How refusals are answered: the API's error envelope (the default), RFC 6749's `{ error, error_description }`, or
   * (a browser's authorization request) an HTML page when there is nowhere safe to send the browser back to.
   */
  errors?: 'envelope' | 'oauth' | 'page';
};

/** Lists keep their literal types tidy without repeating `satisfies` in each file. */
export const operations = (list: Operation[]) => list;

/** What the audio routes answer (a recording, a greeting). */
export const audio = {
  status: 200,
  media: 'audio/*',
  about: 'The audio; a Range request is answered 206 with the part asked for.',
} as const;

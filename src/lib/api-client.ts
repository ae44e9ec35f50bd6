/*
 * The one way the web app talks to the API: same-origin fetch with the session cookie, the
 * anti-forgery header the server requires, and the error envelope turned into an ApiError.
 */
import type { ErrorEnvelope } from '../../server/contracts/common';

export type DebugCode = ErrorEnvelope['debug_codes'][number];

export class ApiError extends Error {
  readonly status: number;
  readonly debugCodes: DebugCode[];
  readonly retryAfterSeconds: number | null;

  constructor(status: number, debugCodes: DebugCode[], retryAfterSeconds: number | null = null) {
    super(debugCodes.map((d) => d.reason).join(' ') || `The server answered ${status}.`);
    this.name = 'ApiError';
    this.status = status;
    this.debugCodes = debugCodes;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** Debug codes that name a field (400 validation errors). */
  get fieldErrors(): (DebugCode & { field: string })[] {
    return this.debugCodes.filter((d): d is DebugCode & { field: string } => typeof d.field === 'string' && d.field !== 'body');
  }
}

/** Text fit to show people for any thrown value. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return 'The server could not be reached. Check your connection and try again.';
  return fallback;
}

type QueryValue = string | number | boolean | null | undefined;

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Set for requests where a 401 is an expected answer (sign-in, session check). */
  allowUnauthorized?: boolean;
};

let onUnauthorized: (() => void) | null = null;

/** Registers what happens when any request finds the session has ended (set once by the app). */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

async function readErrorCodes(response: Response): Promise<DebugCode[]> {
  try {
    const body = (await response.json()) as Partial<ErrorEnvelope>;
    if (Array.isArray(body.debug_codes) && body.debug_codes.length > 0) return body.debug_codes;
  } catch {
    /* not JSON: fall through */
  }
  const reason =
    response.status >= 500
      ? 'The server had a problem. Please try again in a moment.'
      : response.status === 404
        ? 'Not found.'
        : `The request failed (${response.status}).`;
  return [{ code: response.status * 100, reason }];
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', query, body, signal, allowUnauthorized = false } = options;
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Ringbook-Request': '1' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  const response = await fetch(buildUrl(path, query), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    signal,
  });

  if (!response.ok) {
    const codes = await readErrorCodes(response);
    const retryAfter = Number(response.headers.get('Retry-After'));
    const error = new ApiError(response.status, codes, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
    if (response.status === 401 && !allowUnauthorized) onUnauthorized?.();
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Folders, tags and other listings key items by position ('0', '1', ...) beside paging fields. */
export function itemsByPosition<T>(container: Record<string, unknown> | null | undefined): T[] {
  if (!container) return [];
  return Object.keys(container)
    .filter((k) => /^\d+$/.test(k))
    .sort((a, b) => Number(a) - Number(b))
    .map((k) => container[k] as T);
}

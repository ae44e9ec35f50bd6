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

  hasCode(code: number): boolean {
    return this.debugCodes.some((d) => d.code === code);
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
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Set for requests where a 401 is an expected answer (sign-in, session check). */
  allowUnauthorized?: boolean;
};

/**
 * What happens when a request finds the session has ended: resolves true once the user has signed in again (the
 * request is then sent again), false when there is no way back (the 401 is then thrown).
 */
export type SessionEndedHandler = () => Promise<boolean>;

let onSessionEnded: SessionEndedHandler | null = null;

/** Registers the app's answer to an ended session (set once by the app). */
export function setSessionEndedHandler(handler: SessionEndedHandler | null): void {
  onSessionEnded = handler;
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

async function send(path: string, options: RequestOptions): Promise<Response> {
  const { method = 'GET', query, body, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Ringbook-Request': '1', ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return fetch(buildUrl(path, query), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    signal,
  });
}

async function errorOf(response: Response): Promise<ApiError> {
  const codes = await readErrorCodes(response);
  const retryAfter = Number(response.headers.get('Retry-After'));
  return new ApiError(response.status, codes, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
}

/**
 * Sends a request and answers its parsed body with the response (for headers such as ETag). A 401 on a request
 * that expects a session hands over to the session-ended handler and, once the user has signed in again, sends the
 * same request again: what the user was doing (a save, a page) goes through instead of being lost.
 */
export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<{ data: T; response: Response }> {
  for (;;) {
    const response = await send(path, options);
    if (response.ok) {
      const text = response.status === 204 ? '' : await response.text();
      return { data: (text ? JSON.parse(text) : undefined) as T, response };
    }
    const error = await errorOf(response);
    if (response.status !== 401 || options.allowUnauthorized || !onSessionEnded) throw error;
    if (!(await onSessionEnded())) throw error;
    options.signal?.throwIfAborted();
  }
}

/** A request answered with a file rather than JSON (an export): its response once it is ok, else its ApiError. */
export async function apiFile(path: string, options: RequestOptions = {}): Promise<Response> {
  const response = await send(path, options);
  if (!response.ok) throw await errorOf(response);
  return response;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiFetch<T>(path, options)).data;
}

/** Folders, tags and other listings key items by position ('0', '1', ...) beside paging fields. */
export function itemsByPosition<T>(container: Record<string, unknown> | null | undefined): T[] {
  if (!container) return [];
  return Object.keys(container)
    .filter((k) => /^\d+$/.test(k))
    .sort((a, b) => Number(a) - Number(b))
    .map((k) => container[k] as T);
}

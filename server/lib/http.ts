import { isUtf8 } from 'node:buffer';
import crypto from 'node:crypto';
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler } from 'express';
import qs from 'qs';
import { CommitUncertain, isPostgresConstraintError, isPostgresTimeout, isPostgresUnavailable } from '../db/dialect.js';
import { isSqliteError } from '../db/group-commit.js';
import type { Logger } from './logger.js';
import { DomainError, OAuthError } from './errors.js';
import { ApiError, Codes, fromDomainError, fromOAuthError } from './http-errors.js';

const BODY_LIMIT = '1mb';

/*
 * A body whose bytes are not UTF-8 would be decoded with replacement characters: text changed without anyone being
 * told. It is refused instead.
 */
const utf8Only = (_req: unknown, _res: unknown, bytes: Buffer) => {
  if (!isUtf8(bytes)) throw Object.assign(new Error('The request body is not UTF-8.'), { status: 400, type: 'encoding.invalid' });
};

/** Deeper than any body the API reads; code that walks a body (a hash of it, a copy) may then recurse safely. */
export const MAX_JSON_DEPTH = 32;

/**
 * Refuses a JSON body nested deeper than MAX_JSON_DEPTH before it is parsed: a small body of 50,000 brackets would
 * otherwise reach whatever recursion reads it next. Brackets inside strings do not count.
 */
const shallowJson = (req: unknown, res: unknown, bytes: Buffer) => {
  utf8Only(req, res, bytes);
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > MAX_JSON_DEPTH)
        throw Object.assign(new Error('The request body is nested too deep.'), { status: 400, type: 'nesting.too.deep' });
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
};

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPES = ['application/json', 'application/*+json'];

/** A request that carries bytes (a declared length above 0, or chunked). */
const carriesBody = (req: Request) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * JSON and form bodies, the latter with PHP-style brackets (custom_fields[0][name]=...). qs is told to keep
 * long arrays as arrays (its default turns index 21 and up into object keys). A body of any other type is
 * refused with 415: read as no body at all, it would create a blank contact or "update" one with nothing.
 */
export const parseBodies: RequestHandler[] = [
  express.json({ limit: BODY_LIMIT, strict: false, type: JSON_TYPES, verify: shallowJson }),
  express.text({ limit: BODY_LIMIT, type: FORM, verify: utf8Only }),
  (req, _res, next) => {
    if (typeof req.body === 'string' && req.is(FORM)) {
      req.body = qs.parse(req.body, { arrayLimit: 1000, parameterLimit: 5000, depth: 5 });
    } else if (req.body === undefined && carriesBody(req)) {
      throw new ApiError(415, [
        {
          code: Codes.unsupportedMediaType,
          field: 'body',
          reason: `A request body must be JSON (Content-Type: application/json) or a form (${FORM}), not ${req.get('content-type') ?? 'untyped'}.`,
        },
      ]);
    }
    next();
  },
];

/** Paths work with and without a trailing slash: /rest/1/contacts/ is /rest/1/contacts. */
export const stripTrailingSlash: RequestHandler = (req, _res, next) => {
  if (req.url.length > 1) {
    const q = req.url.indexOf('?');
    const path = q === -1 ? req.url : req.url.slice(0, q);
    if (path.length > 1 && path.endsWith('/')) req.url = path.replace(/\/+$/, '') + (q === -1 ? '' : req.url.slice(q));
  }
  next();
};

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

const ownLogger = Symbol('request logger');
type LoggedRequest = Request & { [ownLogger]?: Logger };

/**
 * A request id per request (the caller's X-Request-Id when it is sane), echoed back and on every log line. The
 * request's own logger (`req.log`, a pino child bound to the id) is made the first time a handler logs, not for every
 * request; the line each request ends with is written only when the level lets it through, with the id beside it.
 */
export function useRequestLogging(app: Express, logger: Logger) {
  // On the app's own request prototype (`app.request`): a getter there costs a request nothing until it is read.
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: LoggedRequest) {
      return (this[ownLogger] ??= logger.child({ req_id: this.id }));
    },
    set(this: LoggedRequest, value: Logger) {
      this[ownLogger] = value;
    },
  });
  const lineEach = logger.isLevelEnabled('info');
  app.use((req, res, next) => {
    const given = req.get('x-request-id');
    const id = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    if (lineEach) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        // The path only: query strings can carry codes and e-mail addresses.
        const path = req.originalUrl.split('?')[0];
        logger.info({ req_id: id, method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
      });
    }
    next();
  });
}

export function errorEnvelope(status: number, debugCodes: ApiError['debugCodes']) {
  return { http_status: status, status: 'error' as const, debug_codes: debugCodes };
}

export const notFoundRoute: RequestHandler = (req) => {
  throw new ApiError(404, [{ code: Codes.routeNotFound, reason: `There is no ${req.method} ${req.path}.` }]);
};

type BodyParserError = Error & { type?: string; status?: number; code?: string };

const GENERIC_REASONS: Record<number, string> = {
  400: 'The request is not one this server can read.',
  404: 'There is no such file.',
  405: 'This method is not allowed here.',
  412: 'A precondition of the request does not hold.',
  416: 'The requested range is not satisfiable.',
};

/** The one error middleware: every refusal and every failure leaves in the contract's error envelope. */
export const renderErrors: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  if (error instanceof OAuthError) {
    const answer = fromOAuthError(error);
    if (!res.headersSent) res.set(answer.headers).status(answer.status).json(answer.body);
    return;
  }
  /*
   * The client went away mid-request (an upload cancelled): there is nobody to answer, and nothing of ours failed. The
   * answer's connection is gone, not only the request: a request whose body was read whole is `destroyed` too, and a
   * store's socket reset under it (PostgreSQL lost, ECONNRESET as well) must still be answered (503), not left hanging.
   */
  if ((!res.socket || res.socket.destroyed) && (error as BodyParserError).code === 'ECONNRESET') {
    (req.log ?? console).info({ err: error }, 'the client went away before its request was read');
    return;
  }
  const apiError = toApiError(error as BodyParserError);
  if (apiError.status >= 500) (req.log ?? console).error({ err: error }, 'request failed');
  if (res.headersSent) return;
  res.set(apiError.headers).status(apiError.status).json(errorEnvelope(apiError.status, apiError.debugCodes));
};

function toApiError(error: BodyParserError): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return fromDomainError(error);
  switch (error.type) {
    case 'entity.parse.failed':
      return new ApiError(400, [{ code: Codes.malformedBody, field: 'body', reason: 'The request body is not valid JSON.' }]);
    case 'entity.too.large':
      return new ApiError(413, [{ code: Codes.payloadTooLarge, reason: `The request body is larger than ${BODY_LIMIT}.` }]);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, [{ code: Codes.unsupportedMediaType, reason: 'The request body must be UTF-8.' }]);
    case 'request.aborted':
      return new ApiError(400, [{ code: Codes.malformedBody, reason: 'The request body was cut short.' }]);
    case 'nesting.too.deep':
      return new ApiError(400, [
        { code: Codes.nestedTooDeep, field: 'body', reason: `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.` },
      ]);
    case 'encoding.invalid':
      return new ApiError(400, [{ code: Codes.malformedBody, field: 'body', reason: 'The request body is not valid UTF-8 text.' }]);
  }
  // Checks run inside the write transaction, so this is a last line of defence, not the way refusals are made.
  if (isSqliteError(error, 'SQLITE_CONSTRAINT') || isPostgresConstraintError(error)) {
    return new ApiError(409, [
      {
        code: Codes.conflict,
        reason: 'The request conflicts with the current data (it may have changed meanwhile). Nothing was applied; reload and try again.',
      },
    ]);
  }
  // Another process held the write lock for longer than a batch waits (see group-commit.ts).
  if (isSqliteError(error, 'SQLITE_BUSY')) {
    return new ApiError(
      503,
      [{ code: Codes.storeBusy, reason: 'The store is busy with other writes. Nothing was applied; try again shortly.' }],
      { 'Retry-After': '1' },
    );
  }
  // PostgreSQL lost or away (db/dialect.ts): the server keeps running and reconnects once it is back.
  if (error instanceof CommitUncertain) {
    return new ApiError(
      503,
      [
        {
          code: Codes.commitUncertain,
          reason: 'The store was lost while this change was being saved: it may or may not have been applied. Check before trying again.',
        },
      ],
      { 'Retry-After': '1' },
    );
  }
  if (isPostgresUnavailable(error)) {
    return new ApiError(
      503,
      [{ code: Codes.storeBusy, reason: 'The store cannot be reached just now. Nothing was applied; try again shortly.' }],
      { 'Retry-After': '1' },
    );
  }
  if (isPostgresTimeout(error)) {
    return new ApiError(
      503,
      [{ code: Codes.storeBusy, reason: 'The store took too long to answer. Nothing was applied; try again shortly.' }],
      { 'Retry-After': '1' },
    );
  }
  // Other libraries' messages can name files on this machine (express.static's ENOENT does): only ours are shown.
  if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
    return new ApiError(error.status, [
      { code: error.status * 100 + 1, reason: GENERIC_REASONS[error.status] ?? `The request was refused (${error.status}).` },
    ]);
  }
  return new ApiError(500, [{ code: Codes.internal, reason: 'Something went wrong on our side. The request was not applied; try again.' }]);
}

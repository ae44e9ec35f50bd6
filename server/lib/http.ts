import crypto from 'node:crypto';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import qs from 'qs';
import { isSqliteError } from '../db/group-commit.js';
import type { Logger } from './logger.js';
import { ApiError, Codes } from './errors.js';

const BODY_LIMIT = '1mb';

/**
 * JSON and form bodies, the latter with PHP-style brackets (custom_fields[0][name]=...). qs is told to keep
 * long arrays as arrays (its default turns index 21 and up into object keys).
 */
export const parseBodies: RequestHandler[] = [
  express.json({ limit: BODY_LIMIT, strict: false, type: ['application/json', 'application/*+json'] }),
  express.text({ limit: BODY_LIMIT, type: 'application/x-www-form-urlencoded' }),
  (req, _res, next) => {
    if (typeof req.body === 'string' && req.is('application/x-www-form-urlencoded')) {
      req.body = qs.parse(req.body, { arrayLimit: 1000, parameterLimit: 5000, depth: 5 });
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

export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of header?.split(';') ?? []) {
    const eq = part.indexOf('=');
    if (eq > 0) cookies[part.slice(0, eq).trim()] = decodeURIComponent(part.slice(eq + 1).trim());
  }
  return cookies;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** A request id per request (the caller's X-Request-Id when it is sane), echoed back and on every log line. */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    const id = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    const started = process.hrtime.bigint();
    req.id = id;
    req.log = logger.child({ req_id: id });
    res.setHeader('X-Request-Id', id);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The path only: query strings can carry codes and e-mail addresses.
      const path = req.originalUrl.split('?')[0];
      req.log.info({ method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}

export function errorEnvelope(status: number, debugCodes: ApiError['debugCodes']) {
  return { http_status: status, status: 'error' as const, debug_codes: debugCodes };
}

export const notFoundRoute: RequestHandler = (req) => {
  throw new ApiError(404, [{ code: Codes.routeNotFound, reason: `There is no ${req.method} ${req.path}.` }]);
};

type BodyParserError = Error & { type?: string; status?: number; code?: string };

/** The one error middleware: every refusal and every failure leaves in the contract's error envelope. */
export const renderErrors: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const apiError = toApiError(error as BodyParserError);
  if (apiError.status >= 500) (req.log ?? console).error({ err: error }, 'request failed');
  if (res.headersSent) return;
  res.set(apiError.headers).status(apiError.status).json(errorEnvelope(apiError.status, apiError.debugCodes));
};

function toApiError(error: BodyParserError): ApiError {
  if (error instanceof ApiError) return error;
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
  }
  // Checks run inside the write transaction, so this is a last line of defence, not the way refusals are made.
  if (isSqliteError(error, 'SQLITE_CONSTRAINT')) {
    return new ApiError(409, [{ code: Codes.conflict, reason: 'The request conflicts with the current data (it may have changed meanwhile). Nothing was applied; reload and try again.' }]);
  }
  // Another process held the write lock for longer than a batch waits (see group-commit.ts).
  if (isSqliteError(error, 'SQLITE_BUSY')) {
    return new ApiError(503, [{ code: Codes.storeBusy, reason: 'The store is busy with other writes. Nothing was applied; try again shortly.' }], { 'Retry-After': '1' });
  }
  if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
    return new ApiError(error.status, [{ code: error.status * 100 + 1, reason: error.message }]);
  }
  return new ApiError(500, [{ code: Codes.internal, reason: 'Something went wrong on our side. The request was not applied; try again.' }]);
}

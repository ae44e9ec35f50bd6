import type { DomainError, ErrorKind, OAuthError, OAuthErrorCode } from './errors.js';

/**
 * How refusals look on the wire. `code` is the contract's debug code: the HTTP status times 100 plus a sub-code. The
 * error middleware (server/lib/http.ts) renders every ApiError in the error envelope.
 */
export type DebugCode = { code: number; reason: string; field?: string };

/**
 * A refusal already in HTTP terms. Only the HTTP layer makes one directly, for what is about the request rather than
 * the domain (a body that is not JSON or too large, the Authorization header, CSRF, a route or a Range that does not
 * exist); everything else is a DomainError, mapped below.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly debugCodes: DebugCode[];
  readonly headers: Record<string, string>;

  constructor(status: number, debugCodes: DebugCode[], headers: Record<string, string> = {}) {
    super(debugCodes.map((d) => d.reason).join(' '));
    this.status = status;
    this.debugCodes = debugCodes;
    this.headers = headers;
  }
}

/** Sub-codes, stable because clients switch on them. Documented in docs/api.md. */
export const Codes = {
  malformedBody: 40001,
  missingField: 40002,
  invalidField: 40003,
  unknownReference: 40004,
  malformedRequest: 40005,
  nestedTooDeep: 40006,
  missingAuthorization: 40101,
  malformedAuthorization: 40102,
  unknownToken: 40103,
  badCredentials: 40104,
  sessionEnded: 40105,
  expiredToken: 40109,
  forbidden: 40301,
  vendorOnly: 40302,
  csrfHeaderMissing: 40303,
  notFound: 40401,
  routeNotFound: 40402,
  methodNotAllowed: 40501,
  requestTimeout: 40801,
  conflict: 40901,
  staleVersion: 40902,
  payloadTooLarge: 41301,
  unsupportedMediaType: 41501,
  rangeNotSatisfiable: 41601,
  expectationFailed: 41701,
  unprocessable: 42201,
  headersTooLarge: 43101,
  rateLimited: 42901,
  internal: 50001,
  storeBusy: 50301,
  commitUncertain: 50302,
} as const;

/** The one table from the domain's kinds of refusal to the contract's status and debug code. */
const BY_KIND: Record<ErrorKind, { status: number; code: number }> = {
  missing: { status: 400, code: Codes.missingField },
  invalid: { status: 400, code: Codes.invalidField },
  unknown_reference: { status: 400, code: Codes.unknownReference },
  unknown_token: { status: 401, code: Codes.unknownToken },
  bad_credentials: { status: 401, code: Codes.badCredentials },
  session_ended: { status: 401, code: Codes.sessionEnded },
  expired_token: { status: 401, code: Codes.expiredToken },
  forbidden: { status: 403, code: Codes.forbidden },
  vendor_only: { status: 403, code: Codes.vendorOnly },
  not_found: { status: 404, code: Codes.notFound },
  conflict: { status: 409, code: Codes.conflict },
  stale: { status: 409, code: Codes.staleVersion },
  unsupported_content: { status: 415, code: Codes.unsupportedMediaType },
  unprocessable: { status: 422, code: Codes.unprocessable },
  rate_limited: { status: 429, code: Codes.rateLimited },
};

/** A domain error as the contract answers it: each problem its own debug code, the wait in Retry-After. */
export function fromDomainError(error: DomainError): ApiError {
  const debugCodes = error.problems.map(({ kind, field, reason }) => ({
    code: BY_KIND[kind].code,
    ...(field !== undefined && { field }),
    reason,
  }));
  const headers: Record<string, string> = error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) };
  return new ApiError(BY_KIND[error.kind].status, debugCodes, headers);
}

/** RFC 6749 5.2: a failed client authentication is 401 (with a challenge), every other refusal 400. */
const OAUTH_STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  access_denied: 400,
};

/** An OAuth refusal as the RFC answers it: status, headers and `{ error, error_description }`. */
export function fromOAuthError(error: OAuthError) {
  const status = OAUTH_STATUS[error.code];
  const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Basic realm="ringbook", charset="UTF-8"' } : {};
  return { status, headers, body: { error: error.code, error_description: error.message } };
}

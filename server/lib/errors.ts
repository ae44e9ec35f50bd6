/**
 * One error type for everything the API refuses. `code` is the contract's debug code: the HTTP status
 * times 100 plus a sub-code. The error middleware renders it in the error envelope.
 */
export type DebugCode = { code: number; reason: string; field?: string };

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

export const badRequest = (issues: DebugCode[]) => new ApiError(400, issues);
export const invalidField = (field: string, reason: string) => badRequest([{ code: Codes.invalidField, field, reason }]);
export const unknownReference = (field: string, reason: string) => badRequest([{ code: Codes.unknownReference, field, reason }]);
export const notFound = (reason: string) => new ApiError(404, [{ code: Codes.notFound, reason }]);
export const forbidden = (reason: string, code: number = Codes.forbidden) => new ApiError(403, [{ code, reason }]);
export const unauthorized = (code: number, reason: string) => new ApiError(401, [{ code, reason }]);
export const conflict = (reason: string) => new ApiError(409, [{ code: Codes.conflict, reason }]);
export const tooManyRequests = (reason: string, retryAfterSeconds: number) =>
  new ApiError(429, [{ code: Codes.rateLimited, reason }], { 'Retry-After': String(retryAfterSeconds) });

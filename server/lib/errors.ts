/**
 * What the domain refuses, in its own words: services, repositories and the auth checks throw a DomainError with a
 * kind, a reason a person can act on and the field it concerns. Nothing here knows HTTP: server/lib/http-errors.ts
 * maps each kind to the contract's status, debug code and headers, in one table, for the error middleware.
 */
export type FieldKind =
  | 'missing' // a required field is absent
  | 'invalid' // a field holds a value the rules refuse
  | 'unknown_reference'; // a field names something that does not exist for the caller (a folder, an owner, a tag)

export type ErrorKind =
  | FieldKind
  | 'unknown_token' // a presented credential (token, signature) is not one we issued, or was revoked
  | 'expired_token'
  | 'bad_credentials' // a wrong username or password
  | 'session_ended' // the web session was signed out or timed out
  | 'forbidden' // the caller sees the thing but may not do this to it
  | 'vendor_only' // only the organisation's vendor account may do this
  | 'not_found' // the thing does not exist for the caller (outside its team counts as not existing)
  | 'conflict' // the data as it stands refuses the change: a name taken, a session already running
  | 'stale' // the change was made against a version that is no longer current
  | 'unsupported_content' // the content is of a kind this server cannot read (a body that is not audio)
  | 'unprocessable' // the content is read but refused as a whole (a key reused for another request, a silent voicemail)
  | 'rate_limited'; // too many attempts or open streams: try again after retryAfterSeconds

export type Problem = { kind: ErrorKind; reason: string; field?: string };
export type FieldProblem = { kind: FieldKind; field: string; reason: string };

type Details = { field?: string; retryAfterSeconds?: number };

export class DomainError extends Error {
  readonly kind: ErrorKind;
  /** One entry per bad field when a request has several (each is reported on its own); otherwise the one problem. */
  readonly problems: readonly Problem[];
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: ErrorKind, reason: string, details: Details = {}, problems?: readonly Problem[]) {
    super(reason);
    this.name = 'DomainError';
    this.kind = kind;
    this.problems = problems ?? [{ kind, reason, ...(details.field !== undefined && { field: details.field }) }];
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

export const invalidField = (field: string, reason: string) => new DomainError('invalid', reason, { field });
export const missingField = (field: string, reason: string) => new DomainError('missing', reason, { field });
export const unknownReference = (field: string, reason: string) => new DomainError('unknown_reference', reason, { field });

/** Every bad field of a request at once, so a form can show them all; the request is refused as invalid. */
export const invalidFields = (problems: readonly FieldProblem[]) =>
  new DomainError('invalid', problems.map((p) => p.reason).join(' '), {}, problems);

export const notFound = (reason: string) => new DomainError('not_found', reason);
export const forbidden = (reason: string) => new DomainError('forbidden', reason);
export const vendorOnly = (reason: string) => new DomainError('vendor_only', reason);
export const conflict = (reason: string) => new DomainError('conflict', reason);
export const stale = (field: string, reason: string) => new DomainError('stale', reason, { field });
export const unsupportedContent = (field: string, reason: string) => new DomainError('unsupported_content', reason, { field });
export const unprocessable = (field: string, reason: string) => new DomainError('unprocessable', reason, { field });
export const rateLimited = (reason: string, retryAfterSeconds: number) => new DomainError('rate_limited', reason, { retryAfterSeconds });

/** RFC 6749's error codes (5.2 and 4.1.2.1): the OAuth endpoints answer them instead of the envelope. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'access_denied';

/** A refusal of the OAuth token endpoints, in the RFC's words: `{ error, error_description }`. */
export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

import { describe, expect, it } from 'vitest';
import { DomainError, type ErrorKind, invalidFields, rateLimited } from './errors.js';
import { fromDomainError } from './http-errors.js';

/* The status and debug code of every kind are the contract's, as docs/api.md lists them: clients switch on them. */
const WIRE: [ErrorKind, number, number][] = [
  ['missing', 400, 40002],
  ['invalid', 400, 40003],
  ['unknown_reference', 400, 40004],
  ['unknown_token', 401, 40103],
  ['bad_credentials', 401, 40104],
  ['session_ended', 401, 40105],
  ['expired_token', 401, 40109],
  ['forbidden', 403, 40301],
  ['vendor_only', 403, 40302],
  ['not_found', 404, 40401],
  ['conflict', 409, 40901],
  ['stale', 409, 40902],
  ['unsupported_content', 415, 41501],
  ['unprocessable', 422, 42201],
  ['rate_limited', 429, 42901],
];

describe('fromDomainError', () => {
  it.each(WIRE)('answers %s with %i and debug code %i', (kind, status, code) => {
    const answer = fromDomainError(new DomainError(kind, 'Why, in a sentence.'));
    expect(answer.status).toBe(status);
    expect(answer.debugCodes).toEqual([{ code, reason: 'Why, in a sentence.' }]);
    expect(answer.headers).toEqual({});
  });

  it('names the field when there is one', () => {
    expect(fromDomainError(new DomainError('stale', 'Read it again.', { field: 'If-Match' })).debugCodes).toEqual([
      { code: 40902, field: 'If-Match', reason: 'Read it again.' },
    ]);
  });

  it('reports every bad field of a request as its own debug code, in the order given', () => {
    const answer = fromDomainError(
      invalidFields([
        { kind: 'missing', field: 'name', reason: 'name is required.' },
        { kind: 'invalid', field: 'rating', reason: 'rating must be 0 to 5.' },
        { kind: 'unknown_reference', field: 'category_id', reason: 'category_id 9 is not a folder of your organisation.' },
      ]),
    );
    expect(answer.status).toBe(400);
    expect(answer.debugCodes).toEqual([
      { code: 40002, field: 'name', reason: 'name is required.' },
      { code: 40003, field: 'rating', reason: 'rating must be 0 to 5.' },
      { code: 40004, field: 'category_id', reason: 'category_id 9 is not a folder of your organisation.' },
    ]);
  });

  it('says when to try again in Retry-After', () => {
    const answer = fromDomainError(rateLimited('Too many sign-in attempts. Try again in 30 seconds.', 30));
    expect(answer.status).toBe(429);
    expect(answer.headers).toEqual({ 'Retry-After': '30' });
  });
});

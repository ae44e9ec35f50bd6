/*
 * The OAuth 2.0 endpoints (server/auth/oauth.router.ts): the authorization-code flow compat-notes lists, with PKCE
 * (S256), the consent screen's two calls and RFC 7009 revocation. The request schemas are the ones the router parses
 * (server/contracts/oauth.ts), where every field is optional so that each refusal comes in RFC 6749's words: the
 * descriptions say which fields a request needs.
 */
import { z } from 'zod';
import { authorizeRequest, type ConsentInfo, consentBody, revokeRequest, type TokenAnswer, tokenRequest } from '../oauth.js';
import { operations } from './operation.js';
import type { Same } from './records.js';

const tag = 'OAuth';
const s = z.string();

/** The router's own schema, with a description on the fields named: the same parsing, written out for readers. */
function described<T extends z.ZodRawShape>(schema: z.ZodObject<T>, said: Partial<Record<keyof T & string, string>>): z.ZodType {
  const shape = Object.fromEntries(Object.entries(said).map(([key, text]) => [key, (schema.shape[key] as z.ZodType).describe(text!)]));
  return schema.extend(shape);
}

const client = {
  client_id: 'The integration’s client id (rbi_…); or in HTTP Basic with the secret.',
  client_secret: 'The integration’s secret (rbs_…), here or in HTTP Basic (client_secret_basic), not both.',
};

const authorizeQuery = described(authorizeRequest, {
  client_id: 'Required: the integration’s client id.',
  redirect_uri: 'Required: exactly as registered, character for character.',
  response_type: 'Required: code.',
  state: 'Handed back unchanged with the code or the error.',
  scope: 'Ignored: there are no scopes; a token acts as its member.',
  code_challenge: 'PKCE: BASE64URL(SHA-256(code_verifier)), 43 characters.',
  code_challenge_method: 'S256 (plain is refused); required with a challenge.',
});

const tokenBody = described(tokenRequest, {
  ...client,
  grant_type: 'Required: authorization_code or refresh_token (either endpoint takes either).',
  code: 'authorization_code: the code (rbc_…), single use, redeemable for 60 s.',
  redirect_uri: 'authorization_code: the one the code was given for.',
  code_verifier: 'authorization_code: required when the request had a challenge, refused when it had none.',
  refresh_token: 'refresh_token: the refresh token (rbr_…); spent by this request, and reusing it revokes the grant.',
});

const revokeBody = described(revokeRequest, {
  ...client,
  token: 'Required: an access or refresh token; a refresh token ends its whole grant.',
  token_type_hint: 'access_token or refresh_token.',
});

export const tokenAnswer = z.object({
  access_token: s.describe('rbo_…, for Authorization: Bearer.'),
  refresh_token: s.describe('rbr_…, single use: the answer to a refresh holds a new one.'),
  token_type: z.literal('bearer'),
  expires_in: z.number().describe('Seconds: a week.'),
});

export const consentItem = z.union([
  z.object({ integration_name: s, organisation_name: s, redirect_uri: s, csrf_token: s.describe('For POST /oauth/consent.') }),
  z.object({ redirect_to: s.describe('The request goes back to the integration with an error.') }),
]);
const decisionItem = z.object({ redirect_to: s.describe('redirect_uri?code=…&state=…, or ?error=access_denied&state=….') });

export const oauthTypeChecks: [Same<z.output<typeof tokenAnswer>, TokenAnswer>, Same<z.output<typeof consentItem>, ConsentInfo>] = [
  true,
  true,
];

/** RFC 6749's refusal (section 5.2), which OAuth clients read instead of the API's envelope. */
export const oauthError = z.object({
  error: z.string().describe('invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, …'),
  error_description: z.string().optional(),
});

const authorize = {
  method: 'get',
  tag,
  public: true,
  query: authorizeQuery,
  answer: {
    status: 302,
    redirect:
      'The web app’s consent screen /authorize?<the same query> (it signs the member in first), or back to redirect_uri with error, error_description and state.',
  },
  errors: 'page',
} as const;

const consent = 'The consent screen; a web session only (a bearer token is refused with 403).';
const granted = { status: 200, json: tokenAnswer, about: 'Tokens, with Cache-Control: no-store.' } as const;
const tokenEndpoint = 'Form or JSON. Client credentials in the body or in HTTP Basic; invalid_client is 401 with WWW-Authenticate: Basic.';

export const oauthOperations = operations([
  { ...authorize, route: '/authorize', summary: 'Authorize an integration' },
  { ...authorize, route: '/index', summary: 'Authorize an integration (the same, by its other name)' },
  {
    method: 'get',
    route: '/consent',
    tag,
    summary: 'What the consent screen shows',
    extension: consent,
    query: authorizeQuery,
    answer: { status: 200, record: 'consent', item: consentItem },
  },
  {
    method: 'post',
    route: '/consent',
    tag,
    summary: 'Allow or deny an integration',
    description: 'Needs the csrf_token the look-up gave and X-Ringbook-Request: 1.',
    extension: consent,
    body: consentBody,
    answer: { status: 200, record: 'consent', item: decisionItem },
  },
  {
    method: 'post',
    route: '/accesstoken',
    tag,
    summary: 'Exchange a code for tokens',
    description: tokenEndpoint,
    public: true,
    body: tokenBody,
    answer: granted,
    errors: 'oauth',
  },
  {
    method: 'post',
    route: '/refreshtoken',
    tag,
    summary: 'Refresh an access token',
    description: `${tokenEndpoint} The refresh token given is spent (rotation).`,
    public: true,
    body: tokenBody,
    answer: granted,
    errors: 'oauth',
  },
  {
    method: 'post',
    route: '/revoke',
    tag,
    summary: 'Revoke a token (RFC 7009)',
    description: tokenEndpoint,
    extension: 'RFC 7009 revocation; the real service has none documented.',
    public: true,
    body: revokeBody,
    answer: { status: 200, empty: 'Revoked, or the token was unknown, already revoked or another client’s: an empty body.' },
    errors: 'oauth',
  },
]);

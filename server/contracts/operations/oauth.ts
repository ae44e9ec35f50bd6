/*
 * The OAuth 2.0 endpoints as ../shared/spec/compat-notes.md documents them: the authorization-code flow real clients
 * call, with PKCE (S256) and revocation (RFC 7009). Described here from the notes; when the server's own OAuth
 * contracts land, these schemas give way to theirs.
 */
import { z } from 'zod';
import { operations } from './operation.js';

const tag = 'OAuth';
const clientId = z.string().describe('The integration’s client id.');
const clientSecret = z.string().describe('The integration’s secret.');
const redirectUri = z.string().describe('Exactly as registered.');

const authorizeQuery = z.object({
  client_id: clientId,
  redirect_uri: redirectUri,
  response_type: z.literal('code'),
  state: z.string().optional().describe('Handed back unchanged with the code.'),
  scope: z.string().optional(),
  code_challenge: z.string().optional().describe('PKCE: BASE64URL(SHA-256(code_verifier)).'),
  code_challenge_method: z.literal('S256').optional(),
});

const codeGrant = z.object({
  grant_type: z.literal('authorization_code'),
  client_id: clientId,
  client_secret: clientSecret.optional().describe('Required unless the client proves a PKCE code_verifier.'),
  code: z.string().describe('Single use, short-lived.'),
  redirect_uri: redirectUri,
  code_verifier: z.string().optional().describe('PKCE.'),
});

const refreshGrant = z.object({
  grant_type: z.literal('refresh_token'),
  client_id: clientId,
  client_secret: clientSecret.optional(),
  refresh_token: z.string().describe('Rotated: the answer holds a new one; reusing an old one revokes the whole family.'),
});

const revokeBody = z.object({
  token: z.string().describe('An access or refresh token.'),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
  client_id: clientId,
  client_secret: clientSecret.optional(),
});

const tokens = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().describe('Seconds.'),
});

/** RFC 6749's refusal (section 5.2), which OAuth clients read instead of the API's envelope. */
export const oauthError = z.object({
  error: z.string().describe('invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, …'),
  error_description: z.string().optional(),
});

const granted = { status: 200, json: tokens } as const;

export const oauthOperations = operations([
  {
    method: 'get',
    route: '/index',
    tag,
    summary: 'Start authorizing an integration (sign-in page)',
    description: 'A browser page: the member signs in, then consents.',
    public: true,
    query: authorizeQuery,
    answer: { status: 302, redirect: 'The sign-in or consent page.' },
    errors: 'oauth',
  },
  {
    method: 'get',
    route: '/authorize',
    tag,
    summary: 'Authorize an integration (consent)',
    description: 'A browser page naming the integration and what it may do; on consent, redirects to redirect_uri with code and state.',
    public: true,
    query: authorizeQuery,
    answer: { status: 302, redirect: 'redirect_uri?code=…&state=…, or ?error=access_denied.' },
    errors: 'oauth',
  },
  {
    method: 'post',
    route: '/accesstoken',
    tag,
    summary: 'Exchange a code for tokens',
    public: true,
    body: codeGrant,
    answer: granted,
    errors: 'oauth',
  },
  {
    method: 'post',
    route: '/refreshtoken',
    tag,
    summary: 'Refresh an access token',
    public: true,
    body: refreshGrant,
    answer: granted,
    errors: 'oauth',
  },
  {
    method: 'post',
    route: '/revoke',
    tag,
    summary: 'Revoke a token (RFC 7009)',
    description: 'Answers 200 whether or not the token was known.',
    extension: 'RFC 7009 revocation; the real service has none documented.',
    public: true,
    body: revokeBody,
    answer: { status: 200, json: z.object({}) },
    errors: 'oauth',
  },
]);

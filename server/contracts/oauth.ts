/*
 * OAuth 2.0 (issue 17): the authorization request, the consent the web app posts, the token endpoints' forms, and the
 * integrations and personal access tokens the settings screens manage. Browser-safe: zod only.
 */
import { z } from 'zod';
import { firstValue, idLike, query, text } from './common.js';

/** What an access token answer says: the real service's lifetime, a week. */
export const ACCESS_TOKEN_SECONDS = 604_800;
/** How long a code given at consent may wait to be redeemed. */
export const CODE_SECONDS = 60;

const param = (max: number) =>
  z.preprocess(
    firstValue,
    z
      .string()
      .max(max, { error: `must be at most ${max} characters` })
      .optional(),
  );

/** GET /oauth/authorize (and /oauth/index), the consent screen's look-up and its decision share these. */
export const authorizeRequest = z.object({
  client_id: param(100),
  redirect_uri: param(2000),
  response_type: param(40),
  state: param(1000),
  scope: param(1000),
  code_challenge: param(200),
  code_challenge_method: param(20),
});
export type AuthorizeRequest = z.output<typeof authorizeRequest>;

export const consentBody = authorizeRequest.extend({
  decision: z.enum(['allow', 'deny'], { error: 'must be allow or deny' }),
  csrf_token: z.string({ error: 'is required' }).max(200),
});
export type ConsentBody = z.input<typeof consentBody>;

/** The token endpoints' form (or JSON): every field optional here, each refusal in RFC 6749's words. */
export const tokenRequest = z.object({
  grant_type: param(100),
  client_id: param(100),
  client_secret: param(200),
  code: param(200),
  redirect_uri: param(2000),
  code_verifier: param(200),
  refresh_token: param(200),
});
export type TokenRequest = z.output<typeof tokenRequest>;

export const revokeRequest = z.object({
  token: param(200),
  token_type_hint: param(40),
  client_id: param(100),
  client_secret: param(200),
});

export type TokenAnswer = { access_token: string; refresh_token: string; token_type: 'bearer'; expires_in: number };

/** What the consent screen shows; `redirect_to` alone when the request is refused back to the integration. */
export type ConsentInfo =
  { integration_name: string; organisation_name: string; redirect_uri: string; csrf_token: string } | { redirect_to: string };

const redirectUri = z
  .string({ error: 'must be text' })
  .trim()
  .max(2000, { error: 'must be at most 2000 characters' })
  .refine(isRedirectUri, { error: 'must be an https:// address without a #fragment (http:// only for localhost)' });

/** An address an integration may be sent back to: https, or http on this machine (a developer's or a test's). */
export function isRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || value.includes('#') || url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

const redirectUris = z
  .array(redirectUri, { error: 'must be a list of addresses' })
  .min(1, { error: 'must hold at least one address' })
  .max(10, { error: 'must hold at most 10 addresses' });

const name = text(100).pipe(z.string().min(1, { error: 'must not be empty' }));

export const createIntegrationBody = z.object({ name, redirect_uris: redirectUris });
export type CreateIntegrationBody = z.input<typeof createIntegrationBody>;

export const updateIntegrationBody = z.object({ name: name.optional(), redirect_uris: redirectUris.optional() });
export type UpdateIntegrationBody = z.input<typeof updateIntegrationBody>;

export const integrationIdParam = z.object({ integration_id: idLike });

export type IntegrationRecord = {
  integration_id: string;
  name: string;
  client_id: string;
  redirect_uris: string[];
  created_at: string;
  /** Only in the answer that made it or rotated it: shown once, stored hashed. */
  client_secret?: string;
};

/** An integration a member allowed and has not disconnected. */
export type ConnectionRecord = { integration_id: string; name: string; connected_at: string; last_used_at: string | null };

export const createTokenBody = z.object({ name });
export type CreateTokenBody = z.input<typeof createTokenBody>;

export const listTokensQuery = z.object({
  /** The vendor's: every member's tokens in the organisation. */
  entire_team: query.flag,
});

export const tokenIdParam = z.object({ token_id: idLike });

export type AccessTokenRecord = {
  token_id: string;
  name: string;
  user_id: string;
  member_name: string;
  created_at: string;
  last_used_at: string | null;
  /** Only in the answer that made it: shown once, stored hashed. */
  token?: string;
};

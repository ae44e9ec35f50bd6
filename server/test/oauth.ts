import crypto from 'node:crypto';
import type { Member } from '../db/schema.js';
import { type Caller, caller, type Reply, TEST_PASSWORD, type TestServer } from './harness.js';

/* What the OAuth tests share: a browser signed in with its cookie, an integration registered, a code from consent. */

export const REDIRECT = 'https://crm.example.com/oauth/callback';

export async function browserOf(server: TestServer, member: Member): Promise<Caller & { cookie: string }> {
  const reply = await server.as().raw('/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ringbook-request': '1' },
    body: JSON.stringify({ username: member.username, password: TEST_PASSWORD }),
  });
  if (reply.status !== 200) throw new Error(`sign-in: ${reply.text}`);
  const cookie = reply.headers
    .getSetCookie()
    .find((c) => c.startsWith('rb_session='))!
    .split(';')[0]!;
  return { ...caller(server.url, { cookie, 'x-ringbook-request': '1' }), cookie };
}

export type Integration = { integration_id: string; client_id: string; client_secret: string; redirect_uris: string[] };

export async function register(vendor: Caller, redirectUris = [REDIRECT], name = 'Acme CRM'): Promise<Integration> {
  const reply = await vendor.post('/rest/1/integrations', { name, redirect_uris: redirectUris });
  if (reply.status !== 201) throw new Error(`register: ${reply.text}`);
  return reply.body.integrations.integrations;
}

export const pkce = () => {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
};

export type AuthorizeParams = Record<string, string>;

export const authorizeQuery = (client: Integration, more: AuthorizeParams = {}) =>
  new URLSearchParams({ client_id: client.client_id, redirect_uri: REDIRECT, response_type: 'code', state: 'xyz', ...more });

/** The consent screen's two requests: the look-up (for its CSRF token), then the decision. Answers the address sent back to. */
export async function consent(browser: Caller, params: URLSearchParams, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  const info = await browser.get(`/oauth/consent?${params}`);
  if (info.status !== 200 || !info.body.consent.csrf_token) throw new Error(`consent info: ${info.text}`);
  const reply = await browser.post('/oauth/consent', { ...Object.fromEntries(params), decision, csrf_token: info.body.consent.csrf_token });
  if (reply.status !== 200) throw new Error(`consent: ${reply.text}`);
  return new URL(reply.body.consent.redirect_to);
}

export async function codeFor(browser: Caller, client: Integration, more: AuthorizeParams = {}): Promise<string> {
  return (await consent(browser, authorizeQuery(client, more))).searchParams.get('code')!;
}

/** A token endpoint request as a form, the way the contract's clients send it. */
export const tokenForm = (
  server: TestServer,
  path: string,
  fields: Record<string, string | undefined>,
  headers: Record<string, string> = {},
) =>
  server.as().raw(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined)).toString(),
  });

export const redeem = (server: TestServer, client: Integration, code: string, more: Record<string, string | undefined> = {}) =>
  tokenForm(server, '/oauth/accesstoken', {
    grant_type: 'authorization_code',
    client_id: client.client_id,
    client_secret: client.client_secret,
    code,
    redirect_uri: REDIRECT,
    ...more,
  });

export const refreshWith = (server: TestServer, client: Integration, refreshToken: string) =>
  tokenForm(server, '/oauth/refreshtoken', {
    grant_type: 'refresh_token',
    client_id: client.client_id,
    client_secret: client.client_secret,
    refresh_token: refreshToken,
  });

export const meWith = (server: TestServer, token: string): Promise<Reply> => server.as(token).get('/rest/1/members/me');

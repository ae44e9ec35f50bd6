import crypto from 'node:crypto';
import type { z } from 'zod';
import { type AuthorizeRequest, CODE_SECONDS, type consentBody, type ConsentInfo } from '../contracts/oauth.js';
import type { Db, Store } from '../db/database.js';
import type { Member } from '../db/schema.js';
import { forbidden, invalidField } from '../lib/errors.js';
import { addSeconds, now } from '../lib/time.js';
import type { AuthContext } from './access.js';
import { type ClientRow, findClientByClientId, insertCode, organisationName } from './oauth.repository.js';
import { randomSecret, sameHash, sha256 } from './tokens.js';

/*
 * The authorization endpoint's half of the flow (RFC 6749 4.1.1-4.1.2): a request is checked before anyone is asked,
 * the member's decision is posted by the consent screen, and the integration gets a code (or access_denied) at its
 * registered address. Until the client and its redirect_uri are known to match exactly, nothing is ever sent to that
 * address: a mismatch is an error page, never a redirect (an open redirector would hand codes to anyone).
 */

export type AuthorizeCheck =
  | { kind: 'error_page'; reason: string }
  | { kind: 'redirect'; to: string }
  | { kind: 'ok'; client: ClientRow; redirectUri: string; challenge: string | null };

export const redirectUrisOf = (client: Pick<ClientRow, 'redirect_uris'>): string[] => JSON.parse(client.redirect_uris) as string[];

/** The address with these parameters added to its own query. */
export function withQuery(address: string, params: Record<string, string | undefined>): string {
  const url = new URL(address);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(key, value);
  return url.toString();
}

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** Checks an authorization request; with the member deciding, also that the integration is its organisation's. */
export async function checkAuthorizeRequest(db: Db, request: AuthorizeRequest, member?: Member): Promise<AuthorizeCheck> {
  const page = (reason: string): AuthorizeCheck => ({ kind: 'error_page', reason });
  if (!request.client_id) return page('The link is missing its client_id: the integration that sent you here made a mistake.');
  const client = await findClientByClientId(db, request.client_id);
  if (!client) return page('No integration is registered with this client_id (it may have been deleted).');
  if (!request.redirect_uri) return page(`The link from ${client.name} is missing its redirect_uri.`);
  if (!redirectUrisOf(client).includes(request.redirect_uri))
    return page(`The redirect_uri is not one registered for ${client.name}: you were not sent back to it.`);
  const back = (error: string, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    to: withQuery(request.redirect_uri!, { error, error_description: description, state: request.state }),
  });
  if (!request.response_type) return back('invalid_request', 'response_type is missing.');
  if (request.response_type !== 'code') return back('unsupported_response_type', 'Only response_type=code is supported.');
  if (request.code_challenge === undefined && request.code_challenge_method !== undefined)
    return back('invalid_request', 'code_challenge_method was given without a code_challenge.');
  if (request.code_challenge !== undefined) {
    if (request.code_challenge_method !== 'S256') return back('invalid_request', 'Only code_challenge_method=S256 is supported.');
    if (!S256_CHALLENGE.test(request.code_challenge))
      return back('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters).');
  }
  if (member && member.org_id !== client.org_id)
    return back('unauthorized_client', 'This integration is registered by another organisation than the member’s.');
  return { kind: 'ok', client, redirectUri: request.redirect_uri, challenge: request.code_challenge ?? null };
}

export type ConsentDeps = { store: Store; secretKey: Buffer };

/** The consent form's token: bound to the web session (its hash) under the server key, so another site cannot make one. */
const csrfTokenOf = (key: Buffer, sessionHash: string) =>
  crypto.createHmac('sha256', key).update(`consent:${sessionHash}`).digest('base64url');

function sessionHashOf(auth: AuthContext): string {
  if (auth.via !== 'session' || auth.credential?.kind !== 'session')
    throw forbidden('An integration is allowed from the signed-in web app only, not with a bearer token.');
  return auth.credential.hash;
}

/** What the consent screen shows, or where to send the browser back when the request is refused. */
export async function consentInfo(ctx: ConsentDeps, auth: AuthContext, request: AuthorizeRequest): Promise<ConsentInfo> {
  const sessionHash = sessionHashOf(auth);
  const check = await checkAuthorizeRequest(ctx.store.db, request, auth.member);
  if (check.kind === 'error_page') throw invalidField('redirect_uri', check.reason);
  if (check.kind === 'redirect') return { redirect_to: check.to };
  return {
    integration_name: check.client.name,
    organisation_name: await organisationName(ctx.store.db, check.client.org_id),
    redirect_uri: check.redirectUri,
    csrf_token: csrfTokenOf(ctx.secretKey, sessionHash),
  };
}

/** The member's decision: a code (60 s, once) or access_denied, at the registered address, with the state given. */
export async function decide(ctx: ConsentDeps, auth: AuthContext, body: z.output<typeof consentBody>): Promise<string> {
  const expected = csrfTokenOf(ctx.secretKey, sessionHashOf(auth));
  if (!sameHash(sha256(body.csrf_token), sha256(expected)))
    throw forbidden('This consent form was not issued to your session. Open the integration’s link again.');
  const check = await checkAuthorizeRequest(ctx.store.db, body, auth.member);
  if (check.kind === 'error_page') throw invalidField('redirect_uri', check.reason);
  if (check.kind === 'redirect') return check.to;
  if (body.decision === 'deny')
    return withQuery(check.redirectUri, { error: 'access_denied', error_description: 'The member denied access.', state: body.state });
  const code = randomSecret('rbc');
  const at = now();
  await ctx.store.write((tx) =>
    insertCode(tx, {
      code_hash: sha256(code),
      client_id: check.client.id,
      member_id: auth.member.id,
      redirect_uri: check.redirectUri,
      code_challenge: check.challenge,
      created_at: at,
      expires_at: addSeconds(at, CODE_SECONDS),
    }),
  );
  return withQuery(check.redirectUri, { code, state: body.state });
}

import crypto from 'node:crypto';
import { ACCESS_TOKEN_SECONDS, type TokenAnswer, type TokenRequest } from '../contracts/oauth.js';
import type { Db, Store } from '../db/database.js';
import { OAuthError } from '../lib/errors.js';
import { addSeconds, now } from '../lib/time.js';
import { findMemberById, insertAccessToken } from './auth.repository.js';
import * as repo from './oauth.repository.js';
import { randomSecret, sameHash, sha256 } from './tokens.js';

/*
 * The token endpoint (RFC 6749 4.1.3, 6) and revocation (RFC 7009). A step that may happen once (a code redeemed, a
 * refresh token rotated) is claimed with a conditional update inside the transaction that issues the new tokens, so two
 * requests at once get one answer with tokens and one invalid_grant. Presenting a used code or refresh token again
 * revokes the grant: every token issued from that code. The revocation is committed first, then refused.
 */

/** The client's credentials from HTTP Basic (RFC 6749 2.3.1, form-encoded parts) or from the body; never both. */
function clientCredentials(body: Pick<TokenRequest, 'client_id' | 'client_secret'>, header: string | undefined) {
  if (!header) return { id: body.client_id, secret: body.client_secret };
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_client', 'The Authorization header must be "Basic base64(client_id:client_secret)".');
  if (body.client_secret !== undefined)
    throw new OAuthError('invalid_request', 'Send the client secret one way only: HTTP Basic or the client_secret field.');
  const part = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  return { id: part(decoded.slice(0, colon)), secret: part(decoded.slice(colon + 1)) };
}

export async function authenticateClient(db: Db, body: TokenRequest, header: string | undefined): Promise<repo.ClientRow> {
  const { id, secret } = clientCredentials(body, header);
  if (!id || !secret) throw new OAuthError('invalid_client', 'The client is not authenticated: send client_id and client_secret.');
  const client = await repo.findClientByClientId(db, id);
  if (!client || !sameHash(sha256(secret), client.secret_hash))
    throw new OAuthError('invalid_client', 'Unknown client_id or wrong client_secret.');
  return client;
}

export type TokenDeps = { store: Store };

export async function exchange(ctx: TokenDeps, body: TokenRequest, header: string | undefined): Promise<TokenAnswer> {
  if (!body.grant_type) throw new OAuthError('invalid_request', 'grant_type is missing.');
  if (body.grant_type !== 'authorization_code' && body.grant_type !== 'refresh_token')
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  const client = await authenticateClient(ctx.store.db, body, header);
  return body.grant_type === 'authorization_code' ? redeemCode(ctx, client, body) : refresh(ctx, client, body);
}

async function issueTokens(tx: Db, grantId: number, memberId: number, at: string): Promise<TokenAnswer> {
  const access = randomSecret('rbo');
  const refreshToken = randomSecret('rbr');
  await insertAccessToken(tx, memberId, sha256(access), 'oauth', at, { grantId, expiresAt: addSeconds(at, ACCESS_TOKEN_SECONDS) });
  await repo.insertRefreshToken(tx, grantId, sha256(refreshToken), at);
  return { access_token: access, refresh_token: refreshToken, token_type: 'bearer', expires_in: ACCESS_TOKEN_SECONDS };
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** Why a code is refused, or undefined when it may be redeemed by this client with this request. */
function codeProblem(code: repo.CodeRow | undefined, client: repo.ClientRow, body: TokenRequest, at: string): string | undefined {
  if (!code || code.client_id !== client.id) return 'The code is not one given to this client.';
  if (code.expires_at <= at) return 'The code has expired: codes must be redeemed within a minute.';
  if (code.redirect_uri !== body.redirect_uri) return 'redirect_uri is not the one the code was given for.';
  if (code.code_challenge === null)
    return body.code_verifier === undefined ? undefined : 'code_verifier was sent, but the authorization request had no code_challenge.';
  if (body.code_verifier === undefined) return 'code_verifier is required: the authorization request had a code_challenge.';
  if (!VERIFIER.test(body.code_verifier)) return 'code_verifier must be 43 to 128 letters, digits or - . _ ~.';
  const derived = crypto.createHash('sha256').update(body.code_verifier).digest('base64url');
  return sameHash(sha256(derived), sha256(code.code_challenge)) ? undefined : 'code_verifier does not match the code_challenge.';
}

type Outcome = { tokens: TokenAnswer } | { refused: string };

async function redeemCode(ctx: TokenDeps, client: repo.ClientRow, body: TokenRequest): Promise<TokenAnswer> {
  if (!body.code) throw new OAuthError('invalid_request', 'code is missing.');
  if (!body.redirect_uri) throw new OAuthError('invalid_request', 'redirect_uri is missing.');
  const outcome = await ctx.store.write(async (tx): Promise<Outcome> => {
    const at = now();
    const code = await repo.findCode(tx, sha256(body.code!));
    const usedAgain = async () => {
      await repo.revokeGrants(tx, await repo.grantIdsOfCode(tx, code!.id), at);
      return { refused: 'The code was used already: the tokens issued from it are revoked.' };
    };
    if (code?.client_id === client.id && code.used_at) return usedAgain();
    const problem = codeProblem(code, client, body, at);
    if (problem) return { refused: problem };
    if (!(await repo.claimCode(tx, code!.id, at))) return usedAgain();
    if (!(await findMemberById(tx, code!.member_id))) return { refused: 'The member who allowed this integration was removed.' };
    const grantId = await repo.insertGrant(tx, { client_id: client.id, member_id: code!.member_id, code_id: code!.id, created_at: at });
    return { tokens: await issueTokens(tx, grantId, code!.member_id, at) };
  });
  if ('refused' in outcome) throw new OAuthError('invalid_grant', outcome.refused);
  return outcome.tokens;
}

async function refresh(ctx: TokenDeps, client: repo.ClientRow, body: TokenRequest): Promise<TokenAnswer> {
  if (!body.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is missing.');
  const outcome = await ctx.store.write(async (tx): Promise<Outcome> => {
    const at = now();
    const row = await repo.findRefreshToken(tx, sha256(body.refresh_token!));
    if (!row || row.client_id !== client.id) return { refused: 'The refresh token is not one issued to this client.' };
    if (row.revoked_at || row.grant_revoked_at) return { refused: 'The refresh token was revoked.' };
    const usedAgain = async () => {
      await repo.revokeGrants(tx, [row.grant_id], at);
      return { refused: 'The refresh token was used already: every token of its grant is revoked. Ask the member to connect again.' };
    };
    if (row.used_at || !(await repo.claimRefreshToken(tx, row.id, at))) return usedAgain();
    if (!(await findMemberById(tx, row.member_id))) return { refused: 'The member who allowed this integration was removed.' };
    return { tokens: await issueTokens(tx, row.grant_id, row.member_id, at) };
  });
  if ('refused' in outcome) throw new OAuthError('invalid_grant', outcome.refused);
  return outcome.tokens;
}

/**
 * RFC 7009: the client revokes one of its tokens. An access token ends alone; a refresh token ends its whole grant.
 * A token that is unknown, already revoked or another client's is answered the same way (nothing to tell).
 */
export async function revoke(ctx: TokenDeps, body: TokenRequest & { token?: string }, header: string | undefined): Promise<void> {
  const client = await authenticateClient(ctx.store.db, body, header);
  if (!body.token) throw new OAuthError('invalid_request', 'token is missing.');
  const hash = sha256(body.token);
  await ctx.store.write(async (tx) => {
    const at = now();
    const refreshRow = await repo.findRefreshToken(tx, hash);
    if (refreshRow?.client_id === client.id) return repo.revokeGrants(tx, [refreshRow.grant_id], at);
    const access = await repo.findOAuthAccessToken(tx, hash);
    if (access?.client_id === client.id) await repo.revokeAccessToken(tx, access.id, at);
  });
}

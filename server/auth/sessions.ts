import crypto from 'node:crypto';
import type { Request, Response } from 'express';
import type { Config } from '../config.js';
import type { Store } from '../db/database.js';
import { addSeconds, now } from '../lib/time.js';
import { deleteSession, findSession, insertSession, touchSession } from './auth.repository.js';
import { sha256 } from './tokens.js';

/** What a browser session needs: the store, the session policy, and whether cookies must be Secure (the public address). */
export type SessionDeps = { store: Store; config: Pick<Config, 'publicUrl' | 'session'> };

export const SESSION_COOKIE = 'rb_session';

/** A session id is 32 random bytes in base64url: 43 characters. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * The session ids a request's cookies carry, in the order sent. Cookies of other apps on the same host may be anything
 * (not even valid percent-encoding); a value that is not one of our ids is ignored as if it were absent. More than one
 * `rb_session` can arrive when another app on the host set one too (see authenticate).
 */
export function sessionIdsOf(req: Request): string[] {
  const header = req.get('cookie');
  if (!header) return [];
  const ids: string[] = [];
  for (const pair of header.split(';')) {
    const [name, value] = pair.trim().split('=', 2);
    if (name === SESSION_COOKIE && value && SESSION_ID.test(value) && ids.length < MAX_SESSION_COOKIES) ids.push(value);
  }
  return ids;
}

const MAX_SESSION_COOKIES = 4;

export type SessionPolicy = { idleSeconds: number; maxSeconds: number };

/* Writing last_seen_at on every request would make every read a write; a minute of slack is enough for idle time-outs. */
const TOUCH_AFTER_SECONDS = 60;

/** Starts a session: a fresh 256-bit id (the cookie value); only its hash is stored. */
export async function startSession(store: Store, memberId: number, policy: SessionPolicy): Promise<string> {
  const id = crypto.randomBytes(32).toString('base64url');
  const at = now();
  await store.write((tx) =>
    insertSession(tx, {
      id_hash: sha256(id),
      member_id: memberId,
      created_at: at,
      last_seen_at: at,
      expires_at: addSeconds(at, policy.maxSeconds),
    }),
  );
  return id;
}

/** The session's member, or undefined when the session is unknown, idle too long or past its absolute end. */
export async function resumeSession(store: Store, id: string, policy: SessionPolicy): Promise<number | undefined> {
  const idHash = sha256(id);
  const row = await findSession(store.db, idHash);
  if (!row) return undefined;
  const at = now();
  if (row.expires_at <= at || addSeconds(row.last_seen_at, policy.idleSeconds) <= at) {
    await endSession(store, id);
    return undefined;
  }
  if (addSeconds(row.last_seen_at, TOUCH_AFTER_SECONDS) <= at) await store.write((tx) => touchSession(tx, idHash, at));
  return row.member_id;
}

export async function endSession(store: Store, id: string): Promise<void> {
  await store.write((tx) => deleteSession(tx, sha256(id)));
}

/** An HttpOnly, SameSite=Strict cookie (Secure when the app is served over https). */
export function setCookie(ctx: Pick<SessionDeps, 'config'>, res: Response, name: string, value: string, maxAgeSeconds: number, path = '/') {
  const attributes = [`${name}=${value}`, `Path=${path}`, 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (ctx.config.publicUrl.startsWith('https:')) attributes.push('Secure');
  res.append('Set-Cookie', attributes.join('; '));
}

/** Signs a browser in as a member: a new session id every time; a session the browser already had is ended. */
export async function startBrowserSession(ctx: SessionDeps, req: Request, res: Response, memberId: number): Promise<void> {
  for (const previous of sessionIdsOf(req)) await endSession(ctx.store, previous);
  setCookie(ctx, res, SESSION_COOKIE, await startSession(ctx.store, memberId, ctx.config.session), ctx.config.session.maxSeconds);
}

import crypto from 'node:crypto';
import type { AuthContext } from '../../auth/access.js';
import { sha256 } from '../../auth/tokens.js';
import { checkCallbackUrl } from '../../callbacks/address-guard.js';
import type { Config } from '../../config.js';
import { createContactBody } from '../../contracts/contacts.js';
import { type CreateDialSessionBody, existingContactEntry } from '../../contracts/dial-sessions.js';
import type { Db, Store } from '../../db/database.js';
import type { DialSession } from '../../db/schema.js';
import { DomainError, type FieldProblem, invalidFields, unprocessable } from '../../lib/errors.js';
import { addSeconds, now } from '../../lib/time.js';
import { parse, withoutNulls } from '../../lib/validate.js';
import { createContactsIn } from '../contacts/contacts-many.service.js';
import { findVisibleContacts } from '../contacts/contacts.repository.js';
import { settingsOf } from '../dial-settings/dial-settings.repository.js';
import * as repo from './dial-sessions.repository.js';
import { filteredContactIds } from './session-contacts.js';
import { forecast, storedFacts } from './session-forecast.js';
import { chosenSets } from './session-library.js';
import { lockKeys } from '../../db/locks.js';

export type DialSessionsDeps = { store: Store; config: Pick<Config, 'publicUrl' | 'callbackAllowedHosts'> };

export type EntryError = { index: number; reason: string };
export type Created = { session: DialSession; redirectUrl: string; errors: EntryError[] | null; skipped: number };

/** Identical bodies from one member within this long are one request retried (when no Idempotency-Key is sent). */
const REPEAT_WINDOW_SECONDS = 60;
const SSO_KEY_SECONDS = 10 * 60;

type Entry = { index: number; contactId: number } | { index: number; body: ReturnType<typeof createContactBody.parse> };

/**
 * Creates a dial session from the contacts given (created or updated in the caller's store under the contract's
 * duplicate rules, or named by contact_user_id), answering the session and a redirect URL with a fresh one-time
 * sign-in key. A retried request answers the session it made the first time.
 */
export async function createDialSession(
  ctx: DialSessionsDeps,
  auth: AuthContext,
  body: CreateDialSessionBody,
  raw: unknown,
  idempotencyKey?: string,
): Promise<Created> {
  await assertCallbacks(ctx, body);
  const hash = requestHash(auth.member.id, raw);
  const { entries, errors } = readEntries(body.contacts ?? []);
  const [settings, sets] = await Promise.all([settingsOf(ctx.store.db, auth.member.id), chosenSets(ctx.store.db, auth.scope.orgId, body)]);
  const key = crypto.randomBytes(32).toString('base64url');
  const session = await ctx.store.write(async (tx) => {
    const at = now();
    // The look for a repeat and the insert hold per member and key (or request): on PostgreSQL two of one request at
    // once would otherwise both find none and both create a session (docs/store.md).
    await lockKeys(tx, 'dial session request', [`${auth.member.id}:${idempotencyKey ? `k:${idempotencyKey}` : `h:${hash}`}`]);
    const repeat = idempotencyKey
      ? await repo.findByIdempotencyKey(tx, auth.member.id, idempotencyKey)
      : await repo.findRepeat(tx, auth.member.id, hash, addSeconds(at, -REPEAT_WINDOW_SECONDS));
    if (repeat && repeat.request_hash !== hash) {
      throw unprocessable('Idempotency-Key', 'This Idempotency-Key was used for a different request. Send a new key for a new session.');
    }
    const made =
      repeat ??
      (await insertSession(tx, auth, body, { entries, errors, hash, idempotencyKey, settingsSendSkips: settings.send_skips, sets, at }));
    await repo.insertSsoKey(tx, {
      key_hash: sha256(key),
      member_id: auth.member.id,
      session_id: made.id,
      expires_at: addSeconds(at, SSO_KEY_SECONDS),
      used_at: null,
    });
    return made;
  });
  const outlook = forecast(await storedFacts(ctx.store.db, auth, await repo.queueContactIds(ctx.store.db, session.id)), settings);
  return {
    session,
    redirectUrl: `${ctx.config.publicUrl}/sso/dialer?key=${key}`,
    errors: session.creation_errors ? (JSON.parse(session.creation_errors) as EntryError[]) : null,
    skipped: outlook.skipped_count,
  };
}

type Prepared = {
  entries: Entry[];
  errors: EntryError[];
  hash: string;
  idempotencyKey: string | undefined;
  settingsSendSkips: boolean;
  sets: { dialing: number; answer: number };
  at: string;
};

async function insertSession(tx: Db, auth: AuthContext, body: CreateDialSessionBody, p: Prepared): Promise<DialSession> {
  const errors = [...p.errors];
  const contactIds = await resolveEntries(tx, auth, p.entries, errors);
  if (body.contact_filter) contactIds.push(...(await filteredContactIds(tx, auth, body.contact_filter, contactIds.length)));
  if (!contactIds.length) {
    throw invalidFields(
      errors.length
        ? errors.map((e) => ({ kind: 'invalid', field: `contacts.${e.index}`, reason: e.reason }))
        : [{ kind: 'invalid', field: 'contact_filter', reason: 'No contact of yours matches the filter, so there is nobody to dial.' }],
    );
  }
  errors.sort((a, b) => a.index - b.index);
  const session = await repo.insertSession(tx, {
    org_id: auth.scope.orgId,
    member_id: auth.member.id,
    status: 'ready',
    phase: 'idle',
    position: -1,
    contact_count: contactIds.length,
    preview_mode: body.preview_mode ? 1 : 0,
    send_skips: (body.send_skips ?? p.settingsSendSkips) ? 1 : 0,
    dialing_set_id: p.sets.dialing,
    answer_set_id: p.sets.answer,
    preset_id: body.preset_id ?? null,
    custom_data: body.custom_data ? JSON.stringify(body.custom_data) : null,
    idempotency_key: p.idempotencyKey ?? null,
    creation_errors: errors.length ? JSON.stringify(errors) : null,
    request_hash: p.hash,
    created_at: p.at,
  });
  await repo.insertCallbacks(
    tx,
    session.id,
    (body.callbacks ?? []).map((c) => ({ type: c.callback_type, url: c.callback })),
  );
  await repo.insertQueue(
    tx,
    contactIds.map((contactId, position) => ({ session_id: session.id, position, contact_id: contactId, status: 'pending' })),
  );
  return session;
}

/** Each entry on its own: a contact to create or update, or (extension) one named by contact_user_id. */
function readEntries(raw: unknown[]): { entries: Entry[]; errors: EntryError[] } {
  const entries: Entry[] = [];
  const errors: EntryError[] = [];
  raw.forEach((value, index) => {
    try {
      const existing = existingContactEntry.safeParse(withoutNulls(value));
      entries.push(
        existing.success ? { index, contactId: existing.data.contact_user_id } : { index, body: parse(createContactBody, value) },
      );
    } catch (error) {
      errors.push({ index, reason: reasonsOf(error) });
    }
  });
  return { entries, errors };
}

const reasonsOf = (error: unknown) =>
  error instanceof DomainError ? error.problems.map((p) => p.reason).join(' ') : 'This contact could not be accepted.';

/** Contact ids in the order given; an entry that cannot be accepted is reported and left out, the others go ahead. */
async function resolveEntries(tx: Db, auth: AuthContext, entries: Entry[], errors: EntryError[]): Promise<number[]> {
  const named = entries.flatMap((e) => ('contactId' in e ? [e.contactId] : []));
  const visible = new Set((await findVisibleContacts(tx, auth.scope, named)).map((c) => c.id));
  // The contacts to create or update, each refused on its own (createContactsIn): in the order given, as before.
  const toMake = entries.flatMap((e) => ('body' in e ? [e.body] : []));
  const made = (await createContactsIn(tx, auth, toMake)).values();
  const ids: number[] = [];
  for (const entry of entries) {
    if ('contactId' in entry) {
      if (visible.has(entry.contactId)) ids.push(entry.contactId);
      else errors.push({ index: entry.index, reason: `There is no contact ${entry.contactId}.` });
      continue;
    }
    const outcome = made.next().value!;
    if ('id' in outcome) ids.push(outcome.id);
    else errors.push({ index: entry.index, reason: reasonsOf(outcome.refused) });
  }
  return ids;
}

async function assertCallbacks(ctx: DialSessionsDeps, body: CreateDialSessionBody) {
  const problems: FieldProblem[] = [];
  await Promise.all(
    (body.callbacks ?? []).map(async (c, i) => {
      const check = await checkCallbackUrl(c.callback, { allowedHosts: ctx.config.callbackAllowedHosts });
      if (!check.ok)
        problems.push({ kind: 'invalid', field: `callbacks.${i}.callback`, reason: `callbacks.${i}.callback ${check.reason}.` });
    }),
  );
  if (problems.length) throw invalidFields(problems.sort((a, b) => a.field.localeCompare(b.field)));
}

/** The same member and the same body (keys in any order) hash the same. */
function requestHash(memberId: number, raw: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return sha256(`${memberId}:${JSON.stringify(canonical(raw ?? null))}`);
}

import type { AuthContext } from '../../auth/access.js';
import { type CreateContactBody, phoneDigits } from '../../contracts/contacts.js';
import { type Db, withSavepoint } from '../../db/database.js';
import type { Contact } from '../../db/schema.js';
import { DomainError } from '../../lib/errors.js';
import { createContactIn, createContactsBatch, duplicateKeysOf, findDuplicate } from './contacts.service.js';

/** What became of one body: its contact (created, updated or skipped as a duplicate), or why it was refused. */
export type ManyOutcome = { id: number } | { refused: DomainError };

/**
 * Creates contacts from `bodies` as `createContactIn` creates each, in order, and each refused on its own (nothing of
 * a refused one is left, the others go ahead): a dial session's contacts. Each contact had been a savepoint and some
 * ten statements; a session of 500 new contacts was 5,000 statements, on PostgreSQL each in a round trip or close to
 * one. Now the bodies that make a new contact of the caller's are gathered and written together (`createContactsBatch`,
 * a statement per table): a body that names an owner, or whose duplicate check finds a contact, goes its own way as
 * before, and before a body whose check could find one of those gathered (an e-mail address or a number of theirs) the
 * gathered ones are written, so the check sees them as it would have. If the batch is refused (a folder or a custom
 * field that is not there), it is undone and its bodies go one by one, so only the one at fault is refused.
 */
export async function createContactsIn(tx: Db, auth: AuthContext, bodies: CreateContactBody[]): Promise<ManyOutcome[]> {
  const outcomes: ManyOutcome[] = new Array(bodies.length);
  let gathered: number[] = [];
  const gatheredKeys = new Set<string>();

  const alone = async (i: number, found?: Contact) => {
    try {
      outcomes[i] = { id: (await withSavepoint(tx, (inner) => createContactIn(inner, auth, bodies[i]!, found))).id };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      outcomes[i] = { refused: error };
    }
  };
  const write = async () => {
    const batch = gathered;
    gathered = [];
    gatheredKeys.clear();
    if (!batch.length) return;
    try {
      // Their duplicates were looked for (and their keys locked) as they were gathered.
      const made = await withSavepoint(tx, (inner) =>
        createContactsBatch(
          inner,
          auth,
          batch.map((i) => ({ ...bodies[i]!, allow_duplicates: true })),
        ),
      );
      batch.forEach((i, k) => (outcomes[i] = { id: made[k]!.id }));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      for (const i of batch) await alone(i);
    }
  };

  for (let i = 0; i < bodies.length; i++) {
    const body = bodies[i]!;
    if (body.owner_id !== undefined || body.owner_username) {
      await write();
      await alone(i);
      continue;
    }
    if (checkedKeys(body).some((key) => gatheredKeys.has(key))) await write();
    const duplicate = body.allow_duplicates ? undefined : await findDuplicate(tx, auth.member.org_id, auth.member.id, body);
    if (duplicate) {
      // Updated or skipped as its duplicate's rules say (or refused: a duplicate outside the caller's team).
      await alone(i, duplicate);
      continue;
    }
    gathered.push(i);
    for (const key of ownKeys(body)) gatheredKeys.add(key);
  }
  await write();
  return outcomes;
}

/** What a body's duplicate check looks for (`duplicateKeysOf`), as keys comparable with `ownKeys`. */
function checkedKeys(body: CreateContactBody): string[] {
  if (body.allow_duplicates) return [];
  const { email, phone } = duplicateKeysOf(body);
  return [...(email ? [`e:${email}`] : []), ...(phone ? [`p:${phone}`] : [])];
}

/** Every address and number the contact a body makes will have, which a later check could find. */
function ownKeys(body: CreateContactBody): string[] {
  return [
    ...(body.email ? [`e:${body.email.toLowerCase()}`] : []),
    ...[body.phone, ...(body.additional_phone ?? []).map((p) => p.number)].flatMap((p) => (p ? [`p:${phoneDigits(p)}`] : [])),
  ];
}

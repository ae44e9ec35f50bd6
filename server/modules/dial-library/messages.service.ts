import { type AuthContext, isVendor, scopeIncludesMember } from '../../auth/access.js';
import type { ContentRecord, MessageChanges, MessageInput } from '../../contracts/content.js';
import type { Db, Store } from '../../db/database.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import * as repo from './dial-library.repository.js';

export type MessagesDeps = { store: Store };

/*
 * The message library's e-mails. Who may change one: the vendor any of its organisation's; a manager its own and its
 * team's; a member its own. The system's messages are read-only to everyone, and an organisation's message without a
 * writer (made before messages had one, or whose member was removed) is the vendor's to change. Everyone in the
 * organisation lists and uses them all; another organisation's is 404.
 */
function mayChange(auth: AuthContext, row: Pick<repo.MessageRow, 'org_id' | 'member_id'>): boolean {
  if (row.org_id === null) return false;
  if (isVendor(auth.member)) return true;
  return row.member_id !== null && scopeIncludesMember(auth.scope, { id: row.member_id, org_id: row.org_id });
}

/** Member-made messages are e-mails (the contract's 'onetouch' content): the kind the disposition settings send. */
const EMAIL_TYPE = 'onetouch';

export function toContentRecord(auth: AuthContext, m: repo.MessageRow): ContentRecord {
  return {
    cm_content_id: String(m.id),
    display_name: m.display_name,
    description: m.description,
    message_id: String(m.id),
    display_order: String(m.display_order),
    system_message: m.org_id === null ? 1 : 0,
    type: m.type,
    subject: m.subject,
    body: m.body,
    member_id: m.member_id === null ? null : String(m.member_id),
    can_edit: mayChange(auth, m) ? '1' : '0',
  };
}

export async function findContentRecord(ctx: MessagesDeps, auth: AuthContext, id: number): Promise<ContentRecord> {
  const row = await repo.findMessage(ctx.store.db, auth.member.org_id, id);
  if (!row) throw notFound(`There is no message ${id}.`);
  return toContentRecord(auth, row);
}

export async function createMessage(ctx: MessagesDeps, auth: AuthContext, input: MessageInput): Promise<number> {
  const row = await ctx.store.write((tx) =>
    repo.insertMessage(tx, {
      org_id: auth.member.org_id,
      member_id: auth.member.id,
      type: EMAIL_TYPE,
      display_order: 0,
      created_at: now(),
      ...input,
    }),
  );
  return row.id;
}

/** The message as the caller may change it; its writer never changes, so the check holds for the write that follows. */
async function changeable(tx: Db, auth: AuthContext, id: number) {
  const row = await repo.findMessage(tx, auth.member.org_id, id);
  if (!row) throw notFound(`There is no message ${id}.`);
  if (!mayChange(auth, row)) {
    throw forbidden(
      row.org_id === null
        ? 'System messages are read-only: make a message of your own (POST /rest/1/content) to change its wording.'
        : row.member_id === null
          ? "Only the organisation's vendor account can change this message."
          : "You can change your own messages (and a manager its team's), not this one.",
    );
  }
}

export async function updateMessage(ctx: MessagesDeps, auth: AuthContext, id: number, changes: MessageChanges): Promise<void> {
  await ctx.store.write(async (tx) => {
    await changeable(tx, auth, id);
    if (!Object.keys(changes).length) return;
    if (!(await repo.updateMessage(tx, auth.member.org_id, id, changes))) throw notFound(`There is no message ${id}.`);
  });
}

/**
 * Settings that name a deleted message keep its id: a call dispositioned with one sends nothing (the settings screen
 * shows the choice as gone), and e-mails already queued were merged when queued, so they still go out.
 */
export async function deleteMessage(ctx: MessagesDeps, auth: AuthContext, id: number): Promise<void> {
  await ctx.store.write(async (tx) => {
    await changeable(tx, auth, id);
    if (!(await repo.deleteMessage(tx, auth.member.org_id, id))) throw notFound(`There is no message ${id}.`);
  });
}

import { type AuthContext, scopeFor, scopeIncludesMember } from '../../auth/access.js';
import { findMemberById } from '../../auth/auth.repository.js';
import type { BulkAction, BulkJobRecord, CreateBulkJobBody } from '../../contracts/bulk-jobs.js';
import { type ContactFilter, listQueryOf } from '../../contracts/contacts.js';
import type { Db, Store } from '../../db/database.js';
import type { BulkJob } from '../../db/schema.js';
import { notFound, unknownReference } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import { countOfList } from '../contacts/contact-list.repository.js';
import { findVisibleContacts } from '../contacts/contacts.repository.js';
import { memberInScope, scopeOfOwner } from '../contacts/contacts.service.js';
import { findFolder } from '../folders/folders.repository.js';
import { ensureTag, findTag } from '../tags/tags.repository.js';
import { findJob, insertJob } from './bulk-jobs.repository.js';

/** The store, and this process's bulk job runner, told when a job is queued. */
export type BulkJobsDeps = { store: Store; jobs: { nudge(): void } };

/** What a job does, with the values it needs, checked when it is made. */
export type JobParams = { tag?: { id: number; title: string }; folderId?: number | null; memberId?: number };
export type JobSelection = { ids: number[] } | { filter: ContactFilter };

/**
 * Queues a bulk change: on the contacts named (those the caller may see), or on every contact a filter matches at
 * the time each chunk runs. Answers the job at once; a runner does the work (job-runner.ts).
 */
export async function createJob(ctx: BulkJobsDeps, auth: AuthContext, body: CreateBulkJobBody): Promise<BulkJobRecord> {
  const job = await ctx.store.write(async (tx) => {
    const params = await paramsOf(tx, auth, body);
    const selection: JobSelection = body.filter ? { filter: body.filter } : { ids: [...new Set(body.contact_user_ids)] };
    const total =
      'filter' in selection
        ? await countOfList(
            tx,
            await scopeOfOwner(tx, auth, selection.filter.owner_id, 'filter.owner_id'),
            listQueryOf(selection.filter, 1),
          )
        : (await findVisibleContacts(tx, auth.scope, selection.ids)).length;
    return insertJob(tx, {
      org_id: auth.scope.orgId,
      member_id: auth.member.id,
      action: body.action,
      params: JSON.stringify(params),
      selection: JSON.stringify(selection),
      status: 'queued',
      total,
      created_at: now(),
    });
  });
  ctx.jobs.nudge();
  return recordOf(job);
}

async function paramsOf(tx: Db, auth: AuthContext, body: CreateBulkJobBody): Promise<JobParams> {
  switch (body.action) {
    case 'add_tag':
    case 'remove_tag': {
      const tag =
        body.tag_id !== undefined
          ? await findTag(tx, auth.scope.orgId, body.tag_id)
          : await ensureTag(tx, auth.scope.orgId, body.tag!, now());
      if (!tag) throw unknownReference('tag_id', `tag_id ${body.tag_id} is not a tag of your organisation.`);
      return { tag: { id: tag.id, title: tag.title } };
    }
    case 'move':
      if (body.folder_id && !(await findFolder(tx, auth.scope.orgId, body.folder_id))) {
        throw unknownReference('folder_id', `folder_id ${body.folder_id} is not a folder of your organisation.`);
      }
      return { folderId: body.folder_id ?? null };
    case 'transfer':
      return { memberId: (await memberInScope(tx, auth.scope, 'member_id', { id: body.member_id! })).id };
    case 'trash':
      return {};
  }
}

export async function jobOf(ctx: Pick<BulkJobsDeps, 'store'>, auth: AuthContext, id: number): Promise<BulkJobRecord> {
  const job = await findJob(ctx.store.db, id);
  if (!job || job.member_id !== auth.member.id) throw notFound(`There is no bulk job ${id}.`);
  return recordOf(job);
}

export function recordOf(job: BulkJob): BulkJobRecord {
  return {
    bulk_job_id: String(job.id),
    action: job.action as BulkAction,
    status: job.status,
    total: job.total,
    processed: job.processed,
    changed: job.changed,
    error: job.error,
    created_at: job.created_at,
    finished_at: job.finished_at,
  };
}

/**
 * The job's values as they hold now for its member as it is now, or why the job cannot go on: what it names (its tag,
 * its folder, the member a transfer goes to, the owner its filter names) was deleted, or left the member's team,
 * after the job was made. A runner asks before each chunk, in the chunk's transaction, so that no chunk writes a
 * reference that is gone or reaches past what its member may change now.
 */
export async function currentParams(
  db: Db,
  actor: AuthContext,
  params: JobParams,
  selection: JobSelection,
): Promise<{ params: JobParams } | { error: string }> {
  const { orgId } = actor.scope;
  const inTeam = async (id: number) => {
    const member = await findMemberById(db, id);
    return !!member && scopeIncludesMember(actor.scope, member);
  };
  let { tag } = params;
  if (tag) {
    const found = await findTag(db, orgId, tag.id);
    if (!found) return { error: `The tag "${tag.title}" was deleted before this job finished.` };
    tag = { id: found.id, title: found.title };
  }
  if (params.folderId && !(await findFolder(db, orgId, params.folderId)))
    return { error: `Folder ${params.folderId} was deleted before this job finished.` };
  if (params.memberId !== undefined && !(await inTeam(params.memberId))) {
    return { error: `Member ${params.memberId}, to whom the contacts were to go, is no longer in your team.` };
  }
  const ownerId = 'filter' in selection ? selection.filter.owner_id : undefined;
  if (ownerId !== undefined && !(await inTeam(ownerId)))
    return { error: `Member ${ownerId}, whose contacts filter.owner_id chose, is no longer in your team.` };
  return { params: { ...params, ...(tag && { tag }) } };
}

/** The job's member, as it is now (its scope may have changed since the job was made). */
export async function actorOf(db: Db, job: BulkJob): Promise<AuthContext | undefined> {
  const member = await findMemberById(db, job.member_id);
  return member ? { member, via: 'bearer', scope: await scopeFor(db, member) } : undefined;
}

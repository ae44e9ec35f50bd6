import { listQueryOf } from '../../contracts/contacts.js';
import { nextTurn } from '../../db/chunks.js';
import type { Db, Store } from '../../db/database.js';
import { isStoreLost } from '../../db/dialect.js';
import type { BulkJob } from '../../db/schema.js';
import { nowMs } from '../../lib/clock.js';
import { type Lease, LeaseLoop, type LeaseTask } from '../../lib/lease-loop.js';
import type { Logger } from '../../lib/logger.js';
import { now } from '../../lib/time.js';
import { nextIdsOfList } from '../contacts/contact-list.repository.js';
import {
  addTagToContacts,
  type BulkChunk,
  moveContactsToFolder,
  removeTagFromContacts,
  setTrashed,
  transferContacts,
} from '../contacts/contact-rows.repository.js';
import { ActivityType, recordChange } from '../contacts/contact-history.repository.js';
import { findVisibleContacts } from '../contacts/contacts.repository.js';
import { scopeOfOwner } from '../contacts/contacts.service.js';
import { advanceJob, anyOpen, claimJob, findJob } from './bulk-jobs.repository.js';
import { actorOf, currentParams, type JobParams, type JobSelection } from './bulk-jobs.service.js';

/** Contacts per transaction: a few milliseconds of writing, so other requests' writes go between chunks. */
export const JOB_CHUNK = 500;
const LEASE_MS = 30_000;
const POLL_MS = 500;
/** A chunk that fails on an unexpected error is tried again after this times the failures so far, five times in all. */
const RETRY_AFTER_MS = 5_000;
const MAX_FAILURES = 5;

/**
 * Runs queued bulk jobs on the lease loop (lib/lease-loop.ts), one chunk per transaction, recording progress
 * (processed, changed, the cursor) in the same transaction as the chunk: a process that dies mid-job leaves a job
 * another runner continues from its last chunk once the lease ends. Every process runs one, a job at a time; leases
 * keep two from running a job at once. Each chunk's write extends the lease (no renewal beside it), and a runner that
 * stops lets go of its job between chunks, so another process continues it at once.
 */
export function createJobRunner(store: Store, logger: Logger): LeaseLoop<BulkJob> {
  return new LeaseLoop(store, logger, jobTask(store, logger), { concurrency: 1, leaseMs: LEASE_MS, pollMs: POLL_MS });
}

export function jobTask(store: Store, logger: Logger): LeaseTask<BulkJob> {
  return {
    name: 'bulk jobs',
    anyDue: anyOpen,
    claim: async (tx, owner, at, untilMs) => {
      const job = await claimJob(tx, owner, at, untilMs);
      return job ? [job] : [];
    },
    work: (job, lease) => new JobRun(store, logger, lease).run(job.id),
  };
}

/** One claimed job worked to its end, or until the lease's signal says stop (between chunks, at least one done). */
class JobRun {
  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly lease: Lease,
  ) {}

  async run(jobId: number): Promise<void> {
    let id: number | undefined = jobId;
    while (id !== undefined) {
      try {
        id = await this.store.write((tx) => this.chunk(tx, jobId));
      } catch (error) {
        id = undefined;
        // The database went away: no fault of the job's. Its lease runs out and a runner continues from its last chunk.
        if (isStoreLost(error)) {
          this.logger.warn(
            { err: error, job: jobId },
            'bulk job chunk not done: the store was lost; the job continues when its lease ends',
          );
          break;
        }
        // The chunk's transaction rolled back: nothing of it happened. Try again after a pause, up to a limit.
        this.logger.error({ err: error, job: jobId }, 'bulk job chunk failed');
        await this.store.write((tx) => this.chunkFailed(tx, jobId, error));
      }
      await nextTurn();
      if (id !== undefined && this.lease.signal.aborted) {
        await this.store.write((tx) => advanceJob(tx, jobId, this.lease.owner, { lease_owner: null, lease_until_ms: null }));
        this.logger.info({ job: jobId }, 'bulk job let go between chunks (its runner stops); another runner continues it');
        break;
      }
    }
  }

  /**
   * One chunk in one transaction, from the job as the store holds it, while this runner's lease holds (a runner that
   * lost it, having stalled past its end, writes nothing). Answers the job's id to go on with, or undefined.
   */
  private async chunk(tx: Db, id: number): Promise<number | undefined> {
    const job = await findJob(tx, id);
    if (!job || job.lease_owner !== this.lease.owner || job.status !== 'running') return undefined;
    const actor = await actorOf(tx, job);
    if (!actor) return this.fail(tx, job, 'The member who started this job no longer exists.');
    const selection = JSON.parse(job.selection) as JobSelection;
    const current = await currentParams(tx, actor, JSON.parse(job.params) as JobParams, selection);
    if ('error' in current) return this.fail(tx, job, current.error);
    const { ids, cursor, last } = await nextChunk(tx, actor, selection, job);
    const visible = await findVisibleContacts(tx, actor.scope, ids);
    const changed = await apply(tx, job, current.params, visible, actor.member.id);
    const processed = job.processed + visible.length;
    const progress = {
      processed,
      changed: job.changed + changed,
      cursor,
      failures: 0,
      lease_until_ms: nowMs() + LEASE_MS,
      // A filter's total was counted when the job was made; contacts created since are worked too.
      ...(last
        ? { status: 'done' as const, total: Math.max(job.total, processed), finished_at: now(), lease_owner: null, lease_until_ms: null }
        : {}),
    };
    await advanceJob(tx, job.id, this.lease.owner, progress);
    if (last) this.logger.info({ job: job.id, action: job.action, processed, changed: progress.changed }, 'bulk job done');
    return last ? undefined : job.id;
  }

  /** Counts a failed chunk: the job waits out a pause and is tried again, by any runner, until MAX_FAILURES in a row. */
  private async chunkFailed(tx: Db, id: number, error: unknown) {
    const job = await findJob(tx, id);
    if (!job || job.lease_owner !== this.lease.owner) return;
    const failures = job.failures + 1;
    if (failures >= MAX_FAILURES) {
      await this.fail(
        tx,
        job,
        `The job stopped on an unexpected error after ${job.processed} contacts; what it did until then stays done.`,
      );
      return;
    }
    this.logger.warn({ job: id, failures, err: error }, 'bulk job will be tried again');
    await advanceJob(tx, id, this.lease.owner, { failures, lease_owner: null, lease_until_ms: nowMs() + RETRY_AFTER_MS * failures });
  }

  /** Ends a job that cannot go on, with the reason its member will read; what earlier chunks did stays done. */
  private async fail(tx: Db, job: BulkJob, error: string): Promise<undefined> {
    if (
      await advanceJob(tx, job.id, this.lease.owner, {
        status: 'failed',
        error,
        finished_at: now(),
        lease_owner: null,
        lease_until_ms: null,
      })
    ) {
      this.logger.info({ job: job.id, action: job.action, processed: job.processed, changed: job.changed, error }, 'bulk job failed');
    }
    return undefined;
  }
}

/** The next ids: a slice of the named ones, or the next page of the filtered list below the cursor. */
async function nextChunk(tx: Db, actor: NonNullable<Awaited<ReturnType<typeof actorOf>>>, selection: JobSelection, job: BulkJob) {
  if ('ids' in selection) {
    const done = job.cursor ?? 0;
    const ids = selection.ids.slice(done, done + JOB_CHUNK);
    return { ids, cursor: done + ids.length, last: done + ids.length >= selection.ids.length };
  }
  const scope = await scopeOfOwner(tx, actor, selection.filter.owner_id, 'filter.owner_id');
  const ids = await nextIdsOfList(tx, scope, listQueryOf(selection.filter, JOB_CHUNK), job.cursor ?? undefined, JOB_CHUNK);
  return { ids, cursor: ids.length ? Math.min(...ids) : job.cursor, last: ids.length < JOB_CHUNK };
}

async function apply(
  tx: Db,
  job: BulkJob,
  params: JobParams,
  contacts: Awaited<ReturnType<typeof findVisibleContacts>>,
  actorId: number,
): Promise<number> {
  const at = now();
  const chunk: BulkChunk = { orgId: job.org_id, contactIds: contacts.map((c) => c.id), actorId, at };
  switch (job.action) {
    case 'add_tag':
      return addTagToContacts(tx, { ...chunk, tag: params.tag! });
    case 'remove_tag':
      return removeTagFromContacts(tx, { ...chunk, tag: params.tag! });
    case 'move':
      return moveContactsToFolder(tx, { ...chunk, folderId: params.folderId ?? null });
    case 'transfer':
      return transferContacts(tx, { ...chunk, toId: params.memberId! });
    case 'trash': {
      const trashing = contacts.filter((c) => !c.trashed);
      await setTrashed(tx, trashing, true, at);
      await recordChange(tx, {
        contactIds: trashing.map((c) => c.id),
        memberId: actorId,
        at,
        activity: ActivityType.trashed,
        text: 'Contact moved to the trash',
        audit: [{ action: 'trash', dataType: 'trashed', old: '0', new: '1' }],
      });
      return trashing.length;
    }
    default:
      throw new Error(`Unknown bulk action ${job.action}.`);
  }
}

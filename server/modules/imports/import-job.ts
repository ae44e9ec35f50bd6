import { type AuthContext, scopeFor } from '../../auth/access.js';
import { findMemberById } from '../../auth/auth.repository.js';
import type { ImportMapping } from '../../contracts/imports.js';
import { nextTurn } from '../../db/chunks.js';
import type { Db, Store } from '../../db/database.js';
import { isStoreLost } from '../../db/dialect.js';
import { lockKeys } from '../../db/locks.js';
import { storeKind } from '../../db/store-kind.js';
import { nowMs } from '../../lib/clock.js';
import { type Lease, LeaseLoop, type LeaseTask } from '../../lib/lease-loop.js';
import type { Logger } from '../../lib/logger.js';
import { now } from '../../lib/time.js';
import { findContactRow } from '../contacts/contacts.repository.js';
import { type Draft, type ImportCatalog, mapRow } from './import-row.js';
import { runInThread } from './import-thread.js';
import {
  applyPlan,
  createFromDrafts,
  planChanges,
  planUpdate,
  type UndoChanges,
  type UpdatePlan,
  undoCreated,
  undoUpdated,
} from './import-write.js';
import {
  anyOpenImport,
  catalogOf,
  claimImport,
  contactsByKeys,
  findImport,
  type ImportRow,
  type RowOutcome,
  rowsAfter,
  setRowOutcomes,
  tagsByTitle,
  updateImport,
  writtenRowsAfter,
} from './imports.repository.js';

/** Rows per transaction, at most: a short hold of the write lock, so other requests' writes (the dialer's) go between chunks. */
export const IMPORT_CHUNK = 500;
/**
 * How long a chunk may hold SQLite's write lock: rows per chunk follow from the last chunk's time, up to IMPORT_CHUNK.
 * A chunk of 500 rows took some 120 ms at 100,000 contacts on a quiet machine, and longer when requests share the cores
 * with it; meanwhile the dialer's writes wait for the lock. Not less: chunks sized for 100 ms cost 20-30% more CPU a
 * row (more commits, each with its FTS5 segments).
 */
const CHUNK_MS = 250;
/** The sizes a chunk takes: its multi-row statements then repeat their SQL, and stay prepared (`withStatementCache`). */
const CHUNK_SIZES = [25, 50, 100, 200, 300, 400, IMPORT_CHUNK];
/**
 * Rows between turns of the event loop within a chunk: better-sqlite3 answers synchronously, so a chunk that never
 * yields would hold up every read of its process (the grid's list) until it commits (chunks.ts says the same).
 */
const ROWS_PER_TURN = 20;
const LEASE_MS = 60_000;
const POLL_MS = 500;
const MAX_FAILURES = 5;

/**
 * Runs imports (and their undo) on the lease loop, a chunk of rows per transaction with the rows' outcomes and the
 * import's counts and cursor (rows_done) in the same transaction: a process that dies leaves the import to another
 * from its last chunk once the lease runs out, and no row is worked twice. Each chunk's write extends the lease.
 */
export function createImportRunner(store: Store, logger: Logger, databaseUrl?: string): LeaseLoop<ImportRow> {
  return new LeaseLoop(store, logger, importTask(store, logger, databaseUrl), { concurrency: 1, leaseMs: LEASE_MS, pollMs: POLL_MS });
}

/**
 * The runner's task. Given the store's URL, a run on SQLite goes in a thread of its own (import-thread.ts): its driver
 * answers synchronously. PostgreSQL's does not, and there a thread cost the list more than it spared it (one run each,
 * 20,000 rows into 10,000 contacts, load average 4-5.5: its p99 59-256 ms beside the thread, 43-86 ms without).
 */
export function importTask(store: Store, logger: Logger, databaseUrl?: string): LeaseTask<ImportRow> {
  const thread = databaseUrl !== undefined && storeKind(store.db) === 'sqlite' ? databaseUrl : undefined;
  return {
    name: 'imports',
    anyDue: anyOpenImport,
    claim: async (tx, owner, at, untilMs) => {
      const found = await claimImport(tx, owner, at, untilMs);
      return found ? [found] : [];
    },
    work: (item, lease) => (thread ? runInThread(thread, logger, item, lease) : runImportItem(store, logger, lease, item)),
  };
}

/** Runs (or undoes) a claimed import, chunk by chunk, while its lease holds. */
export const runImportItem = (store: Store, logger: Logger, lease: Lease, item: ImportRow) => new ImportRun(store, logger, lease).run(item);

export async function actorOf(db: Db, memberId: number): Promise<AuthContext | undefined> {
  const member = await findMemberById(db, memberId);
  return member ? { member, via: 'session', scope: await scopeFor(db, member) } : undefined;
}

export async function loadCatalog(db: Db, orgId: number): Promise<ImportCatalog> {
  const { folders, fields, options } = await catalogOf(db, orgId);
  return {
    folders: new Map(folders.map((f) => [f.name.toLowerCase(), f])),
    customFields: new Map(
      fields.map((f) => [f.id, { ...f, options: options.filter((o) => o.custom_field_id === f.id).map((o) => o.label) }]),
    ),
  };
}

/** Keys of a draft as the contacts module compares them: e-mails in lower case, phones as digits. */
export const keysOf = (d: Draft) => [...d.emails.map((e) => `e:${e.toLowerCase()}`), ...d.phones.map((p) => `p:${p.digits}`)];

/** Which contact (or, in a dry run, which earlier row, negative) each key of the chunk's rows already belongs to. */
export async function knownKeys(db: Db, auth: AuthContext, drafts: Draft[]): Promise<Map<string, number>> {
  const emails = [...new Set(drafts.flatMap((d) => d.emails.map((e) => e.toLowerCase())))];
  const phones = [...new Set(drafts.flatMap((d) => d.phones.map((p) => p.digits)))];
  const found = new Map<string, number>();
  const { byEmail, byPhone } = await contactsByKeys(db, auth.scope, emails, phones);
  for (const [prefix, rows] of [
    ['e:', byEmail],
    ['p:', byPhone],
  ] as const)
    for (const r of rows) found.set(`${prefix}${r.key}`, Math.min(r.id, found.get(`${prefix}${r.key}`) ?? Infinity));
  return found;
}

type Counts = { created: number; updated: number; skipped: number; refused: number };

/** A row of the chunk that creates a contact, written with the chunk's others in one batch (`flush`). */
type PendingCreate = { draft: Draft; keys: string[]; outcome: RowOutcome };

class ImportRun {
  /** A dry run's keys of rows it would create, across chunks (rebuilt from the rows done when a run resumes). */
  private dryKeys = new Map<string, number>();
  /** Contacts this run created: a later row of the file that updates one has nothing of its own to undo. */
  private created = new Set<number>();
  /** The chunk's rows that create, not written yet; their keys; what waits for their ids (a later row skipped as their duplicate). */
  private pending: PendingCreate[] = [];
  private pendingKeys = new Map<string, PendingCreate>();
  private afterFlush: (() => void)[] = [];
  /** The chunk's tag titles (lower case) that the organisation had when the chunk began. */
  private chunkTags = new Set<string>();
  /** Rows the next chunk takes (`CHUNK_MS`). */
  private chunkRows = IMPORT_CHUNK;
  /** Whether a chunk holds the store's one write lock (SQLite), so that its time is bounded; PostgreSQL locks rows. */
  private readonly oneWriter: boolean;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly lease: Lease,
  ) {
    this.oneWriter = storeKind(store.db) === 'sqlite';
  }

  async run(claimed: ImportRow): Promise<void> {
    if (claimed.status === 'running' && claimed.dry_run && claimed.rows_done > 0) await this.rebuildDryKeys(claimed);
    for (;;) {
      let more: boolean;
      try {
        let began = 0;
        more = await this.store.write((tx) => {
          began = performance.now();
          return claimed.status === 'undoing' ? this.undoChunk(tx, claimed.id) : this.chunk(tx, claimed.id);
        });
        if (this.oneWriter) this.nextChunkRows(performance.now() - began);
      } catch (error) {
        if (isStoreLost(error)) {
          this.logger.warn(
            { err: error, import: claimed.id },
            'import chunk not done: the store was lost; it continues when its lease ends',
          );
          return;
        }
        this.logger.error({ err: error, import: claimed.id }, 'import chunk failed');
        more = await this.store.write((tx) => this.chunkFailed(tx, claimed.id));
      }
      await nextTurn();
      if (!more) return;
      if (this.lease.signal.aborted) {
        await this.store.write((tx) =>
          updateImport(tx, claimed.id, { lease_owner: null, lease_until_ms: null }, { owner: this.lease.owner }),
        );
        return;
      }
    }
  }

  /** Rows for the next chunk, from how long this one held the write lock: the largest size that would fit in CHUNK_MS. */
  private nextChunkRows(ms: number) {
    const fitting = (this.chunkRows * CHUNK_MS) / Math.max(ms, 1);
    this.chunkRows = CHUNK_SIZES.findLast((size) => size <= fitting) ?? CHUNK_SIZES[0]!;
  }

  private async current(tx: Db, id: number, status: ImportRow['status']) {
    const found = await findImport(tx, id);
    return found && found.lease_owner === this.lease.owner && found.status === status ? found : undefined;
  }

  /** One chunk of a run; answers whether there is more. */
  private async chunk(tx: Db, id: number): Promise<boolean> {
    const imp = await this.current(tx, id, 'running');
    if (!imp) return false;
    // A chunk that failed before left nothing of it written (its transaction rolled back): nor anything pending here.
    this.pending = [];
    this.pendingKeys.clear();
    this.afterFlush = [];
    const actor = await actorOf(tx, imp.member_id);
    if (!actor) return this.end(tx, imp, { status: 'failed', error: 'The member who started this import no longer exists.' });
    const limit = this.chunkRows;
    const rows = await rowsAfter(tx, id, imp.rows_done, limit);
    const mapping = JSON.parse(imp.mapping!) as ImportMapping;
    const header = (JSON.parse(imp.header) as string[]).length;
    const catalog = await loadCatalog(tx, imp.org_id);
    const mapped = rows.map((r) => ({ row: r, ...mapRow(r.row_no, JSON.parse(r.fields) as string[], header, mapping, catalog) }));
    const drafts = mapped.flatMap((m) => ('draft' in m ? [m.draft] : []));
    if (!imp.dry_run)
      await lockKeys(
        tx,
        'contact duplicate',
        drafts.flatMap((d) => keysOf(d).map((k) => `${imp.org_id}:${k}`)),
      );
    const known = await knownKeys(tx, actor, drafts);
    if (!imp.dry_run) {
      const titles = [...new Set(drafts.flatMap((d) => d.tags.map((t) => t.toLowerCase())))];
      this.chunkTags = new Set((await tagsByTitle(tx, imp.org_id, titles)).map((t) => t.title.toLowerCase()));
    }
    for (const [k, v] of this.dryKeys) if (!known.has(k)) known.set(k, v);
    const counts: Counts = { created: 0, updated: 0, skipped: 0, refused: 0 };
    const outcomes: RowOutcome[] = [];
    const at = now();
    for (const [i, m] of mapped.entries()) {
      if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await nextTurn();
      const outcome =
        'refused' in m ? refusedOutcome(m.row.row_no, m.refused) : await this.rowOutcome(tx, actor, imp, m.row.row_no, m.draft, known, at);
      counts[
        outcome.outcome === 'created'
          ? 'created'
          : outcome.outcome === 'updated'
            ? 'updated'
            : outcome.outcome === 'skipped'
              ? 'skipped'
              : 'refused'
      ]++;
      outcomes.push(outcome);
    }
    await this.flush(tx, actor, known);
    await setRowOutcomes(tx, id, outcomes);
    const rowsDone = rows.length ? rows[rows.length - 1]!.row_no : imp.rows_done;
    const last = rows.length < limit;
    const progress = {
      rows_done: rowsDone,
      created: imp.created + counts.created,
      updated: imp.updated + counts.updated,
      skipped: imp.skipped + counts.skipped,
      refused: imp.refused + counts.refused,
      failures: 0,
      lease_until_ms: nowMs() + LEASE_MS,
    };
    if (last) return this.end(tx, imp, { ...progress, status: 'done' });
    await updateImport(tx, id, progress, { owner: this.lease.owner });
    return true;
  }

  private async rowOutcome(
    tx: Db,
    actor: AuthContext,
    imp: ImportRow,
    rowNo: number,
    draft: Draft,
    known: Map<string, number>,
    at: string,
  ): Promise<RowOutcome> {
    const keys = keysOf(draft);
    let match = keys.map((k) => known.get(k) ?? this.pendingKeys.get(k)).find((v) => v !== undefined);
    const remember = (id: number) => keys.forEach((k) => known.has(k) || this.pendingKeys.has(k) || known.set(k, id));
    if (match === undefined) {
      const outcome: RowOutcome = { row_no: rowNo, outcome: 'created', contact_id: null, reason: null, changes: null };
      if (imp.dry_run) {
        remember(-rowNo);
        this.created.add(-rowNo);
        keys.forEach((k) => this.dryKeys.set(k, -rowNo));
      } else {
        // Written with the chunk's other new contacts (`flush`), which fills in its id.
        const create = { draft, keys, outcome };
        this.pending.push(create);
        keys.forEach((k) => this.pendingKeys.set(k, create));
      }
      return outcome;
    }
    if (typeof match === 'object') {
      if (imp.duplicates === 'skip') {
        const outcome: RowOutcome = { row_no: rowNo, outcome: 'skipped', contact_id: null, reason: null, changes: null };
        const of = match.outcome;
        this.afterFlush.push(() => {
          outcome.contact_id = of.contact_id;
          outcome.reason = `Same e-mail or phone as contact ${of.contact_id}.`;
        });
        return outcome;
      }
      // Its duplicate is a contact created by an earlier row of the chunk: written first, so that this row updates it.
      await this.flush(tx, actor, known);
      match = match.outcome.contact_id!;
    }
    const contactId = match > 0 ? match : null;
    const dupOf = match > 0 ? `contact ${match}` : `row ${-match}`;
    if (imp.duplicates === 'skip')
      return { row_no: rowNo, outcome: 'skipped', contact_id: contactId, reason: `Same e-mail or phone as ${dupOf}.`, changes: null };
    if (match < 0)
      return { row_no: rowNo, outcome: 'updated', contact_id: null, reason: `Would update the contact of row ${-match}.`, changes: null };
    const contact = await findContactRow(tx, match);
    if (!contact)
      return { row_no: rowNo, outcome: 'skipped', contact_id: null, reason: 'Its duplicate was deleted meanwhile.', changes: null };
    const plan = await planUpdate(tx, contact, draft);
    const differences = plan.differences.length ? `Kept as it was: ${plan.differences.join('; ')}.` : null;
    if (!planChanges(plan))
      return {
        row_no: rowNo,
        outcome: 'skipped',
        contact_id: match,
        reason: differences ?? 'Nothing new for its duplicate.',
        changes: null,
      };
    if (!imp.dry_run) {
      if (this.catalogueOrderMatters(plan)) await this.flush(tx, actor, known);
      await applyPlan(tx, actor, contact, plan, at);
      remember(match);
    }
    const undo = imp.dry_run || this.created.has(match) ? null : JSON.stringify(plan.undo);
    return { row_no: rowNo, outcome: 'updated', contact_id: match, reason: differences, changes: undo };
  }

  /**
   * Whether this update would add tags or drop-down options to the catalogue while new contacts written later would
   * too: then those are written first, so that the catalogue gains them in the rows' order (titles, ids), as row by row.
   */
  private catalogueOrderMatters(plan: UpdatePlan): boolean {
    const isNew = (title: string) => !this.chunkTags.has(title.toLowerCase());
    const tags = (plan.body.tags ?? []).some(isNew) && this.pending.some((p) => p.draft.tags.some(isNew));
    return tags || (!!plan.body.custom_fields?.length && this.pending.some((p) => p.draft.custom.length > 0));
  }

  /** Writes the chunk's pending new contacts in one batch, and gives their rows (and what waited for them) their ids. */
  private async flush(tx: Db, actor: AuthContext, known: Map<string, number>): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    this.pendingKeys.clear();
    if (pending.length) {
      const ids = await createFromDrafts(
        tx,
        actor,
        pending.map((p) => p.draft),
      );
      pending.forEach((p, i) => {
        const id = ids[i]!;
        p.outcome.contact_id = id;
        p.keys.forEach((k) => known.has(k) || known.set(k, id));
        this.created.add(id);
      });
    }
    for (const then of this.afterFlush.splice(0)) then();
  }

  private async rebuildDryKeys(imp: ImportRow) {
    const actor = await actorOf(this.store.db, imp.member_id);
    if (!actor) return;
    const mapping = JSON.parse(imp.mapping!) as ImportMapping;
    const header = (JSON.parse(imp.header) as string[]).length;
    const catalog = await loadCatalog(this.store.db, imp.org_id);
    for (let after = 0; after < imp.rows_done;) {
      const rows = await rowsAfter(this.store.db, imp.id, after, IMPORT_CHUNK);
      if (!rows.length) break;
      for (const r of rows.filter((x) => x.row_no <= imp.rows_done && x.outcome === 'created')) {
        const m = mapRow(r.row_no, JSON.parse(r.fields) as string[], header, mapping, catalog);
        if ('draft' in m) keysOf(m.draft).forEach((k) => this.dryKeys.has(k) || this.dryKeys.set(k, -r.row_no));
      }
      after = rows[rows.length - 1]!.row_no;
    }
  }

  /** One chunk of an undo, over the rows that wrote something; rows_done counts the rows undone. */
  private async undoChunk(tx: Db, id: number): Promise<boolean> {
    const imp = await this.current(tx, id, 'undoing');
    if (!imp) return false;
    const actor = await actorOf(tx, imp.member_id);
    if (!actor) return this.end(tx, imp, { status: 'failed', error: 'The member who started this import no longer exists.' });
    const limit = this.chunkRows;
    const rows = await writtenRowsAfter(tx, id, imp.rows_done, limit);
    const at = now();
    let notRestored = 0;
    const outcomes: RowOutcome[] = [];
    for (const [i, row] of rows.entries()) {
      if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await nextTurn();
      if (row.outcome === 'created' && row.contact_id) {
        const kept = await undoCreated(tx, actor, row.contact_id, imp.finished_at, at);
        if (kept) {
          notRestored += 1;
          outcomes.push({ ...row, changes: JSON.stringify({ not_restored: [kept] }) });
        }
        continue;
      }
      if (row.outcome !== 'updated' || !row.contact_id || !row.changes) continue;
      const undo = JSON.parse(row.changes) as UndoChanges;
      const left = await undoUpdated(tx, actor, row.contact_id, undo, at);
      notRestored += left.length;
      outcomes.push({ ...row, changes: JSON.stringify({ ...undo, not_restored: left }) });
    }
    await setRowOutcomes(tx, id, outcomes);
    const progress = {
      rows_done: rows.length ? rows[rows.length - 1]!.row_no : imp.rows_done,
      not_restored: imp.not_restored + notRestored,
      failures: 0,
      lease_until_ms: nowMs() + LEASE_MS,
    };
    if (rows.length < limit) return this.end(tx, imp, { ...progress, status: 'undone', undone_at: at });
    await updateImport(tx, id, progress, { owner: this.lease.owner });
    return true;
  }

  private async end(tx: Db, imp: ImportRow, changes: Parameters<typeof updateImport>[2]): Promise<false> {
    const ended = await updateImport(
      tx,
      imp.id,
      { ...changes, finished_at: changes.status === 'undone' ? imp.finished_at : now(), lease_owner: null, lease_until_ms: null },
      { owner: this.lease.owner },
    );
    if (ended) this.logger.info({ import: imp.id, status: changes.status }, 'import ended');
    return false;
  }

  /** A chunk that failed changed nothing: tried again by any runner after a pause, until MAX_FAILURES in a row. */
  private async chunkFailed(tx: Db, id: number): Promise<boolean> {
    const imp = await findImport(tx, id);
    if (!imp || imp.lease_owner !== this.lease.owner) return false;
    const failures = imp.failures + 1;
    if (failures >= MAX_FAILURES)
      return this.end(tx, imp, {
        status: 'failed',
        error: `The import stopped on an unexpected error after ${imp.rows_done} rows; what it did until then stays done, and can be undone.`,
      });
    await updateImport(tx, id, { failures, lease_owner: null, lease_until_ms: nowMs() + 5_000 * failures }, { owner: this.lease.owner });
    return false;
  }
}

const refusedOutcome = (rowNo: number, reason: string): RowOutcome => ({
  row_no: rowNo,
  outcome: 'refused',
  contact_id: null,
  reason,
  changes: null,
});

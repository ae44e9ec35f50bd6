import { type AuthContext, scopeIncludesMember } from '../../auth/access.js';
import {
  type DuplicateAction,
  type ImportColumnRecord,
  type ImportMapping,
  type ImportPreviewRecord,
  type ImportRecord,
  PREVIEW_ROWS,
  type RunImportBody,
} from '../../contracts/imports.js';
import { PHONE_TYPES } from '../../contracts/contacts.js';
import type { Db, Store } from '../../db/database.js';
import type { LeaseLoop } from '../../lib/lease-loop.js';
import { conflict, invalidFields, notFound, type FieldProblem } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import { displayName } from '../../auth/member-record.js';
import { findContactRow } from '../contacts/contacts.repository.js';
import { actorOf, keysOf, knownKeys, loadCatalog } from './import-job.js';
import { type Draft, type ImportCatalog, mapRow } from './import-row.js';
import { suggestField } from './import-suggest.js';
import { planChanges, planUpdate } from './import-write.js';
import * as repo from './imports.repository.js';

export type ImportsDeps = { store: Store; imports: Pick<LeaseLoop<repo.ImportRow>, 'nudge'> };

/** An import the caller may see (its own, or a team member's for a manager, any for the vendor); else "not found". */
export async function visibleImport(db: Db, auth: AuthContext, id: number): Promise<repo.NamedImportRow> {
  const found = await repo.findNamedImport(db, id);
  if (!found || !scopeIncludesMember(auth.scope, { id: found.member_id, org_id: found.org_id }))
    throw notFound(`There is no import ${id}.`);
  return found;
}

/** An import as listed: everything but its columns (their samples and suggestions are for the one import's page). */
function importSummary(imp: repo.NamedImportRow): Omit<ImportRecord, 'columns'> {
  return {
    id: imp.id,
    member_id: imp.member_id,
    member_name: displayName({ first_name: imp.member_first_name, last_name: imp.member_last_name, username: imp.member_username }),
    filename: imp.filename,
    byte_size: Number(imp.byte_size),
    encoding: imp.encoding as ImportRecord['encoding'],
    delimiter: imp.delimiter as ImportRecord['delimiter'],
    row_count: imp.row_count,
    status: imp.status as ImportRecord['status'],
    rows_done: imp.rows_done,
    counts: { created: imp.created, updated: imp.updated, skipped: imp.skipped, refused: imp.refused },
    dry_run: !!imp.dry_run,
    mapping: imp.mapping ? (JSON.parse(imp.mapping) as ImportMapping) : null,
    duplicates: (imp.duplicates as DuplicateAction | null) ?? null,
    created_at: imp.created_at,
    started_at: imp.started_at,
    finished_at: imp.finished_at,
    undone_at: imp.undone_at,
    not_restored: imp.not_restored,
    error: imp.error,
  };
}

export function importRecord(imp: repo.NamedImportRow, customFields: { id: number; display_name: string }[]): ImportRecord {
  const header = JSON.parse(imp.header) as string[];
  const samples = JSON.parse(imp.samples) as string[][];
  const columns: ImportColumnRecord[] = header.map((h, index) => ({
    index,
    header: h,
    samples: samples[index] ?? [],
    suggestion: suggestField(h, customFields),
  }));
  return { ...importSummary(imp), columns };
}

export async function getImport(ctx: ImportsDeps, auth: AuthContext, id: number): Promise<ImportRecord> {
  const imp = await visibleImport(ctx.store.db, auth, id);
  const catalog = await repo.catalogOf(ctx.store.db, auth.scope.orgId);
  return importRecord(imp, catalog.fields);
}

/**
 * Answers a run or an undo as it was queued (`queued`, the row read in the write that queued it), then wakes the loop
 * that works it. Read after the commit, the answer said 'queued' or 'running' depending on whether the loop had claimed
 * it yet (seen: a dry run answered 'running').
 */
async function queuedAnswer(ctx: ImportsDeps, auth: AuthContext, queued: repo.NamedImportRow): Promise<ImportRecord> {
  const catalog = await repo.catalogOf(ctx.store.db, auth.scope.orgId);
  ctx.imports.nudge();
  return importRecord(queued, catalog.fields);
}

export async function listImports(ctx: ImportsDeps, auth: AuthContext) {
  const rows = await repo.listImports(ctx.store.db, auth.scope, 200);
  return rows.map(importSummary);
}

/** A mapping that fits the file and the team's catalogue; each misfit a 400 naming its place. */
function checkMapping(mapping: ImportMapping, headerLength: number, catalog: ImportCatalog) {
  const problems: FieldProblem[] = [];
  mapping.columns.forEach((c, i) => {
    if (c.index >= headerLength)
      problems.push({
        kind: 'invalid',
        field: `mapping.columns.${i}.index`,
        reason: `mapping.columns.${i}.index ${c.index}: the file has ${headerLength} columns (0 to ${headerLength - 1}).`,
      });
    if (c.field?.startsWith('custom:') && !catalog.customFields.has(Number(c.field.slice(7))))
      problems.push({
        kind: 'unknown_reference',
        field: `mapping.columns.${i}.field`,
        reason: `mapping.columns.${i}.field: your team has no custom field ${c.field.slice(7)}.`,
      });
  });
  if (mapping.folder_id && ![...catalog.folders.values()].some((f) => f.id === mapping.folder_id))
    problems.push({
      kind: 'unknown_reference',
      field: 'mapping.folder_id',
      reason: `mapping.folder_id ${mapping.folder_id} is not a folder of your team.`,
    });
  if (!mapping.columns.some((c) => c.field))
    problems.push({
      kind: 'invalid',
      field: 'mapping.columns',
      reason: 'mapping.columns maps no column to a field: nothing would be imported.',
    });
  if (problems.length) throw invalidFields(problems);
}

/** The first rows as they would be stored, by this mapping and duplicate rule; nothing is written. */
export async function previewImport(
  ctx: ImportsDeps,
  auth: AuthContext,
  id: number,
  mapping: ImportMapping,
  duplicates: DuplicateAction,
): Promise<ImportPreviewRecord> {
  const { db } = ctx.store;
  const imp = await visibleImport(db, auth, id);
  const header = (JSON.parse(imp.header) as string[]).length;
  const catalog = await loadCatalog(db, imp.org_id);
  checkMapping(mapping, header, catalog);
  const actor = (await actorOf(db, imp.member_id)) ?? auth;
  const rows = await repo.rowsAfter(db, id, 0, PREVIEW_ROWS);
  const mapped = rows.map((r) => ({ rowNo: r.row_no, ...mapRow(r.row_no, JSON.parse(r.fields) as string[], header, mapping, catalog) }));
  const known = await knownKeys(
    db,
    actor,
    mapped.flatMap((m) => ('draft' in m ? [m.draft] : [])),
  );
  const out: ImportPreviewRecord['rows'] = [];
  for (const m of mapped) {
    if ('refused' in m) {
      out.push({ row_no: m.rowNo, contact: null, outcome: 'refuse', reason: m.refused });
      continue;
    }
    const keys = keysOf(m.draft);
    const match = keys.map((k) => known.get(k)).find((v) => v !== undefined);
    if (match === undefined) {
      keys.forEach((k) => known.set(k, -m.rowNo));
      out.push({ row_no: m.rowNo, contact: previewContact(m.draft, null, catalog), outcome: 'create' });
      continue;
    }
    const of = match > 0 ? 'an existing contact' : `row ${-match}`;
    if (duplicates === 'skip' || match < 0) {
      out.push({
        row_no: m.rowNo,
        contact: previewContact(m.draft, match > 0 ? match : null, catalog),
        outcome: duplicates === 'skip' ? 'skip' : 'update',
        reason: `Same e-mail or phone as ${of}.`,
      });
      continue;
    }
    const contact = await findContactRow(db, match);
    const plan = contact ? await planUpdate(db, contact, m.draft) : undefined;
    const reason = plan?.differences.length ? `Kept as it was: ${plan.differences.join('; ')}.` : undefined;
    out.push({
      row_no: m.rowNo,
      contact: previewContact(m.draft, match, catalog),
      outcome: plan && planChanges(plan) ? 'update' : 'skip',
      ...(reason && { reason }),
    });
  }
  return { rows: out };
}

function previewContact(d: Draft, contactId: number | null, catalog: ImportCatalog): ImportPreviewRecord['rows'][number]['contact'] {
  const folder = [...catalog.folders.values()].find((f) => f.id === d.folderId);
  return {
    contact_user_id: contactId ? String(contactId) : null,
    first_name: d.first_name,
    last_name: d.last_name,
    emails: d.emails,
    phones: d.phones.map((p) => ({ phone_number: p.digits, type_name: PHONE_TYPES[p.type as keyof typeof PHONE_TYPES] })),
    primary_address: {
      address: d.address.address1 ?? '',
      city: d.address.city ?? '',
      state: d.address.state ?? '',
      zip: d.address.zip ?? '',
      country: d.address.country ?? '',
    },
    category: folder ? { category_id: String(folder.id), name: folder.name } : null,
    tags: d.tags,
    notes: d.notes,
    do_not_call: d.do_not_call ?? false,
    custom_fields: d.custom.map((c) => ({ custom_field_id: String(c.field.id), name: c.field.display_name, value: c.value })),
  };
}

/** Queues a run (or a dry run) of an uploaded import; a real run happens once. */
export async function runImport(ctx: ImportsDeps, auth: AuthContext, id: number, body: RunImportBody): Promise<ImportRecord> {
  const { db } = ctx.store;
  const imp = await visibleImport(db, auth, id);
  checkMapping(body.mapping, (JSON.parse(imp.header) as string[]).length, await loadCatalog(db, imp.org_id));
  const changes = {
    status: 'queued' as const,
    mapping: JSON.stringify(body.mapping),
    duplicates: body.duplicates,
    dry_run: body.dry_run ? 1 : 0,
    ...{ created: 0, updated: 0, skipped: 0, refused: 0, rows_done: 0, failures: 0, error: null },
    ...{ started_at: now(), finished_at: null, lease_owner: null, lease_until_ms: null },
  };
  // Conditional updates (docs/store.md): an uploaded import, or one whose last run was a dry run, runs; nothing else.
  const queued = await ctx.store.write(async (tx) => {
    const ok =
      (await repo.updateImport(tx, id, changes, { statuses: ['uploaded'] })) ||
      (await repo.updateImport(tx, id, changes, { statuses: ['done', 'failed'], dryRun: 1 }));
    if (!ok) return undefined;
    await repo.clearOutcomes(tx, id);
    return visibleImport(tx, auth, id);
  });
  if (!queued) throw conflict(`Import ${id} is ${describe(await visibleImport(db, auth, id))}: it cannot be run again.`);
  return queuedAnswer(ctx, auth, queued);
}

const describe = (imp: repo.ImportRow) =>
  imp.status === 'done' && !imp.dry_run
    ? 'done already (undo it to take it back)'
    : imp.status === 'queued' || imp.status === 'running'
      ? 'running'
      : imp.status;

export async function undoImport(ctx: ImportsDeps, auth: AuthContext, id: number): Promise<ImportRecord> {
  const imp = await visibleImport(ctx.store.db, auth, id);
  const queued =
    imp.status === 'done' && !imp.dry_run
      ? await ctx.store.write(async (tx) => {
          const ok = await repo.updateImport(
            tx,
            id,
            { status: 'undoing', rows_done: 0, not_restored: 0, failures: 0, lease_owner: null, lease_until_ms: null },
            { statuses: ['done'], dryRun: 0 },
          );
          return ok ? visibleImport(tx, auth, id) : undefined;
        })
      : undefined;
  if (!queued)
    throw conflict(
      imp.dry_run
        ? `Import ${id} was a dry run: it changed nothing to undo.`
        : `Import ${id} is ${describe(imp)}: only a finished import can be undone.`,
    );
  return queuedAnswer(ctx, auth, queued);
}

export async function notRestored(ctx: ImportsDeps, auth: AuthContext, id: number) {
  const { db } = ctx.store;
  await visibleImport(db, auth, id);
  const rows = await repo.rowsNotRestored(db, id, 10_000);
  const out = [];
  for (const r of rows) {
    const name = `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || r.email || r.phone || '';
    for (const n of (JSON.parse(r.changes!) as { not_restored: { field: string; reason: string }[] }).not_restored)
      out.push({ contact_id: r.contact_id ?? 0, name, field: n.field, reason: n.reason });
  }
  return out;
}

/** The refused rows, a chunk at a time (the router streams them as CSV). */
export async function* refusedRows(db: Db, imp: repo.ImportRow) {
  for (let after = 0; ;) {
    const rows = await repo.refusedRowsAfter(db, imp.id, after, 1_000);
    if (!rows.length) return;
    yield rows.map((r) => ({ fields: JSON.parse(r.fields) as string[], reason: r.reason ?? '' }));
    after = rows[rows.length - 1]!.row_no;
  }
}

import type { Kysely } from 'kysely';
import { tableWithId } from './dialect.js';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * CSV imports (issue 17). An upload is decoded and parsed as it streams in and its rows are staged in `import_rows`
 * (the fields as decoded, JSON), so any server can preview, run, list the refused rows of, or undo an import. A run is
 * a leased job (lease columns, `rows_done` the cursor) working chunks of rows, each row's outcome, contact and prior
 * values (for undo) written in the chunk's transaction. Saved mappings are keyed by header names.
 */
export async function up(db: Db): Promise<void> {
  await tableWithId(db, 'imports')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('member_id', 'integer', (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'bigint', (c) => c.notNull())
    .addColumn('encoding', 'text', (c) => c.notNull())
    .addColumn('delimiter', 'text', (c) => c.notNull())
    .addColumn('header', 'text', (c) => c.notNull())
    .addColumn('samples', 'text', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('dry_run', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mapping', 'text')
    .addColumn('duplicates', 'text')
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rows_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('not_restored', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until_ms', 'bigint')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('undone_at', 'text')
    .execute();
  await db.schema.createIndex('imports_member').on('imports').columns(['member_id', 'id']).execute();
  await db.schema.createIndex('imports_open').on('imports').columns(['status', 'lease_until_ms']).execute();

  await db.schema
    .createTable('import_rows')
    .addColumn('import_id', 'integer', (c) => c.notNull().references('imports.id').onDelete('cascade'))
    .addColumn('row_no', 'integer', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('contact_id', 'integer')
    .addColumn('reason', 'text')
    .addColumn('changes', 'text')
    .addPrimaryKeyConstraint('import_rows_pk', ['import_id', 'row_no'])
    .execute();

  await tableWithId(db, 'import_mappings')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('member_id', 'integer', (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mapping', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('import_mappings_member').on('import_mappings').columns(['member_id', 'id']).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('import_mappings').execute();
  await db.schema.dropTable('import_rows').execute();
  await db.schema.dropTable('imports').execute();
}

/*
 * CSV import of contacts (extension: /rest/1/imports, /rest/1/import-mappings). Browser-safe: zod only.
 * The shapes are described in docs/api.md ("Import").
 */
import { z } from 'zod';
import { idLike, text } from './common.js';

export const IMPORT_STATUSES = ['uploaded', 'queued', 'running', 'done', 'failed', 'undoing', 'undone'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const IMPORT_ENCODINGS = ['utf-8', 'windows-1252'] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];

export const IMPORT_DELIMITERS = [',', ';', '\t'] as const;
export type ImportDelimiter = (typeof IMPORT_DELIMITERS)[number];

export const DUPLICATE_ACTIONS = ['skip', 'update'] as const;
export type DuplicateAction = (typeof DUPLICATE_ACTIONS)[number];

export const IMPORT_PHONE_TYPES = ['mobile', 'work', 'home', 'other'] as const;
export type ImportPhoneType = (typeof IMPORT_PHONE_TYPES)[number];

/**
 * The fields a column may fill; a custom field is `custom:<custom_field_id>`. Contacts have no company or job title
 * of their own: a team keeps those in custom fields, and a "Company" header suggests the custom field of that name.
 */
export const IMPORT_FIELDS = [
  'first_name',
  'last_name',
  'full_name',
  'email',
  'phone',
  'address.street',
  'address.city',
  'address.state',
  'address.zip',
  'address.country',
  'folder',
  'tags',
  'notes',
  'do_not_call',
] as const;
export type FixedImportField = (typeof IMPORT_FIELDS)[number];
export type ImportField = FixedImportField | `custom:${number}`;

/** Fields a mapping may hold in more than one column (each column adds a value). */
export const REPEATABLE_IMPORT_FIELDS: readonly ImportField[] = ['email', 'phone', 'tags', 'notes'];

const FIELD_ERROR = `must be one of ${IMPORT_FIELDS.join(', ')}, or custom:<custom field id>`;
export const importField = z
  .string({ error: FIELD_ERROR })
  .refine((v) => (IMPORT_FIELDS as readonly string[]).includes(v) || /^custom:[1-9]\d{0,14}$/.test(v), { error: FIELD_ERROR })
  .transform((v) => v as ImportField);

export const mappingColumn = z.object({
  index: z.number({ error: 'must be a column number' }).int().min(0, { error: 'must be a column number (0 or more)' }),
  field: importField.nullable(),
  phone_type: z.enum(IMPORT_PHONE_TYPES, { error: `must be one of ${IMPORT_PHONE_TYPES.join(', ')}` }).optional(),
});
export type MappingColumn = z.output<typeof mappingColumn>;

/** How the file's columns become a contact: one entry per column used (a column left out, or null, is not read). */
export const importMapping = z
  .object({
    columns: z.array(mappingColumn, { error: 'must be a list of columns' }).max(500, { error: 'must list at most 500 columns' }),
    folder_id: idLike.nullish().transform((v) => v ?? undefined),
    tags: z
      .array(text(100).pipe(z.string().min(1, { error: 'must not be empty' })), { error: 'must be a list of tag titles' })
      .max(20, { error: 'must list at most 20 tags' })
      .nullish()
      .transform((v) => v ?? undefined),
  })
  .superRefine((m, ctx) => {
    const seen = new Map<number, number>();
    m.columns.forEach((c, i) => {
      if (seen.has(c.index)) ctx.addIssue({ code: 'custom', path: ['columns', i, 'index'], message: `maps column ${c.index} twice` });
      seen.set(c.index, i);
      if (c.field && !REPEATABLE_IMPORT_FIELDS.includes(c.field)) {
        const first = m.columns.findIndex((o) => o.field === c.field);
        if (first !== i) ctx.addIssue({ code: 'custom', path: ['columns', i, 'field'], message: `maps ${c.field} to a second column` });
      }
    });
  });
export type ImportMapping = z.output<typeof importMapping>;

export const importIdParam = z.object({ import_id: idLike });
export const importMappingIdParam = z.object({ import_mapping_id: idLike });

/** POST /rest/1/imports?filename=...: the body is the file's raw bytes. */
export const uploadImportQuery = z.object({
  filename: text(255)
    .pipe(z.string().min(1, { error: 'must not be empty' }))
    .optional(),
});

export const previewImportBody = z.object({
  mapping: importMapping,
  duplicates: z.enum(DUPLICATE_ACTIONS, { error: 'must be skip or update' }).default('skip'),
});
export type PreviewImportBody = z.output<typeof previewImportBody>;

export const runImportBody = previewImportBody.extend({
  dry_run: z.boolean({ error: 'must be true or false' }).default(false),
});
export type RunImportBody = z.output<typeof runImportBody>;

export const importMappingBody = z.object({
  name: text(100).pipe(z.string().min(1, { error: 'must not be empty' })),
  /** Keyed by header name (so a mapping fits another file with the same headers in another order). */
  mapping: z.object({
    columns: z
      .array(
        z.object({
          header: text(255),
          field: importField.nullable(),
          phone_type: z.enum(IMPORT_PHONE_TYPES).optional(),
        }),
      )
      .max(500),
    folder_id: idLike.nullish().transform((v) => v ?? undefined),
    tags: z
      .array(text(100))
      .max(20)
      .nullish()
      .transform((v) => v ?? undefined),
  }),
});
export type ImportMappingBody = z.output<typeof importMappingBody>;
export type SavedMapping = ImportMappingBody['mapping'];

/** A column of the uploaded file: its header, the first 3 non-empty values, and the field its header suggests. */
export type ImportColumnRecord = {
  index: number;
  header: string;
  samples: string[];
  suggestion: { field: ImportField; phone_type?: ImportPhoneType } | null;
};

export type ImportCounts = { created: number; updated: number; skipped: number; refused: number };

export type ImportRecord = {
  id: number;
  /** Who uploaded and ran it, and their name as the app shows a member (the username when it has none). */
  member_id: number;
  member_name: string;
  filename: string;
  byte_size: number;
  encoding: ImportEncoding;
  delimiter: ImportDelimiter;
  row_count: number;
  status: ImportStatus;
  rows_done: number;
  counts: ImportCounts;
  dry_run: boolean;
  mapping: ImportMapping | null;
  duplicates: DuplicateAction | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  undone_at: string | null;
  /** After an undo: how many values it left because they changed since (listed by GET .../not-restored). */
  not_restored: number;
  /** Why a failed import stopped. */
  error: string | null;
  columns: ImportColumnRecord[];
};

/** POST /rest/1/imports answers 201 with the import as uploaded. */
export type UploadedImportRecord = ImportRecord;

export type ImportListRecord = { data: Omit<ImportRecord, 'columns'>[] };

export const PREVIEW_ROWS = 20;
/** A contact as an import row stores it, in the words of a contact record (contact_user_id set for an update). */
export type ImportPreviewContact = {
  contact_user_id: string | null;
  first_name: string;
  last_name: string;
  emails: string[];
  phones: { phone_number: string; type_name: string }[];
  primary_address: { address: string; city: string; state: string; zip: string; country: string };
  category: { category_id: string; name: string } | null;
  tags: string[];
  notes: string[];
  do_not_call: boolean;
  custom_fields: { custom_field_id: string; name: string; value: string }[];
};
export type PreviewOutcome = 'create' | 'update' | 'skip' | 'refuse';
export type ImportPreviewRecord = {
  rows: {
    row_no: number;
    /** The contact as it will be stored (for an update: the existing contact with the row's additions); null if refused. */
    contact: ImportPreviewContact | null;
    outcome: PreviewOutcome;
    reason?: string;
  }[];
};

export type NotRestoredRecord = { data: { contact_id: number; name: string; field: string; reason: string }[] };

export type ImportMappingRecord = { id: number; name: string; mapping: SavedMapping; created_at: string };
export type ImportMappingListRecord = { data: ImportMappingRecord[] };

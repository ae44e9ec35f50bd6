/* Provisional wire shapes of /rest/1/imports (import-contract.md), until server/contracts/imports.ts lands. */
import type { ContactRecord } from '../../server/contracts/contact-records';

export type ImportStatus = 'uploaded' | 'queued' | 'running' | 'done' | 'failed' | 'undoing' | 'undone';
export type ImportDuplicates = 'skip' | 'update';
export type PhoneType = 'mobile' | 'work' | 'home' | 'other';
export type ImportFieldKey = string;

export type MappedColumn = { index: number; field: ImportFieldKey | null; phone_type?: PhoneType };
export type ImportMapping = { columns: MappedColumn[]; folder_id?: number; tags?: string[] };

export type ImportColumn = { index: number; header: string; samples: string[]; suggestion: MappedColumn | null };
export type ImportCounts = { created: number; updated: number; skipped: number; refused: number };

export type ImportUploaded = {
  id: string;
  filename: string;
  byte_size: number;
  encoding: 'utf-8' | 'windows-1252';
  delimiter: string;
  row_count: number;
  status: 'uploaded';
  columns: ImportColumn[];
};

export type ImportRecord = {
  id: string;
  filename: string;
  status: ImportStatus;
  row_count: number;
  rows_done: number;
  counts: ImportCounts;
  dry_run: boolean;
  mapping: ImportMapping | null;
  duplicates: ImportDuplicates | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  undone_at: string | null;
  not_restored: number;
  columns: ImportColumn[];
  member_name?: string;
  error?: string | null;
};

export type PreviewOutcome = 'create' | 'update' | 'skip' | 'refuse';
export type PreviewRow = { row_no: number; contact: ContactRecord | null; outcome: PreviewOutcome; reason?: string | null };
export type NotRestoredRecord = { contact_id: string; name: string; field: string; reason: string };
export type SavedMappingRecord = { id: string; name: string; mapping: Record<string, MappedColumn | null>; created_at: string };

/* The wire shapes of /rest/1/imports and /rest/1/import-mappings (docs/api.md, "Import"), from the server's contract. */
import type {
  DuplicateAction,
  ImportColumnRecord,
  ImportField,
  ImportMappingRecord,
  ImportPhoneType,
  ImportPreviewRecord,
  ImportRecord as FullImportRecord,
  NotRestoredRecord as NotRestoredList,
  SavedMapping,
} from '../../server/contracts/imports';

export type { ImportCounts, ImportStatus, ImportMapping, ImportPreviewContact } from '../../server/contracts/imports';
export type ImportDuplicates = DuplicateAction;
export type PhoneType = ImportPhoneType;
export type ImportFieldKey = ImportField;
export type ImportColumn = ImportColumnRecord;
/** The list leaves out the columns; the one import has them. */
export type ImportRecord = Omit<FullImportRecord, 'columns'> & { columns?: ImportColumnRecord[] };
export type ImportDetail = FullImportRecord;
export type PreviewRow = ImportPreviewRecord['rows'][number];
export type NotRestoredRecord = NotRestoredList['data'][number];
export type SavedMappingRecord = ImportMappingRecord;
export type { SavedMapping };

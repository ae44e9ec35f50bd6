/* The CSV import's routes (extension, docs/api.md "Import"). Browser-safe: zod only. */
import { importIdParam, importMappingBody, importMappingIdParam, previewImportBody, runImportBody, uploadImportQuery } from '../imports.js';
import { operations } from './operation.js';

const tag = 'Import';
const extension = 'CSV import from the grid (issue 17): upload, map, preview, dry run, run as a job, refused rows, undo.';
const IMPORT = 'The import: its file (encoding, delimiter, rows, columns with samples and suggestions), state, counts and mapping.';

export const importOperations = operations([
  {
    method: 'post',
    route: '/imports',
    tag,
    summary: 'Upload a CSV file to import',
    extension,
    query: uploadImportQuery,
    rawBody: {
      media: 'text/csv',
      about: 'The file itself: UTF-8 (with or without BOM) or Windows-1252; comma, semicolon or tab; at most IMPORT_MAX_BYTES.',
    },
    answer: { status: 201, record: 'import', about: IMPORT },
  },
  {
    method: 'get',
    route: '/imports',
    tag,
    summary: 'Imports, newest first',
    extension,
    answer: { status: 200, record: 'data', about: 'The imports the caller may see.' },
  },
  {
    method: 'get',
    route: '/imports/:import_id',
    tag,
    summary: 'An import',
    extension,
    params: importIdParam,
    answer: { status: 200, record: 'import', about: IMPORT },
  },
  {
    method: 'post',
    route: '/imports/:import_id/preview',
    tag,
    summary: 'Preview the first rows as they would be stored',
    extension,
    params: importIdParam,
    body: previewImportBody,
    answer: { status: 200, record: 'rows', about: 'The first 20 rows: the contact each would store, and create, update, skip or refuse.' },
  },
  {
    method: 'post',
    route: '/imports/:import_id/run',
    tag,
    summary: 'Run an import (or a dry run) as a job',
    extension,
    params: importIdParam,
    body: runImportBody,
    answer: { status: 202, record: 'import', about: IMPORT },
  },
  {
    method: 'get',
    route: '/imports/:import_id/refused.csv',
    tag,
    summary: 'The refused rows as CSV',
    extension,
    params: importIdParam,
    answer: { status: 200, media: 'text/csv', about: 'The file’s header and a Reason column; one line per refused row, as uploaded.' },
  },
  {
    method: 'post',
    route: '/imports/:import_id/undo',
    tag,
    summary: 'Undo an import',
    extension,
    params: importIdParam,
    answer: { status: 202, record: 'import', about: IMPORT },
  },
  {
    method: 'get',
    route: '/imports/:import_id/not-restored',
    tag,
    summary: 'What an undo left because it changed since',
    extension,
    params: importIdParam,
    answer: { status: 200, record: 'data', about: 'One entry per value left: contact_id, name, field, reason.' },
  },
  { method: 'get', route: '/import-mappings', tag, summary: 'Saved import mappings', extension, answer: { status: 200, record: 'data' } },
  {
    method: 'post',
    route: '/import-mappings',
    tag,
    summary: 'Save an import mapping',
    extension,
    body: importMappingBody,
    answer: { status: 201, record: 'import_mapping' },
  },
  {
    method: 'delete',
    route: '/import-mappings/:import_mapping_id',
    tag,
    summary: 'Delete a saved import mapping',
    extension,
    params: importMappingIdParam,
    answer: { status: 204 },
  },
]);

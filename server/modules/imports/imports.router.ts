import { type Request, type Response, Router } from 'express';
import type { Config } from '../../config.js';
import { authenticate, authOf, type AuthenticateDeps } from '../../auth/middleware.js';
import {
  importIdParam,
  importMappingBody,
  importMappingIdParam,
  previewImportBody,
  runImportBody,
  uploadImportQuery,
} from '../../contracts/imports.js';
import { sendNoContent, sendSuccess } from '../../lib/envelope.js';
import { invalidField } from '../../lib/errors.js';
import { ApiError, Codes } from '../../lib/http-errors.js';
import { parse } from '../../lib/validate.js';
import { csvRecord, UTF8_BOM } from '../contacts/contact-csv.js';
import { FileRefused, formatBytes, stageUpload } from './import-upload.service.js';
import * as mappings from './import-mappings.service.js';
import * as service from './imports.service.js';

type UploadDeps = service.ImportsDeps & AuthenticateDeps & { config: Pick<Config, 'session' | 'imports'> };

/** The file's bytes refused whole: 413 over the limit, else 400; the rest of the body is read and dropped. */
function refused(req: Request, error: FileRefused, maxBytes: number) {
  if (!req.readableEnded) req.resume();
  if (error.tooLarge)
    return new ApiError(
      413,
      [{ code: Codes.payloadTooLarge, field: 'body', reason: error.message || `The file is larger than ${formatBytes(maxBytes)}.` }],
      { Connection: 'close' },
    );
  return invalidField('body', error.message);
}

/**
 * POST /rest/1/imports reads its own body, the CSV file as it streams in (never whole), after authentication: it is
 * mounted before the API's body parsers (app.ts).
 */
export function importUploadRouter(ctx: UploadDeps): Router {
  const router = Router();
  const limits = ctx.config.imports;
  router.post('/imports', authenticate(ctx), async (req, res) => {
    const auth = authOf(req);
    const { filename } = parse(uploadImportQuery, req.query);
    if (Number(req.get('content-length') ?? 0) > limits.maxBytes) throw refused(req, new FileRefused('', true), limits.maxBytes);
    let id: number;
    try {
      id = await stageUpload(ctx.store, auth, filename ?? 'import.csv', req, limits);
    } catch (error) {
      throw error instanceof FileRefused ? refused(req, error, limits.maxBytes) : (req.resume(), error);
    }
    sendSuccess(res, 201, 'import', await service.getImport(ctx, auth, id));
  });
  return router;
}

/** Streams the refused rows: the file's header and "Reason", then a line per row, each chunk once the last is taken. */
async function sendRefused(ctx: service.ImportsDeps, req: Request, res: Response) {
  const imp = await service.visibleImport(ctx.store.db, authOf(req), parse(importIdParam, req.params).import_id);
  const header = JSON.parse(imp.header) as string[];
  const base = imp.filename.replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '-') || 'import';
  res.status(200).set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${base}-refused.csv"` });
  res.write(UTF8_BOM + csvRecord([...header, 'Reason']));
  let gone = false;
  res.once('close', () => (gone = true));
  try {
    for await (const rows of service.refusedRows(ctx.store.db, imp)) {
      if (gone) break;
      const text = rows
        .map((r) => csvRecord([...header.map((_, i) => r.fields[i] ?? ''), ...r.fields.slice(header.length), r.reason]))
        .join('');
      if (!res.write(text)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
    }
    if (!gone) res.end();
  } catch (error) {
    req.log.error({ err: error }, 'refused rows failed after the head was sent');
    res.destroy();
  }
}

/** Imports (extension, docs/api.md "Import"): their state, preview, run, refused rows, undo; saved mappings. */
export function importsRouter(ctx: service.ImportsDeps): Router {
  const router = Router();
  const id = (req: Request) => parse(importIdParam, req.params).import_id;
  router.get('/imports', async (req, res) => {
    sendSuccess(res, 200, 'data', await service.listImports(ctx, authOf(req)));
  });
  router.get('/imports/:import_id', async (req, res) => {
    sendSuccess(res, 200, 'import', await service.getImport(ctx, authOf(req), id(req)));
  });
  router.post('/imports/:import_id/preview', async (req, res) => {
    const body = parse(previewImportBody, req.body);
    sendSuccess(res, 200, 'rows', (await service.previewImport(ctx, authOf(req), id(req), body.mapping, body.duplicates)).rows);
  });
  router.post('/imports/:import_id/run', async (req, res) => {
    sendSuccess(res, 202, 'import', await service.runImport(ctx, authOf(req), id(req), parse(runImportBody, req.body)));
  });
  router.get('/imports/:import_id/refused.csv', (req, res) => sendRefused(ctx, req, res));
  router.post('/imports/:import_id/undo', async (req, res) => {
    sendSuccess(res, 202, 'import', await service.undoImport(ctx, authOf(req), id(req)));
  });
  router.get('/imports/:import_id/not-restored', async (req, res) => {
    sendSuccess(res, 200, 'data', await service.notRestored(ctx, authOf(req), id(req)));
  });
  router.get('/import-mappings', async (req, res) => {
    sendSuccess(res, 200, 'data', await mappings.listMappings(ctx, authOf(req)));
  });
  router.post('/import-mappings', async (req, res) => {
    sendSuccess(res, 201, 'import_mapping', await mappings.saveMapping(ctx, authOf(req), parse(importMappingBody, req.body)));
  });
  router.delete('/import-mappings/:import_mapping_id', async (req, res) => {
    await mappings.deleteMapping(ctx, authOf(req), parse(importMappingIdParam, req.params).import_mapping_id);
    sendNoContent(res);
  });
  return router;
}

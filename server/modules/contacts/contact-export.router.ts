import type { Request, Response } from 'express';
import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import { exportSelectionBody, listContactsQuery } from '../../contracts/contacts.js';
import type { Db, Store } from '../../db/database.js';
import { now } from '../../lib/time.js';
import { parse } from '../../lib/validate.js';
import { exportCsv, type ExportSource } from './contact-export.service.js';

/** Until the response can take more, or the client has gone (then nothing more will be written). */
const writable = (res: Response) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

/**
 * Streams an export: its header is read before the head is sent (a failure there answers the error envelope), then
 * each chunk is written once the response has taken the last one (backpressure), and reading stops as soon as the
 * client goes away. A failure after the head can no longer change the status: the response is cut off, so the client
 * sees a broken download rather than a file that looks complete.
 */
async function sendExport(db: Db, req: Request, res: Response, source: ExportSource) {
  const pieces = exportCsv(db, authOf(req).scope, source);
  let piece = await pieces.next();
  res.status(200).set({
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="ringbook-contacts-${now().slice(0, 10)}.csv"`,
  });
  let gone = false;
  res.once('close', () => (gone = true));
  try {
    // The next chunk is read only once the last is sent, and never after the client has gone.
    while (!piece.done && !gone) {
      if (!res.write(piece.value) && !gone) await writable(res);
      if (!gone) piece = await pieces.next();
    }
    if (!gone) res.end();
  } catch (error) {
    req.log.error({ err: error }, 'contacts export failed after its head was sent');
    res.destroy();
  } finally {
    await pieces.return(undefined);
  }
}

/** Extension (docs/api.md, "Export"): the contacts of a list's view (GET, the list's query) or of a selection (POST, ids). */
export function contactExportRouter(ctx: { store: Store }): Router {
  const router = Router();
  const { db } = ctx.store;

  router.get('/contacts/export', async (req, res) => {
    const view = parse(listContactsQuery, req.query);
    await sendExport(db, req, res, { view });
  });

  router.post('/contacts/export', async (req, res) => {
    const { contact_ids } = parse(exportSelectionBody, req.body);
    await sendExport(db, req, res, { ids: contact_ids });
  });

  return router;
}

import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import type { FoldersDeps } from './folders.service.js';
import { createFolderBody, deleteFolderQuery, folderIdParam, listFoldersQuery, updateFolderBody } from '../../contracts/folders.js';
import { pageMeta, sendNoContent, sendSuccess } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import { activeCountsBy } from '../contacts/contact-counts.repository.js';
import { keyedByPosition, toFolderNode, toFolderRecord } from './folders.serializer.js';
import * as service from './folders.service.js';

export function foldersRouter(ctx: FoldersDeps): Router {
  const router = Router();

  router.get('/folders', async (req, res) => {
    const query = parse(listFoldersQuery, req.query);
    const auth = authOf(req);
    const { rows, total, childrenOf } = await service.listFolders(ctx, auth, query);
    const counts = query.with_counts ? await activeCountsBy(ctx.store.db, auth.scope, 'folder_key') : undefined;
    const items: unknown[] = query.structure
      ? rows.map((f) => toFolderNode(f, childrenOf(f), counts))
      : rows.map((f) => toFolderRecord(f, counts));
    const meta = pageMeta(query, total);
    sendSuccess(res, 200, 'folders', { ...keyedByPosition(items), ...meta, ...(counts ? { unfiled_count: counts.get(0) ?? 0 } : {}) });
  });

  // The contract answers 200, not 201, to a created folder.
  router.post('/folders', async (req, res) => {
    const folder = await service.createFolder(ctx, authOf(req), parse(createFolderBody, req.body));
    sendSuccess(res, 200, 'folders', keyedByPosition([toFolderRecord(folder)]));
  });

  router.put('/folders/:folder_id', async (req, res) => {
    const auth = authOf(req);
    const { folder_id } = parse(folderIdParam, req.params);
    const folder = await service.updateFolder(ctx, auth, folder_id, parse(updateFolderBody, req.body));
    sendSuccess(res, 200, 'folders', keyedByPosition([toFolderRecord(folder)]));
  });

  router.delete('/folders/:folder_id', async (req, res) => {
    const auth = authOf(req);
    const { folder_id } = parse(folderIdParam, req.params);
    await service.deleteFolder(ctx, auth, folder_id, parse(deleteFolderQuery, req.query));
    sendNoContent(res);
  });

  return router;
}

import { Router } from 'express';
import { sendList } from '../../lib/envelope.js';

/** Public, unauthenticated: clients use tranquility as a ping. */
export function tranquilityRouter(): Router {
  const router = Router();
  router.get('/tranquility', (_req, res) => {
    sendList(res, 'tranquility', [{ meaning: 'All is calm: the Ringbook API is up and listening.' }], {
      page: 1, page_size: 1, total_results: 1, total_pages: 1,
    });
  });
  return router;
}

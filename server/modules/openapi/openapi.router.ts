import crypto from 'node:crypto';
import { Router } from 'express';
import { apiParts } from '../../contracts/operations/index.js';
import { buildDocument } from './openapi.document.js';

type Served = { body: string; etag: string };
let served: Served | undefined;

/**
 * Built on its first request in a process, then the same bytes for every request and every app: building it (zod's
 * JSON Schemas of every contract) was a tenth of a process's start, which most processes never need.
 */
function document(): Served {
  if (!served) {
    const body = JSON.stringify(buildDocument(apiParts));
    served = { body, etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  }
  return served;
}

/**
 * GET /rest/1/openapi.json: public, like the ping. Unlike the API's private answers it may be cached: it changes only
 * with a new version of the server, which the ETag tells.
 */
export function openapiRouter(): Router {
  const router = Router();
  router.get('/openapi.json', (req, res) => {
    const { body, etag } = document();
    res.set({ 'Cache-Control': 'public, max-age=300', ETag: etag });
    if (req.fresh) return void res.status(304).end();
    res.type('application/json').send(body);
  });
  return router;
}

import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import { bulkJobIdParam, createBulkJobBody } from '../../contracts/bulk-jobs.js';
import { sendSuccess } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import { createJob, jobOf, type BulkJobsDeps } from './bulk-jobs.service.js';

/** Bulk changes to contacts as background jobs (extension): 202 with the job, then its progress by id. */
export function bulkJobsRouter(ctx: BulkJobsDeps): Router {
  const router = Router();
  router.post('/bulkjobs', async (req, res) => {
    sendSuccess(res, 202, 'job', await createJob(ctx, authOf(req), parse(createBulkJobBody, req.body)));
  });
  router.get('/bulkjobs/:bulk_job_id', async (req, res) => {
    sendSuccess(res, 200, 'job', await jobOf(ctx, authOf(req), parse(bulkJobIdParam, req.params).bulk_job_id));
  });
  return router;
}

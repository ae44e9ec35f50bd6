import { Router } from 'express';
import type { ClockRecord } from '../../contracts/system.js';
import { sendList, sendSuccess } from '../../lib/envelope.js';
import { now } from '../../lib/time.js';

/** Public, unauthenticated: clients use tranquility as a ping. */
export function tranquilityRouter(): Router {
  const router = Router();
  router.get('/tranquility', (_req, res) => {
    sendList(res, 'tranquility', [{ meaning: 'All is calm: the Ringbook API is up and listening.' }], {
      page: 1,
      page_size: 1,
      total_results: 1,
      total_pages: 1,
    });
  });
  return router;
}

/**
 * The server's clock (extension), for members: date ranges such as the usage screen's "last 7 days" count back from
 * the server's today, which is the day the API's dates mean even when the server's clock runs from CLOCK_START.
 */
export function clockRouter(): Router {
  const router = Router();
  router.get('/clock', (_req, res) => {
    const at = now();
    const clock: ClockRecord = { now: at, today: at.slice(0, 10) };
    sendSuccess(res, 200, 'clock', clock);
  });
  return router;
}

/*
 * The server's own facts the web app reads (extensions). Browser-safe: types only.
 */

/** GET /rest/1/clock: the server's clock (it may run from CLOCK_START), UTC like every timestamp of the API. */
export type ClockRecord = { now: string; today: string };

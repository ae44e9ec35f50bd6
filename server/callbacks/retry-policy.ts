/** How long one delivery may take before it counts as failed (the sender's timeoutMs in production). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** A callback is retried until at least this long after it was created, then marked failed. */
export const GIVE_UP_AFTER_MS = 24 * 3600_000;

const FIRST_DELAY_MS = 5_000;
const MAX_DELAY_MS = 3600_000;

/**
 * When to try again after `attempts` failed deliveries, or null to give up. The delay doubles from 5 s up to
 * 1 hour, then "equal jitter" takes it down by a random 0-50 %, so receivers coming back from an outage are not
 * hit by every waiting callback in the same second. The attempt that crosses the 24-hour mark is still made.
 */
export function nextAttemptAt(createdAtMs: number, attempts: number, nowMs: number, random: () => number): number | null {
  if (nowMs - createdAtMs >= GIVE_UP_AFTER_MS) return null;
  const doublings = Math.max(0, attempts - 1);
  // Past 2^10 the cap applies anyway; stopping there keeps the power finite for any attempt count.
  const delay = Math.min(FIRST_DELAY_MS * 2 ** Math.min(doublings, 10), MAX_DELAY_MS);
  return nowMs + Math.round(delay * (0.5 + random() / 2));
}

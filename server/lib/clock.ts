/*
 * The wall clock the product reads: now() for timestamps, calling hours and retry times. It runs as real time does,
 * from an offset that tests and demos may set (CLOCK_START, or setClock in a test), so that what depends on the hour
 * (calling hours) is the same at any hour of the day. Durations and timers use the real clock.
 */
let offsetMs = 0;

export const nowMs = () => Date.now() + offsetMs;

export const currentDate = () => new Date(nowMs());

/** The clock reads `instant` at the real time `asOfMs` (now, unless given), and runs on from it. */
export function setClock(instant: Date, asOfMs = Date.now()): void {
  // Whole milliseconds: times are stored as such (a fraction is refused by PostgreSQL's bigint).
  offsetMs = Math.round(instant.getTime() - asOfMs);
}

export function resetClock(): void {
  offsetMs = 0;
}

/**
 * Runs `work` with the clock `ms` behind, then puts it back as it was: demo data that tells a history (contacts made
 * before they were called) is written at the times it tells. Only for seeding, before anything else reads the clock.
 */
export async function withClockBack<T>(ms: number, work: () => Promise<T>): Promise<T> {
  offsetMs -= ms;
  try {
    return await work();
  } finally {
    offsetMs += ms;
  }
}

/*
 * The wall clock the product reads: now() for timestamps, calling hours and retry times. It runs as real time does,
 * from an offset that tests and demos may set (CLOCK_START, or setClock in a test), so that what depends on the hour
 * (calling hours) is the same at any hour of the day. Durations and timers use the real clock.
 */
let offsetMs = 0;

export const nowMs = () => Date.now() + offsetMs;

export const currentDate = () => new Date(nowMs());

/** From now on the clock reads `instant`, then runs on from it. */
export function setClock(instant: Date): void {
  offsetMs = instant.getTime() - Date.now();
}

export function resetClock(): void {
  offsetMs = 0;
}

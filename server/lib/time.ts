import { currentDate } from './clock.js';

/** Wire and store format for timestamps: UTC, 'YYYY-MM-DD HH:MM:SS'. */
const ZERO_TIMESTAMP = '0000-00-00 00:00:00';
const ZERO_DATE = '0000-00-00';

export function toTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function now(): string {
  return toTimestamp(currentDate());
}

/** Milliseconds since the epoch of a stored timestamp. */
export const parseTimestamp = (timestamp: string) => Date.parse(`${timestamp.replace(' ', 'T')}Z`);

export function addSeconds(timestamp: string, seconds: number): string {
  return toTimestamp(new Date(parseTimestamp(timestamp) + seconds * 1000));
}

export const timestampOrZero = (value: string | null | undefined) => value || ZERO_TIMESTAMP;
export const dateOrZero = (value: string | null | undefined) => value || ZERO_DATE;

import type { Store } from '../db/database.js';
import { rateLimited } from '../lib/errors.js';
import { addSeconds, now, parseTimestamp } from '../lib/time.js';
import { countAttempts, deleteAttemptCounts, uncountAttempts } from './auth.repository.js';

/*
 * Sign-in attempts are counted in the store (so every server process and restart shares them), per 15-minute
 * window, under three keys. The rule, and why (docs/api.md, "Web sessions"):
 * - an account from one address: 5 attempts. This is what stops guessing, and what a stranger's failures can
 *   never use up for anyone else: they count under the stranger's own address.
 * - one address, whatever the account: 20 attempts, so one client cannot work through many accounts.
 * - one account from anywhere: 50 attempts, against guessing spread over many addresses. A browser that has
 *   signed in to the account before (its device cookie) is exempt, so an attack on an account from elsewhere
 *   cannot lock its owner out; a new browser meets this limit only once 50 guesses were made within the window.
 * Each attempt is counted, by an atomic increment per key, before its password is checked: a burst of parallel
 * requests gets no more checks than the limits, whichever process serves them. A successful sign-in gives its attempt back
 * and clears the account-and-address count.
 */
export const WINDOW_SECONDS = 15 * 60;
export const SIGN_IN_LIMITS = { pair: 5, address: 20, account: 50 } as const;

export type SignInAttempt = { username: string; ip: string; knownBrowser: boolean };

type Key = { key: string; limit: number; checked: boolean };

function keysOf(a: SignInAttempt): Key[] {
  const account = a.username.trim().toLowerCase();
  return [
    { key: `pair:${account}|${a.ip}`, limit: SIGN_IN_LIMITS.pair, checked: true },
    { key: `ip:${a.ip}`, limit: SIGN_IN_LIMITS.address, checked: true },
    { key: `user:${account}`, limit: SIGN_IN_LIMITS.account, checked: !a.knownBrowser },
  ];
}

/** Thrown inside the counting transaction to undo its counts: a refused attempt counts nothing. */
class Refused extends Error {
  constructor(readonly until: string) {
    super('refused');
  }
}

/**
 * Counts an attempt, or refuses it with 429 and Retry-After when one of its limits is already reached. Each count is
 * one atomic upsert (docs/store.md, the concurrency contract): the attempt is counted first, and if that took a
 * checked key past its limit the transaction is rolled back, so parallel attempts on any number of servers get no
 * more password checks than the limits.
 */
export async function admitSignIn(store: Store, attempt: SignInAttempt): Promise<void> {
  const keys = keysOf(attempt);
  let refusedUntil: string | null = null;
  try {
    await store.write(async (tx) => {
      const at = now();
      const counted = new Map(
        (
          await countAttempts(
            tx,
            keys.map((k) => k.key),
            at,
            addSeconds(at, -WINDOW_SECONDS),
          )
        ).map((r) => [r.key, r]),
      );
      const full = keys.filter((k) => k.checked && counted.get(k.key)!.attempts > k.limit);
      if (full.length)
        throw new Refused(
          full
            .map((k) => addSeconds(counted.get(k.key)!.window_started_at, WINDOW_SECONDS))
            .sort()
            .pop()!,
        );
    });
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    refusedUntil = error.until;
  }
  if (refusedUntil) {
    const seconds = Math.max(1, Math.ceil((parseTimestamp(refusedUntil) - parseTimestamp(now())) / 1000));
    throw rateLimited(`Too many sign-in attempts. Try again in ${seconds} seconds.`, seconds);
  }
}

/** After a successful sign-in: its attempt is given back to the address and the account, and the pair starts over. */
export async function settleSignIn(store: Store, attempt: SignInAttempt): Promise<void> {
  const [pair, ...shared] = keysOf(attempt);
  await store.write(async (tx) => {
    await deleteAttemptCounts(tx, [pair!.key]);
    await uncountAttempts(
      tx,
      shared.map((k) => k.key),
      addSeconds(now(), -WINDOW_SECONDS),
    );
  });
}

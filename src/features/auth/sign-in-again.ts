import { useSyncExternalStore } from 'react';

/*
 * The session ended while the user was working: every request that found out waits on one prompt to sign in
 * again, over the current screen. It settles once, for all of them: true (signed in again: send again) or
 * false (the user gave up: the requests fail, and the app goes to the sign-in page).
 */

type Pending = { promise: Promise<boolean>; resolve: (resumed: boolean) => void };

let pending: Pending | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

export function requestSignInAgain(): Promise<boolean> {
  if (!pending) {
    let resolve!: (resumed: boolean) => void;
    const promise = new Promise<boolean>((r) => (resolve = r));
    pending = { promise, resolve };
    notify();
  }
  return pending.promise;
}

export function settleSignInAgain(resumed: boolean): void {
  const current = pending;
  pending = null;
  current?.resolve(resumed);
  notify();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether requests are waiting for the user to sign in again. */
export function useSignInAgainRequested(): boolean {
  return useSyncExternalStore(subscribe, () => pending !== null);
}

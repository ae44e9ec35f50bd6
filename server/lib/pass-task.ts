import type { Store } from '../db/database.js';
import { claimPass, type Pass, passDue, releasePass, renewPass } from '../db/passes.js';
import { nowMs } from './clock.js';
import type { LeaseTask } from './lease-loop.js';

/**
 * A periodic pass as a lease loop's task (a loop of concurrency 1): the claim leases the pass's row while it is due
 * (db/passes.ts), so one server passes at a time on either store; the loop renews the lease while the pass runs. A
 * pass that ends sets the next one `everyMs` later; one stopped half-way (its signal) lets go of the lease without
 * moving the due time, so another server passes at its next look. `run` catches what it can go on from: a throw
 * leaves the lease to run out, and the pass is tried again then.
 */
export function passTask(store: Store, pass: Pass, run: (signal: AbortSignal) => Promise<void>): LeaseTask<Pass> {
  return {
    name: `${pass.name} pass`,
    anyDue: (db, at) => passDue(db, pass, at),
    claim: async (tx, owner, at, untilMs) => ((await claimPass(tx, pass, owner, at, untilMs)) ? [pass] : []),
    renew: (tx, _, owner, untilMs) => renewPass(tx, pass, owner, untilMs),
    work: async (_, lease) => {
      await run(lease.signal);
      const next = lease.signal.aborted ? undefined : nowMs() + pass.everyMs;
      await store.write((tx) => releasePass(tx, pass, lease.owner, next));
    },
  };
}

import { describeUrl } from './address-guard.js';

/** A callback's destination, which slots are counted by: its URL's scheme, host and port (its origin). */
export const destinationOf = (url: string): string => describeUrl(url);

export type Candidate = { id: number; url: string };

export type SlotLimits = {
  /** Sends in flight in the process at most. */
  total: number;
  /** Sends in flight to one destination at most, unless it answers promptly: all a slow or dead receiver holds. */
  perDestination: number;
  /** What a destination's limit grows to, by one for each send shorter than promptMs (one busy receiver needs it). */
  perPromptDestination: number;
  promptMs: number;
};

type Destination = { inFlight: number; limit: number };

const REMEMBERED = 1_000;

/**
 * The deliveries one process has in flight, counted by destination so that a receiver that answers slowly or never
 * holds `perDestination` slots at most and every other receiver's callbacks go on. A receiver that answers promptly
 * earns more, one slot per prompt answer, up to `perPromptDestination`; one slow send puts it back. A prompt
 * destination is remembered while idle, so a steady stream of callbacks keeps its slots, up to REMEMBERED of them.
 */
export class DeliverySlots {
  private readonly destinations = new Map<string, Destination>();
  private used = 0;

  constructor(private readonly limits: SlotLimits) {}

  get free(): number {
    return this.limits.total - this.used;
  }

  /** Destinations without a free slot: the claim leaves their rows to other processes, or to later. */
  full(): string[] {
    return [...this.destinations].filter(([, d]) => d.inFlight >= d.limit).map(([name]) => name);
  }

  /** The candidates (oldest first) that fit in the free slots, each destination within its limit. */
  choose(candidates: Candidate[]): number[] {
    const added = new Map<string, number>();
    const chosen: number[] = [];
    for (const { id, url } of candidates) {
      if (chosen.length >= this.free) break;
      const name = destinationOf(url);
      const d = this.destinations.get(name);
      const n = (d?.inFlight ?? 0) + (added.get(name) ?? 0);
      if (n >= (d?.limit ?? this.limits.perDestination)) continue;
      added.set(name, (added.get(name) ?? 0) + 1);
      chosen.push(id);
    }
    return chosen;
  }

  take(url: string): void {
    const name = destinationOf(url);
    const d = this.destinations.get(name) ?? { inFlight: 0, limit: this.limits.perDestination };
    d.inFlight++;
    this.destinations.set(name, d);
    this.used++;
  }

  /** A send to `url` ended after `ms`. */
  give(url: string, ms: number): void {
    const name = destinationOf(url);
    const d = this.destinations.get(name);
    if (!d) return;
    this.used--;
    d.inFlight--;
    d.limit = ms < this.limits.promptMs ? Math.min(d.limit + 1, this.limits.perPromptDestination) : this.limits.perDestination;
    if (d.inFlight === 0 && d.limit === this.limits.perDestination) this.destinations.delete(name);
    if (this.destinations.size > REMEMBERED) this.forgetIdle();
  }

  private forgetIdle() {
    for (const [name, d] of this.destinations) if (d.inFlight === 0) this.destinations.delete(name);
  }
}

import { nextTurn } from '../../db/chunks.js';
import type { Db } from '../../db/database.js';
import type { Signals, Unlisten } from '../../db/signals.js';
import {
  DIAL_EVENTS_CHANNEL,
  type DialEventRow,
  EVENT_PAGE,
  eventsAfter,
  eventsSince,
  lastEventId,
  settledEventId,
} from './dial-events.repository.js';

type Listener = {
  sessionId: number;
  /** The last event id the stream has (given here, or before it resumed). */
  cursor: number;
  /** Served by the shared tail; until then it catches up on its own session's events. */
  joined: boolean;
  onEvent: (row: DialEventRow) => void;
  onClose: () => void;
};

/**
 * Passes dial events on to this process's open dialer streams. Events are rows in the store (their ids are the
 * streams' event ids), written by whichever process ran the session's step, so this process reads what is new:
 * at once when it wrote something itself (`poke`) or, on PostgreSQL, when another server's write of events commits
 * (`signals`, LISTEN/NOTIFY on the `dial_events` channel: `insertEvent` signals it); otherwise every `pollMs` while
 * any stream is open (SQLite's processes, on one machine), or every `signalledPollMs` as a safety net when signals
 * are heard.
 *
 * One query over every session, the shared tail, reads past `position`, the last id the hub has passed on, and
 * serves every stream that has joined it. A stream that starts behind that position (Last-Event-ID, `after`) first
 * reads its own session's events up to it, a page at a time, then joins: resuming from 0 costs its own session's
 * events, never everyone's, and never holds back the others. Between pages the hub lets the process answer other
 * requests. When no stream follows the tail, its position moves to the store's last event.
 * (PostgreSQL may commit ids out of order; the tail would then stop short of the oldest open transaction's ids.)
 */
export class DialEventHub {
  private readonly listeners = new Set<Listener>();
  private position = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private unlisten: Promise<Unlisten | null> | null = null;

  constructor(
    private readonly db: Db,
    private readonly options: { pollMs?: number; signals?: Signals; signalledPollMs?: number; onError?: (error: unknown) => void } = {},
  ) {}

  private get pollMs() {
    return this.options.signals ? (this.options.signalledPollMs ?? 5_000) : (this.options.pollMs ?? 200);
  }

  /** Follows one session's events after `after`; answers the way to stop. */
  subscribe(sessionId: number, after: number, onEvent: Listener['onEvent'], onClose: Listener['onClose']): () => void {
    if (this.closed) {
      onClose();
      return () => undefined;
    }
    const cursor = Number.isFinite(after) && after > 0 ? Math.floor(after) : 0;
    const listener = { sessionId, cursor, joined: false, onEvent, onClose };
    this.listeners.add(listener);
    this.timer ??= setInterval(() => this.poke(), this.pollMs).unref();
    this.listen();
    this.poke();
    return () => this.remove(listener);
  }

  private remove(listener: Listener) {
    this.listeners.delete(listener);
    if (!this.listeners.size) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.stopListening();
    }
  }

  /** Hears other servers' events while a stream is open here (PostgreSQL). */
  private listen() {
    const { signals } = this.options;
    if (!signals || this.unlisten) return;
    this.unlisten = signals
      .listen(DIAL_EVENTS_CHANNEL, () => this.poke())
      .catch((error) => {
        // The store is away: the safety poll goes on, and the next stream tries again.
        this.options.onError?.(error);
        this.unlisten = null;
        return null;
      });
  }

  private stopListening() {
    const pending = this.unlisten;
    this.unlisten = null;
    void pending?.then((stop) => stop?.());
  }

  /**
   * Passes on what the store holds now, before a stream is ended for its credential (the member removed, signed out):
   * the write that ended the credential may have ended the session too, and the screen should hear that last. Waits
   * for a read that starts now (and any it asks for) to end, and for at most `withinMs`.
   */
  async flush(withinMs = 2_000): Promise<void> {
    this.poke();
    const reads = (async () => {
      while (this.polling) await this.polling;
    })();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([reads, new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs).unref()))]);
    clearTimeout(timer);
  }

  /** Reads what is new now (a write here has just committed). */
  poke(): void {
    if (!this.listeners.size || this.closed) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = this.poll().finally(() => {
      this.polling = null;
      if (this.again) {
        this.again = false;
        this.poke();
      }
    });
  }

  private async poll() {
    try {
      for (;;) {
        let more = await this.readTail();
        for (const listener of [...this.listeners]) {
          if (listener.joined || !this.listeners.has(listener)) continue;
          await nextTurn();
          more = (await this.catchUp(listener)) || more;
        }
        if (!more || this.closed) return;
        await nextTurn();
      }
    } catch {
      // The store was busy or closing: the next poke reads from the same position and cursors.
    }
  }

  /** A page of every session's events past the position, to the streams that have joined; answers whether more may follow. */
  private async readTail(): Promise<boolean> {
    // Never past an id still being written: on PostgreSQL ids commit out of order (db/locks.ts, settledMaxId).
    const settled = await settledEventId(this.db);
    if (![...this.listeners].some((l) => l.joined)) {
      this.position = settled;
      return false;
    }
    const rows = await eventsSince(this.db, this.position, settled);
    for (const row of rows) {
      for (const listener of this.listeners) {
        if (listener.joined && listener.sessionId === row.session_id && listener.cursor < row.id) this.deliver(listener, row);
      }
    }
    if (rows.length) this.position = rows[rows.length - 1]!.id;
    return rows.length === EVENT_PAGE;
  }

  /** A page of one stream's own session up to the position; once it has them all, it joins the tail. */
  private async catchUp(listener: Listener): Promise<boolean> {
    const upTo = this.position;
    if (listener.cursor >= upTo) {
      // Ahead of this hub (seen through another process), or of every event (a made-up id: taken as now).
      if (listener.cursor > upTo) listener.cursor = Math.min(listener.cursor, await lastEventId(this.db));
      listener.joined = true;
      return false;
    }
    const rows = await eventsAfter(this.db, listener.sessionId, listener.cursor, upTo);
    if (!this.listeners.has(listener)) return false;
    for (const row of rows) this.deliver(listener, row);
    if (rows.length === EVENT_PAGE) return true;
    listener.joined = true;
    return false;
  }

  /** A stream that cannot take an event (its client has gone) is dropped, so it cannot hold up the others. */
  private deliver(listener: Listener, row: DialEventRow) {
    listener.cursor = row.id;
    try {
      listener.onEvent(row);
    } catch {
      this.remove(listener);
      listener.onClose();
    }
  }

  /** Ends every open stream (the server is shutting down). */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.stopListening();
    for (const listener of this.listeners) listener.onClose();
    this.listeners.clear();
  }
}

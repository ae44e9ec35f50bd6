import type { Db } from '../../db/database.js';
import { type DialEventRow, eventsSince } from './dial-events.repository.js';

type Listener = { sessionId: number; cursor: number; onEvent: (row: DialEventRow) => void; onClose: () => void };

const PAGE = 1000;

/**
 * Passes dial events on to this process's open dialer streams. Events are rows in the store (their ids are the
 * streams' event ids), written by whichever process ran the session's step, so this process reads what is new:
 * at once when it wrote something itself (`poke`), otherwise every `pollMs` while any stream is open. One query,
 * from the oldest cursor of its listeners, serves every open stream; each listener has its own cursor, so a stream
 * that resumes from an earlier id (Last-Event-ID) is given what it missed by the same path as what comes next.
 */
export class DialEventHub {
  private readonly listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly pollMs = 200,
  ) {}

  /** Follows one session's events after `after`; answers the way to stop. */
  subscribe(sessionId: number, after: number, onEvent: Listener['onEvent'], onClose: Listener['onClose']): () => void {
    if (this.closed) {
      onClose();
      return () => undefined;
    }
    const listener = { sessionId, cursor: after, onEvent, onClose };
    this.listeners.add(listener);
    this.timer ??= setInterval(() => this.poke(), this.pollMs).unref();
    this.poke();
    return () => {
      this.listeners.delete(listener);
      if (!this.listeners.size) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
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
        const from = Math.min(...[...this.listeners].map((l) => l.cursor));
        const rows = await eventsSince(this.db, from, PAGE);
        if (!rows.length) return;
        for (const row of rows) {
          for (const listener of this.listeners) {
            if (listener.sessionId === row.session_id && listener.cursor < row.id) listener.onEvent(row);
          }
        }
        const last = rows[rows.length - 1]!.id;
        for (const listener of this.listeners) listener.cursor = Math.max(listener.cursor, last);
        if (rows.length < PAGE) return;
      }
    } catch {
      // The store was busy or closing: the next poke reads from the same cursors.
    }
  }

  /** Ends every open stream (the server is shutting down). */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    for (const listener of this.listeners) listener.onClose();
    this.listeners.clear();
  }
}

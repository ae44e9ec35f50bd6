import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { isPostgres } from './dialect.js';

/*
 * Signals between servers sharing a store: "something was written to <channel>, read it". A writer signals inside its
 * transaction (`signal`); every server listening to the channel hears it once the transaction commits, never before
 * and never if it rolls back. On PostgreSQL that is LISTEN/NOTIFY over one connection of each server's own; on SQLite
 * `signal` does nothing and a store has no `Signals`: its processes, all on one machine, poll.
 *
 * A signal says only that something changed, never what: a listener reads the store. Signals sent while a listener's
 * connection was down are lost, so when it connects again every listener is told once, as if signalled, and reads.
 */

export type Unlisten = () => Promise<void>;

export type Signals = {
  /** Calls `onSignal` after each commit that signalled `channel` (several commits may make one call). */
  listen(channel: string, onSignal: () => void): Promise<Unlisten>;
  close(): Promise<void>;
};

const CHANNEL = /^[a-z][a-z0-9_]{0,62}$/;

function channelName(channel: string): string {
  if (!CHANNEL.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  return channel;
}

/** The channels each open transaction has signalled: PostgreSQL folds a transaction's identical notifications into one. */
const signalled = new WeakMap<Kysely<any>, Set<string>>();

/**
 * In a write: every server listening to `channel` hears of it once the write commits (PostgreSQL; SQLite: nothing).
 * Sent once per transaction, however many times it is called (one event or five thousand cost one statement). A
 * savepoint rolled back takes its notification with it, and a later call in the transaction does not send it again:
 * listeners then learn of that write at their next safety poll.
 */
export async function signal(tx: Kysely<any>, channel: string): Promise<void> {
  if (!isPostgres(tx)) return;
  const name = channelName(channel);
  const sent = signalled.get(tx) ?? new Set<string>();
  if (sent.has(name)) return;
  signalled.set(tx, sent.add(name));
  await sql`select pg_notify(${name}, '')`.execute(tx);
}

export type PostgresSignalsOptions = {
  /** Pause before connecting again after the connection was lost, doubled up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  onError?: (error: unknown) => void;
};

/**
 * One LISTEN connection per server process, outside the pool (a pooled connection would be handed to queries), opened
 * at the first `listen` and opened again after any loss, with a growing pause while the database is away.
 */
export function postgresSignals(url: string, options: PostgresSignalsOptions = {}): Signals {
  const retryMs = options.retryMs ?? 250;
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  const handlers = new Map<string, Set<() => void>>();
  let client: pg.Client | null = null;
  /** The channels the current connection has LISTENed to. */
  let listening = new Set<string>();
  let connecting: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let pause = retryMs;
  let closed = false;

  const tell = (channel: string) => {
    for (const handler of [...(handlers.get(channel) ?? [])]) handler();
  };

  function connectSoon() {
    if (closed || connecting || client || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, pause).unref();
    pause = Math.min(pause * 2, maxRetryMs);
  }

  function connect(): Promise<void> {
    if (closed) return Promise.resolve();
    if (client) return Promise.resolve();
    connecting ??= (async () => {
      const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
      c.on('notification', (message) => tell(message.channel));
      // The 'end' that follows an error is what starts the reconnection; an unheard 'error' would end the process.
      c.on('error', (error) => options.onError?.(error));
      c.on('end', () => {
        if (client === c) client = null;
        connectSoon();
      });
      try {
        await c.connect();
        const heard = new Set<string>();
        for (const channel of handlers.keys()) {
          await c.query(`listen ${channel}`);
          heard.add(channel);
        }
        if (closed) {
          await c.end();
          return;
        }
        client = c;
        listening = heard;
        pause = retryMs;
        // Whatever was signalled while nobody here listened is read now.
        for (const channel of handlers.keys()) tell(channel);
      } catch (error) {
        options.onError?.(error);
        c.end().catch(() => undefined);
      }
    })().finally(() => {
      connecting = null;
      if (!client) connectSoon();
    });
    return connecting;
  }

  return {
    async listen(channel, onSignal) {
      const name = channelName(channel);
      let set = handlers.get(name);
      if (!set) handlers.set(name, (set = new Set()));
      set.add(onSignal);
      if (!client) await connect();
      // A channel new to a connection that was already open (or was opening when it came).
      if (client && !listening.has(name)) {
        listening.add(name);
        await client.query(`listen ${name}`).catch((error) => options.onError?.(error));
      }
      return async () => {
        set.delete(onSignal);
        if (set.size || handlers.get(name) !== set) return;
        handlers.delete(name);
        listening.delete(name);
        await client?.query(`unlisten ${name}`).catch(() => undefined);
      };
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      handlers.clear();
      await connecting;
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

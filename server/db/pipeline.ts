import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';

/*
 * Several statements of one transaction in one round trip (PostgreSQL's extended protocol, pipelined).
 *
 * `pg` sends a statement and waits for its answer before it sends the next: each statement is a write to the socket,
 * a wake-up of the server's backend, its answer and a wake-up of ours. On two cores shared with the database those
 * wake-ups cost more than the statements (a create spent a quarter of the server's CPU in the socket's writes).
 * Statements whose answers nobody waits for before the next one is sent (a transaction's BEGIN, inserts held by
 * `insertLater`, key locks, the commit after what is held) go in one write here: each as Parse (when its connection
 * has not parsed it yet), Bind, Describe and Execute, all followed by one Sync. The server runs them in order, each a
 * statement of its own that sees what the ones before it wrote; the first that fails makes it skip the rest up to the
 * Sync and answer that error, so the pipeline fails as a whole and the transaction is aborted (it is inside BEGIN, which
 * the store's writes always are: docs/store.md, "Queries").
 *
 * It is one of `pg`'s query objects (a Submittable), so the client queues and answers it like any other: `pg` already
 * keeps one result per statement when a query's answer holds several. What `pg` does for a named statement's Parse
 * (remembering that the connection has it) is done here, by counting the Parse answers that came: after a failure
 * only those statements are known to the connection.
 */

export type Statement = { text: string; values: readonly unknown[]; name?: string };

/** The parts of `pg`'s connection (lib/connection.js) a query object is handed and the pipeline writes through. */
type Connection = {
  parse(message: { text: string; name: string }): void;
  bind(message: { statement: string; values: unknown[]; valueMapper?: (value: unknown) => unknown }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string }): void;
  sync(): void;
  on(event: 'parseComplete', listener: () => void): void;
  off(event: 'parseComplete', listener: () => void): void;
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
};

/** pg.Query's parts the pipeline takes over (they are not in its typings). */
type QueryInternals = {
  requiresPreparation(): boolean;
  prepare(connection: Connection): void;
  handleReadyForQuery(connection: Connection): void;
  handleError(error: Error, connection: Connection): void;
  callback?: (error: Error | null, results?: pg.QueryResult | pg.QueryResult[]) => void;
};

const QueryBase = pg.Query as unknown as new (config: { text: string }) => QueryInternals;

class Pipeline extends QueryBase {
  /** Parse messages sent, named or not: the server answers each in order, up to the first failure. */
  private parses = 0;
  /** The named statements this pipeline parses, each with the place of its Parse message among them all. */
  private readonly naming: { name: string; text: string; at: number }[] = [];
  private parsed = 0;
  private readonly onParsed = () => void this.parsed++;
  private connection: Connection | undefined;

  constructor(private readonly statements: { text: string; name: string; values: unknown[] }[]) {
    super({ text: statements[statements.length - 1]!.text });
  }

  override requiresPreparation() {
    return true;
  }

  /** Called by pg.Query's submit with the socket corked: every message goes in one write. */
  override prepare(connection: Connection) {
    this.connection = connection;
    for (const { text, name, values } of this.statements) {
      if (!name || !(name in connection.parsedStatements || name in connection.submittedNamedStatements)) {
        connection.parse({ text, name });
        if (name) {
          this.naming.push({ name, text, at: this.parses });
          connection.submittedNamedStatements[name] = text;
        }
        this.parses++;
      }
      connection.bind({ statement: name, values });
      connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '' });
    }
    connection.sync();
    if (this.naming.length) connection.on('parseComplete', this.onParsed);
  }

  override handleReadyForQuery(connection: Connection) {
    this.settleNames(this.parses);
    super.handleReadyForQuery(connection);
  }

  override handleError(error: Error, connection: Connection) {
    // Statements after the one that failed were not parsed: only the answered Parse messages made statements.
    this.settleNames(this.parsed);
    super.handleError(error, connection);
  }

  /** The connection's record of its named statements, once `made` of this pipeline's Parse messages were answered. */
  private settleNames(made: number) {
    const connection = this.connection;
    if (!connection || !this.naming.length) return;
    connection.off('parseComplete', this.onParsed);
    for (const { name, text, at } of this.naming) {
      delete connection.submittedNamedStatements[name];
      if (at < made) connection.parsedStatements[name] = text;
    }
    this.naming.length = 0;
  }
}

/**
 * Runs `statements` on `client` in one round trip, in order, and answers each one's result. A value that cannot be
 * sent throws before anything is written; a statement that fails fails them all (the server skips the rest).
 */
export function pipelined(client: pg.ClientBase, statements: Statement[]): Promise<pg.QueryResult[]> {
  // Values mapped as pg maps them, before any message is written: a mapping that throws leaves the socket untouched.
  const prepared = statements.map(({ text, name, values }) => ({ text, name: name ?? '', values: values.map(pgUtils.prepareValue) }));
  const pipeline = new Pipeline(prepared);
  return new Promise((resolve, reject) => {
    pipeline.callback = (error, results) => {
      if (error) return reject(error);
      const all = Array.isArray(results) ? results : [results!];
      if (all.length !== statements.length)
        return reject(new Error(`A pipeline of ${statements.length} statements was answered with ${all.length} results.`));
      resolve(all);
    };
    client.query(pipeline as unknown as pg.Submittable);
  });
}

import { CompiledQuery, type Kysely } from 'kysely';
import { closeBatch, dropBatch, openBatch } from './batch-end.js';

type Job = { work: (tx: Kysely<any>) => Promise<unknown>; resolve: (value: unknown) => void; reject: (error: unknown) => void };

const MAX_BATCH = 64;
/** How long a batch waits, by default, for another process to release the write lock before its writers fail. */
const LOCK_WAIT_MS = 5_000;
/*
 * Another worker's batch holds the lock for a few milliseconds. Asking again at every turn of the event loop
 * for that long takes the lock as soon as it is free (a 1 ms timer left it idle half the time: 890 against
 * 1,150 creates/s with two workers); a longer hold, such as the admin command's, is polled every millisecond.
 */
const LOCK_SPIN_MS = 5;
const LOCK_RETRY_MS = 1;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The batch's own statements, compiled once. */
const BEGIN = CompiledQuery.raw('begin immediate');
const SAVEPOINT = CompiledQuery.raw('savepoint writer');
const RELEASE = CompiledQuery.raw('release writer');
const ROLLBACK_TO = CompiledQuery.raw('rollback to writer');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/** Whether `error` is SQLite's error of this kind (its extended codes, such as SQLITE_BUSY_SNAPSHOT, included). */
export const isSqliteError = (error: unknown, kind: 'SQLITE_BUSY' | 'SQLITE_CONSTRAINT') => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith(kind);
};

/**
 * Write transactions with a shared commit. Writers that arrive while a transaction is open join it, each in
 * its own savepoint: a writer that fails is rolled back alone, the rest commit together with one fsync.
 * Nobody is told "done" before that commit is on disk, so nothing acknowledged is lost.
 *
 * SQLite's default BEGIN takes the write lock at the first write, so two transactions that read then write
 * can fail with SQLITE_BUSY; BEGIN IMMEDIATE takes it up front. Other processes (the other workers, the admin
 * command) may hold that lock. SQLite's own busy handler would wait by sleeping the thread, stalling every
 * request of this process, so the writer connection has no busy timeout and a batch that finds the lock taken
 * waits for it here, asynchronously, while more writers join the queue. The writer connection sits behind
 * Kysely's mutex for the whole batch, so a writer must use the transaction it is given.
 */
export class GroupCommit {
  private readonly queue: Job[] = [];
  private draining = false;

  constructor(
    private readonly db: Kysely<any>,
    private readonly lockWaitMs = LOCK_WAIT_MS,
  ) {}

  run<T>(work: (tx: Kysely<any>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  /*
   * better-sqlite3 answers synchronously, so a batch runs start to commit without letting the event loop read
   * new requests. Starting each batch on the next turn of the loop lets the writers of every request already
   * received join it.
   */
  private async drain() {
    try {
      let waitingSince: number | undefined;
      while (this.queue.length) {
        const locked = await this.db.connection().execute((conn) => this.batch(conn, waitingSince));
        if (locked) {
          waitingSince ??= Date.now();
          await (Date.now() - waitingSince < LOCK_SPIN_MS ? nextTurn() : sleep(LOCK_RETRY_MS));
          continue;
        }
        waitingSince = undefined;
        await nextTurn();
      }
    } finally {
      this.draining = false;
    }
  }

  /** Runs one batch; answers true, having run nothing, when another process holds the write lock. */
  private async batch(conn: Kysely<any>, waitingSince: number | undefined): Promise<boolean> {
    const done: { job: Job; result: unknown }[] = [];
    try {
      await conn.executeQuery(BEGIN);
      openBatch(conn);
    } catch (error) {
      if (isSqliteError(error, 'SQLITE_BUSY') && (waitingSince === undefined || Date.now() - waitingSince < this.lockWaitMs)) return true;
      for (const job of this.queue.splice(0)) job.reject(error);
      return false;
    }
    try {
      for (let n = 0; n < MAX_BATCH && this.queue.length; n++) {
        const job = this.queue.shift()!;
        await conn.executeQuery(SAVEPOINT);
        try {
          done.push({ job, result: await job.work(conn) });
          await conn.executeQuery(RELEASE);
        } catch (error) {
          await conn.executeQuery(ROLLBACK_TO);
          await conn.executeQuery(RELEASE);
          job.reject(error);
        }
      }
      // What the writers left for the batch's end (batch-end.ts) is part of their work: if it fails, none of them commits.
      await closeBatch(conn);
      await conn.executeQuery(COMMIT);
    } catch (error) {
      // The transaction itself failed (lock time-out, disk full): none of its writers is durable.
      dropBatch(conn);
      await conn.executeQuery(ROLLBACK).catch(() => undefined);
      for (const { job } of done) job.reject(error);
      return false;
    }
    for (const { job, result } of done) job.resolve(result);
    return false;
  }
}

import os from 'node:os';
import path from 'node:path';
import { OpenStreams } from './auth/open-streams.js';
import type { Config } from './config.js';
import type { Store } from './db/database.js';
import type { BulkJob, Recording } from './db/schema.js';
import { LeaseLoop } from './lib/lease-loop.js';
import type { Logger } from './lib/logger.js';
import { RecordCache } from './lib/record-cache.js';
import { createJobRunner } from './modules/bulk-jobs/job-runner.js';
import { createImportRunner } from './modules/imports/import-job.js';
import type { ImportRow } from './modules/imports/imports.repository.js';
import { createDialerRuntime, type DialerRuntime } from './modules/dial-sessions/dialer-runtime.js';
import { wake } from './modules/dial-sessions/dialing.service.js';
import { Housekeeper } from './modules/housekeeping/housekeeper.js';
import { fetchTask } from './modules/recordings/recordings.service.js';
import { createTranscription } from './modules/transcripts/transcription.service.js';
import { createPocketSphinxEngine } from './transcription/pocketsphinx.js';
import { fileRecordingStore, type RecordingStore } from './recordings/store.js';

/**
 * The composition root: a process built from the open store, the parsed configuration, the server key and the logger.
 * It holds this process's record cache, its open event streams, and its background work: the dialer runtime (carrier
 * client, event hub, callback delivery), the recordings (their store, and the job that fetches them from the
 * carrier), transcription, the bulk job runner and the housekeeper (retention), which whoever serves requests starts
 * (`startBackground`, given the address it listens at) and stops. Only index.ts and the test harness import this file:
 * each service and router names the narrow parts it takes (app.ts hands them out), and a Context has them all.
 */
export type Context = {
  store: Store;
  config: Config;
  secretKey: Buffer;
  logger: Logger;
  records: RecordCache;
  dialer: DialerRuntime;
  jobs: LeaseLoop<BulkJob>;
  /** CSV imports and their undo (modules/imports/import-job.ts). */
  imports: LeaseLoop<ImportRow>;
  housekeeper: Housekeeper;
  /** This process's open event streams, whose credentials are checked again while they last. */
  streams: OpenStreams;
  recordings: { store: RecordingStore; loop: LeaseLoop<Recording> };
  /** The transcription job (transcripts.service), when this process runs one. */
  transcription?: { nudge(): void; start(): void; stop(): Promise<void> };
};

/** Where recognizers get their audio: this machine's (server/index.ts clears what killed processes left). */
export const TRANSCRIPTION_TEMP = path.join(os.tmpdir(), 'ringbook-asr');

/** Recordings fetched at once per process: each is a download and a file write. */
const RECORDING_FETCHES = 4;

export function createContext(
  parts: Omit<Context, 'records' | 'dialer' | 'jobs' | 'imports' | 'housekeeper' | 'streams' | 'recordings' | 'transcription'>,
): Context {
  const store = fileRecordingStore(path.join(parts.config.dataDir, 'recordings'));
  const ctx = {
    ...parts,
    records: new RecordCache(parts.config.recordCacheSize),
    jobs: createJobRunner(parts.store, parts.logger),
    imports: createImportRunner(parts.store, parts.logger, parts.config.databaseUrl),
    housekeeper: new Housekeeper(parts.store, parts.logger, store),
    streams: new OpenStreams(parts.store.db, parts.config.session),
  } as Context;
  // Waking a due session drives it, which takes the runtime itself: the wake-ups reach it through the finished context.
  ctx.dialer = createDialerRuntime(ctx, (sessionId) => wake(ctx, sessionId));
  ctx.recordings = {
    store,
    loop: new LeaseLoop(parts.store, parts.logger, fetchTask(ctx), { concurrency: RECORDING_FETCHES, leaseMs: 120_000, pollMs: 1_000 }),
  };
  const { transcription } = parts.config;
  if (transcription.concurrency > 0) {
    const engine = transcription.engine === 'pocketsphinx' ? createPocketSphinxEngine({ tempDir: TRANSCRIPTION_TEMP }) : null;
    ctx.transcription = createTranscription(ctx, { engine, concurrency: transcription.concurrency, leaseMs: transcription.leaseMs });
  }
  return ctx;
}

export function startBackground(ctx: Context, listeningUrl?: string): void {
  ctx.dialer.start(listeningUrl);
  ctx.jobs.start();
  ctx.imports.start();
  ctx.housekeeper.start();
  ctx.recordings.loop.start();
  ctx.transcription?.start();
}

/** Stops background work; event streams end, and work in hand finishes its round first. */
export async function stopBackground(ctx: Context): Promise<void> {
  ctx.streams.closeAll();
  await Promise.all([
    ctx.dialer.stop(),
    ctx.jobs.stop(),
    ctx.imports.stop(),
    ctx.housekeeper.stop(),
    ctx.recordings.loop.stop(),
    ctx.transcription?.stop(),
  ]);
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import parseRange from 'range-parser';
import { z } from 'zod';
import { EventSender, type SendLog } from './event-sender.js';
import { createNetwork, isTerminal, type Network, type NetworkEvent, type Timeline } from './network.js';
import { placeCallCommand, playCommand, RECORDING_CONTENT_TYPE } from './protocol.js';

/*
 * The simulated carrier as a service of its own: one per deployment (npm start runs it beside the server's workers;
 * `npm run carrier` runs it alone for several machines). Any server process reaches any call by its id over HTTP, and
 * the calls' events go back to the status callback each call was placed with, which any server process may answer.
 */

/** Turns an answered call's timeline into a two-channel recording (the member left, the contact right). */
export type Recorder = {
  record(timeline: Timeline, timeScale: number): Promise<{ bytes: Buffer; durationSeconds: number }>;
  /** When the answering machines' beep ends, in seconds from their answer: a drop waits for it. */
  machineBeepEnd?(): Promise<number>;
};

export type CarrierServiceOptions = {
  secret: string;
  timeScale: number;
  /** Where recordings wait until Ringbook has fetched and deleted them. */
  recordingsDir: string;
  recorder?: Recorder;
  log?: SendLog;
};

export type CarrierService = { server: http.Server; network: Network; sender: EventSender; close(): Promise<void> };

type CallMeta = { statusCallback: string; record: boolean; answered?: boolean };

/** Ids of calls already placed are kept this long, so a command sent again is recognised as a repeat. */
const REMEMBER_CALLS = 100_000;

export function createCarrierService(options: CarrierServiceOptions): CarrierService {
  const log = options.log ?? (() => undefined);
  const sender = new EventSender(options.secret, log);
  const calls = new Map<string, CallMeta>();
  const placed = new Set<string>();
  fs.mkdirSync(options.recordingsDir, { recursive: true });
  const recordingFile = (callId: string) => path.join(options.recordingsDir, `${callId}.opus`);

  const report = (callId: string, event: NetworkEvent, atMs: number) => {
    const meta = calls.get(callId);
    if (!meta) return;
    sender.send(callId, meta.statusCallback, { ...event, at: new Date(atMs).toISOString() });
    if (event.kind === 'answered') meta.answered = true;
    // An answered call to record is forgotten once its recording is reported (onEnded runs right after its last event).
    if (isTerminal(event) && !(meta.record && meta.answered)) calls.delete(callId);
  };
  // Known once the recorder's voices are loaded (a moment after start); a drop before then does not wait for the beep.
  let beepEnd = 0;
  options.recorder?.machineBeepEnd?.().then(
    (s) => {
      beepEnd = s;
    },
    () => {},
  );
  const network = createNetwork({
    timeScale: options.timeScale,
    onEvent: report,
    onEnded: (t) => void recordCall(t),
    beepEndSeconds: () => beepEnd,
  });

  /*
   * Encoding is the carrier's heavy work (about 0.5 CPU-s a stereo minute). One call is encoded at a time, yielding
   * between seconds of audio, so commands and events are answered between chunks instead of behind twenty encodes at
   * once (a hang-up waited seconds, and timed out, when twenty calls ended together); the others wait their turn.
   */
  let encoding: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const turn = encoding.then(work, work);
    encoding = turn.catch(() => {});
    return turn;
  };

  async function recordCall(timeline: Timeline) {
    const meta = calls.get(timeline.callId);
    calls.delete(timeline.callId);
    if (!meta?.record || !options.recorder) return;
    const recorder = options.recorder;
    try {
      const { bytes, durationSeconds } = await oneAtATime(() => recorder.record(timeline, options.timeScale));
      await fs.promises.writeFile(recordingFile(timeline.callId), bytes);
      sender.send(timeline.callId, meta.statusCallback, {
        kind: 'recording',
        at: new Date().toISOString(),
        recording: {
          url: `/v1/recordings/${timeline.callId}`,
          content_type: RECORDING_CONTENT_TYPE,
          duration_seconds: durationSeconds,
          bytes: bytes.length,
          channels: ['member', 'contact'],
        },
      });
    } catch (error) {
      log('recording failed', { call: timeline.callId, error: (error as Error).message });
    }
  }

  const app = express();
  app.disable('x-powered-by');
  app.get('/v1/health', (_req, res) => void res.json({ status: 'ok' }));
  app.use('/v1', bearer(options.secret), express.json({ limit: '64kb' }));

  app.post('/v1/calls', (req, res) => {
    const command = placeCallCommand.parse(req.body);
    if (placed.has(command.call_id)) return void res.status(200).json({ call_id: command.call_id, status: 'exists' });
    remember(placed, command.call_id);
    calls.set(command.call_id, { statusCallback: command.status_callback, record: command.record });
    network.placeCall({
      callId: command.call_id,
      to: command.to,
      ringSeconds: command.ring_seconds,
      timeLimitSeconds: command.time_limit_seconds,
    });
    res.status(201).json({ call_id: command.call_id, status: 'queued' });
  });
  app.post('/v1/calls/:call_id/hangup', (req, res) => {
    network.hangUp(req.params.call_id);
    res.status(200).json({ call_id: req.params.call_id });
  });
  app.post('/v1/calls/:call_id/play', (req, res) => {
    const command = playCommand.parse(req.body);
    network.playVoicemail(req.params.call_id, { durationSeconds: command.duration_seconds, audioUrl: command.audio_url });
    res.status(202).json({ call_id: req.params.call_id });
  });
  app.get('/v1/recordings/:call_id', (req, res) => sendRecording(recordingFile(callIdOf(req.params.call_id)), req.get('range'), res));
  app.delete('/v1/recordings/:call_id', async (req, res) => {
    await fs.promises.rm(recordingFile(callIdOf(req.params.call_id)), { force: true });
    res.status(204).end();
  });
  app.use(answerErrors);

  const server = http.createServer(app);
  return {
    server,
    network,
    sender,
    close: async () => {
      network.close();
      sender.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function remember(placed: Set<string>, callId: string) {
  placed.add(callId);
  if (placed.size > REMEMBER_CALLS) placed.delete(placed.values().next().value!);
}

const callIdOf = (value: string) => {
  if (!/^\d{1,15}$/.test(value)) throw Object.assign(new Error('not a call id'), { status: 404 });
  return value;
};

function bearer(secret: string): RequestHandler {
  const expected = Buffer.from(`Bearer ${secret}`);
  return (req, res, next) => {
    const given = Buffer.from(req.get('authorization') ?? '');
    if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) return next();
    res.status(401).json({ error: 'The carrier secret is missing or wrong.' });
  };
}

function sendRecording(file: string, range: string | undefined, res: express.Response) {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return void res.status(404).json({ error: 'There is no such recording.' });
  }
  const ranges = range ? parseRange(size, range, { combine: true }) : -2;
  if (ranges === -1) return void res.status(416).set('Content-Range', `bytes */${size}`).end();
  res.set({ 'Content-Type': RECORDING_CONTENT_TYPE, 'Accept-Ranges': 'bytes' });
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1)
    return void fs.createReadStream(file).pipe(res.status(200).set('Content-Length', String(size)));
  const { start, end } = ranges[0]!;
  fs.createReadStream(file, { start, end }).pipe(
    res.status(206).set({ 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': String(end - start + 1) }),
  );
}

const answerErrors: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
  if (error instanceof z.ZodError)
    return void res.status(400).json({ error: error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
  const status = (error as { status?: number }).status;
  res
    .status(status && status >= 400 && status < 500 ? status : 500)
    .json({ error: status ? (error as Error).message : 'The carrier failed.' });
};

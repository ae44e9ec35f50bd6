/*
 * An integration's receiving route for the dialer benchmarks, in a process of its own so that arrival times are
 * taken by an event loop that does nothing else. It answers every callback 200 and records when each webhook-id
 * arrived (every arrival, so a second delivery of one id shows as a duplicate).
 *
 * startCallbackReceiver() runs this file as a child with an IPC channel; run directly, it is that child.
 */
import { type ChildProcess, fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** webhook-id -> the receiver's Date.now() at each arrival of it. */
export type Arrivals = Map<string, number[]>;
export type ArrivalCounts = { total: number; distinct: number };

export type CallbackReceiver = {
  url: string;
  counts(): Promise<ArrivalCounts>;
  arrivals(): Promise<Arrivals>;
  close(): Promise<void>;
};

type Reply =
  { type: 'listening'; port: number } | { type: 'counts'; counts: ArrivalCounts } | { type: 'arrivals'; arrivals: [string, number[]][] };

export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { port } = (await reply(child, undefined, 'listening')) as Extract<Reply, { type: 'listening' }>;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: async () => ((await reply(child, 'counts', 'counts')) as Extract<Reply, { type: 'counts' }>).counts,
    arrivals: async () => new Map(((await reply(child, 'arrivals', 'arrivals')) as Extract<Reply, { type: 'arrivals' }>).arrivals),
    close: async () => {
      child.disconnect();
      await exited;
    },
  };
}

/** Sends `ask` (if any) and resolves with the child's next message of type `answer`. */
function reply(child: ChildProcess, ask: string | undefined, answer: Reply['type']): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Reply) => {
      if (message.type !== answer) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message);
    };
    const onExit = (code: number | null) => reject(new Error(`The callback receiver exited (code ${code}).`));
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (ask) child.send(ask);
  });
}

function serve() {
  const arrivals: Arrivals = new Map();
  let total = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const at = Date.now();
      const id = String(req.headers['webhook-id'] ?? '');
      const times = arrivals.get(id);
      if (times) times.push(at);
      else arrivals.set(id, [at]);
      total++;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  // The server's keep-alive connections stay open across its rounds of deliveries.
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send!({ type: 'listening', port: (server.address() as AddressInfo).port } satisfies Reply));
  process.on('message', (ask: string) => {
    if (ask === 'counts') process.send!({ type: 'counts', counts: { total, distinct: arrivals.size } } satisfies Reply);
    if (ask === 'arrivals') process.send!({ type: 'arrivals', arrivals: [...arrivals] } satisfies Reply);
  });
  process.on('disconnect', () => process.exit(0));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serve();

import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

export type Received = { path: string; query: string; headers: Record<string, string>; body: string; at: number };
export type Receiver = {
  url: string;
  received: Received[];
  /** The next n requests are answered with `status` (500 unless given; a 3xx comes with a Location). */
  failNext(n: number, status?: number): void;
  /** Forgets the failures and hangs still queued: every request from now on is answered 200. */
  answerAll(): void;
  /** The next n requests get no answer at all, until close(). */
  hangNext(n: number): void;
  /** Resolves with everything received once `count` requests have arrived; rejects after timeoutMs saying how many did. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
};

type Answer = { status: number } | 'hang';

/** An integration's receiving route for tests: a real HTTP server on 127.0.0.1 and a port of its own. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: Answer[] = [];
  const waiters = new Set<() => void>();

  const server = http.createServer((req, res) => {
    const answer = answers.shift() ?? { status: 200 };
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push(toReceived(req, Buffer.concat(chunks).toString('utf8')));
      for (const wake of waiters) wake();
      if (answer === 'hang') return;
      if (answer.status >= 300 && answer.status < 400) res.setHeader('Location', '/redirected');
      res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end(answer.status < 300 ? 'ok' : 'not ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');

  const waitFor = (count: number, timeoutMs = 5_000) =>
    new Promise<Received[]>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      const check = () => {
        if (received.length < count) return;
        done();
        resolve([...received]);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`Waited ${timeoutMs} ms for ${count} callbacks; ${received.length} arrived.`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    failNext: (n, status = 500) => answers.push(...Array.from({ length: n }, () => ({ status }))),
    hangNext: (n) => answers.push(...Array.from({ length: n }, () => 'hang' as const)),
    answerAll: () => void answers.splice(0),
    waitFor,
    async close() {
      // Hanging requests and idle keep-alive sockets would otherwise hold close() open.
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function toReceived(req: http.IncomingMessage, body: string): Received {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { path: q === -1 ? url : url.slice(0, q), query: q === -1 ? '' : url.slice(q + 1), headers, body, at: Date.now() };
}

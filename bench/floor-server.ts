/*
 * The floor: a bare node:http server that answers recorded requests with the very bytes Ringbook answered them with
 * (status, the headers that shape the body, the body), from as many processes as Ringbook serves from. Nothing between
 * the socket and the bytes but Node's HTTP: what Ringbook costs above this is its own.
 *
 * Run by bench/floor.ts: `tsx bench/floor-server.ts <replies.json> <port> <processes>`.
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import http from 'node:http';

type Reply = { path: string; status: number; headers: Record<string, string>; body: string };

const [file, port, processes] = process.argv.slice(2) as [string, string, string];

function serve() {
  const replies = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
  for (const r of JSON.parse(fs.readFileSync(file, 'utf8')) as Reply[])
    replies.set(r.path, { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') });
  const missing = Buffer.from('{"http_status":404,"status":"error"}');
  http
    .createServer((req, res) => {
      const reply = replies.get(req.url ?? '');
      if (!reply) {
        res.writeHead(404, { 'content-type': 'application/json', 'content-length': missing.length });
        res.end(missing);
        return;
      }
      res.writeHead(reply.status, { ...reply.headers, 'content-length': reply.body.length });
      res.end(reply.body);
    })
    .listen(Number(port), '127.0.0.1', () => process.send?.('listening'));
}

if (Number(processes) > 1 && cluster.isPrimary) {
  let listening = 0;
  for (let i = 0; i < Number(processes); i++)
    cluster.fork().on('message', (message) => {
      if (message === 'listening' && ++listening === Number(processes)) process.send?.('listening');
    });
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
    process.exit(0);
  });
} else {
  serve();
}

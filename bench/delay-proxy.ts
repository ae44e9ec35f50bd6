/*
 * A database across a network, on one machine: a TCP proxy in a process of its own that holds every chunk it passes,
 * each way, for a number of milliseconds (Node's timers: about 1 ms at the least, so a round trip takes 2 ms or more,
 * as between two zones of a cloud region). The machines here have no `tc netem`. Used by bench/write-store.ts --delay.
 *
 * As a script: `npx tsx bench/delay-proxy.ts <target host:port> <ms>` prints the port it listens on.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Starts the proxy in a process of its own (its CPU is not the measured process's) and answers `url` through it. */
export async function throughDelay(url: string, ms: number): Promise<{ url: string; stop: () => void }> {
  const target = new URL(url);
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), `${target.hostname}:${target.port || 5432}`, String(ms)],
    { stdio: ['ignore', 'pipe', 'inherit'], cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..') },
  );
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', (code) => reject(new Error(`The delay proxy stopped (${code}).`)));
  });
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = port;
  return { url: proxied.toString(), stop: () => child.kill() };
}

function serve(target: string, ms: number) {
  const [host, port] = target.split(':') as [string, string];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), host);
    // Timers of one delay fire in the order they were set: the bytes keep their order.
    const pass = (from: net.Socket, to: net.Socket) => from.on('data', (chunk) => setTimeout(() => to.write(chunk), ms));
    pass(client, upstream);
    pass(upstream, client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) socket.on('error', end).on('close', end);
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as net.AddressInfo).port}\n`));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serve(process.argv[2]!, Number(process.argv[3]));

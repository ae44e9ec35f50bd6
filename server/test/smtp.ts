import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; headers: Record<string, string>; body: string; raw: string };
export type MailServer = {
  /** SMTP_URL for a server of the tests (no TLS, any credentials). */
  url: string;
  received: ReceivedMail[];
  /** Recipients whose address matches are refused with this SMTP reply (550: for good; 451: for now). */
  refuse(match: RegExp, code: number): void;
  /** Stops listening (the mail server is down) until `up`, on the same port. */
  down(): Promise<void>;
  up(): Promise<void>;
  /** Resolves with everything received once `count` messages have arrived; rejects after timeoutMs saying how many did. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
};

/** A real SMTP server in the test's process, on 127.0.0.1 and a port of its own (smtp-server). */
export async function startMailServer(): Promise<MailServer> {
  const received: ReceivedMail[] = [];
  const refusals: { match: RegExp; code: number }[] = [];
  const waiters = new Set<() => void>();
  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (_auth, _session, callback) => callback(null, { user: 'tester' }),
      onRcptTo(address, _session, callback) {
        const refusal = refusals.find((r) => r.match.test(address.address));
        if (!refusal) return callback();
        callback(Object.assign(new Error(`Mailbox ${address.address} refused (test)`), { responseCode: refusal.code }));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push(parse(Buffer.concat(chunks).toString('utf8'), session.envelope));
          for (const wake of waiters) wake();
          callback();
        });
      },
    });
  let server = make();
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const port = (server.server.address() as AddressInfo).port;
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: `smtp://tester:secret@127.0.0.1:${port}`,
    received,
    refuse: (match, code) => void refusals.push({ match, code }),
    down: stop,
    async up() {
      server = make();
      server.listen(port, '127.0.0.1');
      await once(server.server, 'listening');
    },
    waitFor(count, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          done();
          resolve(received.slice());
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`Waited ${timeoutMs} ms for ${count} e-mails; ${received.length} arrived.`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: stop,
  };
}

/** Headers (unfolded, names lower-cased) and the body of a plain-text message. */
function parse(raw: string, envelope: { mailFrom: false | { address: string }; rcptTo: { address: string }[] }): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = Object.fromEntries(
    head.split('\r\n').map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return {
    from: envelope.mailFrom ? envelope.mailFrom.address : '',
    to: envelope.rcptTo.map((r) => r.address),
    headers,
    body: raw.slice(split + 4).replace(/\r\n$/, ''),
    raw,
  };
}

import http from 'node:http';
import https from 'node:https';
import { isAllowedHost, parseCallbackUrl } from './address-guard.js';
import { GuardedHttpAgent, GuardedHttpsAgent, RefusedAddress } from './connect-guard.js';

/** ok is true exactly when the receiver answered 2xx in time; otherwise error says why, without path or query. */
export type SendResult = { ok: boolean; status: number | null; error: string | null; ms: number };
/** timeoutMs: the longest a send takes, answer or not (a delivery lease must outlast it). */
export type Sender = {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
  close(): void;
  timeoutMs: number;
};
export type SenderOptions = { allowedHosts: string[]; timeoutMs: number };

/** Receivers' answers are not read; this much is drained so a short answer keeps its connection alive. */
const MAX_ANSWER_BYTES = 64 * 1024;
const FIXED_HEADERS = { 'content-type': 'application/json', 'user-agent': 'Ringbook-Callbacks/1' };

type Agents = { http: http.Agent; https: https.Agent };

/**
 * One set of keep-alive agents per sender, reused for every POST: thousands of callbacks a second to one receiver
 * must not each open a connection. Hosts that are not allowed go through guarded agents, which check the address
 * each new connection actually goes to (connect-guard.ts), so a name that resolved to a public address when the URL
 * was stored but to a private one now (DNS rebinding) is refused before anything is sent.
 */
export function createSender(options: SenderOptions): Sender {
  const guarded: Agents = { http: new GuardedHttpAgent({ keepAlive: true }), https: new GuardedHttpsAgent({ keepAlive: true }) };
  const trusted: Agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  return {
    timeoutMs: options.timeoutMs,
    async send(url, headers, body) {
      const parsed = parseCallbackUrl(url);
      if (!parsed.ok) return { ok: false, status: null, error: `The callback URL ${parsed.reason}.`, ms: 0 };
      const agents = isAllowedHost(parsed.url.hostname, options.allowedHosts) ? trusted : guarded;
      const agent = parsed.url.protocol === 'https:' ? agents.https : agents.http;
      // Ours come last so a caller's header cannot replace them (Node matches header names case-insensitively).
      const allHeaders = { ...headers, ...FIXED_HEADERS, 'content-length': String(Buffer.byteLength(body)) };
      return post(parsed.url, agent, allHeaders, body, options.timeoutMs);
    },
    close() {
      for (const agent of [guarded.http, guarded.https, trusted.http, trusted.https]) agent.destroy();
    },
  };
}

function post(url: URL, agent: http.Agent, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    let status: number | null = null;
    let settled = false;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const failure = error ?? (status !== null ? statusError(status) : 'The receiver gave no answer.');
      resolve({ ok: failure === null, status, error: failure, ms: Math.round(performance.now() - started) });
    };
    const request = (url.protocol === 'https:' ? https : http).request(url, { method: 'POST', agent, headers }, (response) => {
      status = response.statusCode ?? null;
      drain(response, finish);
    });
    const timer = setTimeout(() => {
      finish(`No complete answer within ${timeoutMs} ms.`);
      request.destroy();
    }, timeoutMs);
    request.on('error', (error) => finish(describeError(error)));
    request.end(body);
  });
}

/** Reads the answer to its end, or stops after MAX_ANSWER_BYTES: the status has been given by then. */
function drain(response: http.IncomingMessage, finish: (error: string | null) => void) {
  let bytes = 0;
  response.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes <= MAX_ANSWER_BYTES) return;
    finish(null);
    response.destroy();
  });
  response.on('end', () => finish(null));
  response.on('error', () => finish('The answer was cut short.'));
  response.on('close', () => {
    if (!response.complete) finish('The answer was cut short.');
  });
}

function statusError(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `The receiver answered ${status}, a redirect, which is not followed.`;
  return `The receiver answered ${status}.`;
}

/** Node's messages name the host at most; ours and request-filtering-agent's name the refused address. */
function describeError(error: NodeJS.ErrnoException): string {
  const refused = error instanceof RefusedAddress ? error.address : /^DNS lookup (.+?)\(family:.*is not allowed/.exec(error.message)?.[1];
  if (refused) return `Refused: ${refused} is a private or local address.`;
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'The connection was refused.';
    case 'ECONNRESET':
      return 'The connection was reset.';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The host name did not resolve.';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'The host cannot be reached.';
  }
  return error.code ? `The request failed (${error.code}).` : `The request failed: ${error.message.slice(0, 200)}`;
}

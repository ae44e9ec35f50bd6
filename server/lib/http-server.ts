import http from 'node:http';
import type net from 'node:net';
import type { Express } from 'express';
import type { Config } from '../config.js';
import { Codes } from './http-errors.js';
import { errorEnvelope } from './http.js';

/**
 * The node:http server for an app, with the limits that keep slow or idle clients from holding it.
 *
 * Express gives each request and response its prototype with Object.setPrototypeOf(req, app.request). On a plain
 * IncomingMessage that changes the object's hidden class on every request, and V8 pays in old-space garbage and
 * full collections: a bare Express route here ran at a third of the speed with a 5 ms p99. Requests and responses
 * built from constructors whose prototypes already are the app's make that call a no-op.
 */
export function createHttpServer(app: Express, limits: Config['connections']): http.Server {
  function AppRequest(this: http.IncomingMessage, socket: net.Socket) {
    http.IncomingMessage.call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: http.ServerResponse, req: http.IncomingMessage, options?: unknown) {
    (http.ServerResponse as unknown as (this: http.ServerResponse, ...args: unknown[]) => void).call(this, req, options);
  }
  AppResponse.prototype = app.response;
  const server = http.createServer(
    {
      IncomingMessage: AppRequest as unknown as typeof http.IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof http.ServerResponse,
      // How often the time-outs below are checked: a connection is cut off at most this long after its time is up.
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs / 2),
    },
    app,
  );
  // A connection that has not sent its headers in time (idle ones included) or its whole request is cut off.
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  limitOpenConnections(server, limits.maxConnections);
  server.on('clientError', answerClientError);
  server.on('checkExpectation', refuseExpectation);
  return server;
}

/*
 * Node's own maxConnections is not honoured in cluster workers (they receive their sockets from the primary), so
 * each process counts its open connections itself and drops new ones past the cap.
 */
function limitOpenConnections(server: http.Server, max: number) {
  let open = 0;
  server.on('connection', (socket: net.Socket) => {
    if (open >= max) {
      socket.destroy();
      return;
    }
    open++;
    socket.once('close', () => open--);
  });
}

const CLIENT_ERRORS: Record<string, [status: number, code: number, reason: string]> = {
  HPE_HEADER_OVERFLOW: [431, Codes.headersTooLarge, 'The request line and headers are larger than 16 KB.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, Codes.requestTimeout, 'The request did not arrive in time; send it again.'],
};

/**
 * Errors Node meets before the app sees a request (oversized headers, a request too slow to arrive, bytes that are
 * not HTTP) are answered in the contract's error envelope too, then the connection is closed.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: net.Socket) {
  const started = (socket as net.Socket & { _httpMessage?: http.ServerResponse })._httpMessage?.headersSent;
  if (!socket.writable || started || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, code, reason] = CLIENT_ERRORS[error.code ?? ''] ?? [400, Codes.malformedRequest, 'The request is not valid HTTP.'];
  const body = JSON.stringify(errorEnvelope(status, [{ code, reason }]));
  socket.end(
    [
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
  // end() only half-closes, and HTTP sockets allow half-open connections: a client that never reads nor closes would
  // keep its slot (and count against MAX_CONNECTIONS) for ever. It has had its answer; the socket goes.
  const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
  socket.once('close', () => clearTimeout(timer));
}

/** Long enough for a client that reads to read the answer, short enough that one that does not read cannot hold on. */
const CLOSE_GRACE_MS = 1_000;

/**
 * An Expect header other than 100-continue: 417 in the contract's envelope (Node's own answer is a bare 417), and the
 * request is not run.
 */
function refuseExpectation(_req: http.IncomingMessage, res: http.ServerResponse) {
  const body = JSON.stringify(
    errorEnvelope(417, [{ code: Codes.expectationFailed, reason: 'The Expect header can only ask for 100-continue.' }]),
  );
  res.writeHead(417, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    Connection: 'close',
  });
  res.end(body);
}

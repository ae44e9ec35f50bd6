import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import express, { type Express, type RequestHandler, Router } from 'express';
import { authRouter } from './auth/auth.router.js';
import { authenticate } from './auth/middleware.js';
import type { Context } from './context.js';
import { ping } from './db/database.js';
import { notFoundRoute, parseBodies, renderErrors, requestLogging, stripTrailingSlash } from './lib/http.js';
import { contactsRouter } from './modules/contacts/contacts.router.js';
import { foldersRouter } from './modules/folders/folders.router.js';
import { membersRouter } from './modules/members/members.router.js';
import { tranquilityRouter } from './modules/system/system.router.js';
import { tagsRouter } from './modules/tags/tags.router.js';

export type AppOptions = { staticDir?: string };

/** Builds the whole HTTP app without listening, so tests run it in-process on a random port. */
export function createApp(ctx: Context, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('query parser', 'simple');
  // API answers are private and never cached (below), so an ETag, a hash of every body, would buy nothing.
  // Static files keep theirs: express.static sets its own.
  app.set('etag', false);
  app.use(requestLogging(ctx.logger));
  app.use(stripTrailingSlash);
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  });

  app.get('/healthz', async (_req, res) => {
    await ping(ctx.store.db);
    res.json({ status: 'ok' });
  });

  const rest = Router();
  rest.use(noStore, parseBodies);
  rest.use(tranquilityRouter());
  rest.use(authenticate(ctx));
  rest.use(membersRouter(ctx), contactsRouter(ctx), foldersRouter(ctx), tagsRouter(ctx));
  rest.use(notFoundRoute);
  app.use('/rest/1', rest);

  app.use('/auth', noStore, parseBodies, authRouter(ctx));
  app.use(['/rest', '/auth', '/oauth'], notFoundRoute);

  if (options.staticDir) serveWebApp(app, options.staticDir);
  app.use(notFoundRoute);
  app.use(renderErrors);
  return app;
}

/** Contacts, members and tokens are private: no browser or proxy may keep a copy. */
const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/**
 * The node:http server for an app. Express gives each request and response its prototype with
 * Object.setPrototypeOf(req, app.request). On a plain IncomingMessage that changes the object's hidden class
 * on every request, and V8 pays in old-space garbage and full collections: a bare Express route here ran at a
 * third of the speed with a 5 ms p99. Requests and responses built from constructors whose prototypes already
 * are the app's make that call a no-op.
 */
export function createHttpServer(app: Express): http.Server {
  function AppRequest(this: http.IncomingMessage, socket: net.Socket) {
    http.IncomingMessage.call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: http.ServerResponse, req: http.IncomingMessage, options?: unknown) {
    (http.ServerResponse as unknown as (this: http.ServerResponse, ...args: unknown[]) => void).call(this, req, options);
  }
  AppResponse.prototype = app.response;
  return http.createServer({
    IncomingMessage: AppRequest as unknown as typeof http.IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof http.ServerResponse,
  }, app);
}

/** The built single-page app: hashed assets cached for a year, every other page answered with index.html. */
function serveWebApp(app: Express, dir: string) {
  const index = path.join(dir, 'index.html');
  app.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }));
  app.use(express.static(dir, { index: false }));
  app.get('/{*path}', (req, res, next) => {
    if (!req.accepts('html') || !fs.existsSync(index)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}

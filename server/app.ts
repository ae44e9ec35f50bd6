import fs from 'node:fs';
import path from 'node:path';
import express, { type Express, type RequestHandler, Router } from 'express';
import helmet from 'helmet';
import { authRouter } from './auth/auth.router.js';
import { authenticate } from './auth/middleware.js';
import type { OpenStreams } from './auth/open-streams.js';
import { oauthRouter } from './auth/oauth.router.js';
import type { Config } from './config.js';
import { ping, type Store } from './db/database.js';
import { notFound } from './lib/errors.js';
import { notFoundRoute, parseBodies, renderErrors, stripTrailingSlash, useRequestLogging } from './lib/http.js';
import type { Logger } from './lib/logger.js';
import type { RecordCache } from './lib/record-cache.js';
import { accessTokensRouter } from './modules/tokens/tokens.router.js';
import { bulkJobsRouter } from './modules/bulk-jobs/bulk-jobs.router.js';
import { importUploadRouter, importsRouter } from './modules/imports/imports.router.js';
import type { ImportsDeps } from './modules/imports/imports.service.js';
import type { BulkJobsDeps } from './modules/bulk-jobs/bulk-jobs.service.js';
import { callsRouter } from './modules/calls/calls.router.js';
import { carrierRouter } from './modules/carrier/carrier.router.js';
import { recordingsRouter, type RecordingsRouterDeps } from './modules/recordings/recordings.router.js';
import type { AnnounceDeps } from './modules/recordings/recordings.service.js';
import { transcriptsRouter } from './modules/transcripts/transcripts.router.js';
import { contactCustomFieldsRouter } from './modules/contact-details/contact-custom-fields.router.js';
import { contactPointsRouter } from './modules/contact-details/contact-points.router.js';
import { contactTagsRouter } from './modules/contact-details/contact-tags.router.js';
import { contactExportRouter } from './modules/contacts/contact-export.router.js';
import { contactsRouter } from './modules/contacts/contacts.router.js';
import { customFieldsRouter } from './modules/custom-fields/custom-fields.router.js';
import { dialLibraryRouter } from './modules/dial-library/dial-library.router.js';
import { voicemailUploadRouter } from './modules/dial-library/voicemail-upload.router.js';
import type { DialerRuntime } from './modules/dial-sessions/dialer-runtime.js';
import { dialSessionsRouter } from './modules/dial-sessions/dial-sessions.router.js';
import { ssoRouter } from './modules/dial-sessions/sso.router.js';
import { dialSettingsRouter } from './modules/dial-settings/dial-settings.router.js';
import { integrationsRouter } from './modules/integrations/integrations.router.js';
import { foldersRouter } from './modules/folders/folders.router.js';
import { membersRouter } from './modules/members/members.router.js';
import { openapiRouter } from './modules/openapi/openapi.router.js';
import { clockRouter, tranquilityRouter } from './modules/system/system.router.js';
import { tagsRouter } from './modules/tags/tags.router.js';

export type AppOptions = { staticDir?: string };

/** The parts of the process that the routers are built from (the composition root, context.ts, builds them). */
export type AppDeps = {
  store: Store;
  config: Config;
  logger: Logger;
  secretKey: Buffer;
  records: RecordCache;
  streams: OpenStreams;
  dialer: DialerRuntime;
  jobs: BulkJobsDeps['jobs'];
  imports: ImportsDeps['imports'];
  recordings: RecordingsRouterDeps['recordings'] & AnnounceDeps['recordings'];
};

/** Builds the whole HTTP app without listening, so tests run it in-process on a random port. */
export function createApp(deps: AppDeps, options: AppOptions = {}): Express {
  const { store, config, logger, secretKey, records, streams, dialer, jobs, imports, recordings } = deps;
  // What driving a dial session takes (dialing.service.ts): members' removal, the dialer's routes and the carrier's events do.
  const dialing = { store, config, logger, dialer };
  const app = express();
  app.disable('x-powered-by');
  // X-Forwarded-For is believed only from the proxies named in TRUST_PROXY (none by default): the sign-in throttle counts by address.
  app.set('trust proxy', config.trustProxy.length ? config.trustProxy : false);
  app.set('query parser', 'simple');
  // API answers are private and never cached (below), so an ETag, a hash of every body, would buy nothing.
  // Static files keep theirs: express.static sets its own.
  app.set('etag', false);
  useRequestLogging(app, logger);
  app.use(stripTrailingSlash);
  app.use(browserDefences(config.publicUrl.startsWith('https:')));

  app.get('/healthz', async (_req, res) => {
    await ping(store.db);
    res.json({ status: 'ok' });
  });

  const rest = Router();
  // The voicemail upload's body is audio and an import's is a CSV file, which the API's parsers refuse: each is read by
  // its own route, first (the import's as a stream, never whole).
  rest.use(noStore, voicemailUploadRouter({ store, config }), importUploadRouter({ store, config, imports }), parseBodies);
  rest.use(tranquilityRouter(), openapiRouter());
  rest.use(authenticate({ store, config }));
  rest.use(
    membersRouter({ ...dialing, secretKey }),
    // Before the contacts router: /contacts/export is not a contact id.
    contactExportRouter({ store }),
    contactsRouter({ store, records }),
    foldersRouter({ store }),
    tagsRouter({ store }),
    customFieldsRouter({ store }),
  );
  rest.use(
    contactPointsRouter({ store }),
    contactTagsRouter({ store }),
    contactCustomFieldsRouter({ store }),
    bulkJobsRouter({ store, jobs }),
    importsRouter({ store, imports }),
  );
  // Settings before sessions: /dialsession/settings is not a session id.
  rest.use(
    dialSettingsRouter({ store }),
    recordingsRouter({ store, recordings }),
    dialSessionsRouter({ ...dialing, records, streams }),
    dialLibraryRouter({ store, config }),
    transcriptsRouter({ store }),
    clockRouter(),
  );
  rest.use(callsRouter({ store, config }), integrationsRouter({ store }), accessTokensRouter({ store }));
  rest.use(notFoundRoute);
  app.use('/rest/1', rest);

  // The contract's one path outside /rest/1: the full transcript.
  app.use('/api/rest', noStore, authenticate({ store, config }), transcriptsRouter({ store }), notFoundRoute);
  app.use('/auth', noStore, parseBodies, authRouter({ store, config, secretKey, streams }));
  app.use('/oauth', noStore, oauthRouter({ store, config, secretKey }));
  app.use('/carrier', noStore, carrierRouter({ ...dialing, recordings }));
  app.use(['/rest', '/auth', '/oauth', '/carrier'], notFoundRoute);

  app.use(ssoRouter({ store, config }));
  if (options.staticDir) serveWebApp(app, options.staticDir);
  app.use(notFoundRoute);
  app.use(renderErrors);
  return app;
}

/**
 * What the browser is told to enforce: the web app's own scripts, styles, media and API only (no inline code, no
 * other origin), never inside a frame, no MIME sniffing, referrers only to ourselves, and HTTPS only once the app is
 * served over it. The journeys in e2e/ fail on any CSP violation, so the app is known to work under it.
 */
function browserDefences(https: boolean): RequestHandler {
  const headers = fixedHeaders(helmetFor(https));
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/**
 * The headers a middleware sets, found once by running it on a stand-in response: helmet's answer does not depend on
 * the request (no nonces here), and as a chain of a dozen middlewares it cost every request more than the headers'
 * writing does. Anything else it did would be lost, so it must set headers and call next, nothing more.
 */
function fixedHeaders(middleware: RequestHandler): [string, string][] {
  const headers = new Map<string, string>();
  let done = false;
  const res = {
    setHeader: (name: string, value: string) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  middleware({} as never, res as never, () => (done = true));
  if (!done) throw new Error('The browser defences did not run to the end on their own.');
  return [...headers];
}

function helmetFor(https: boolean): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        // blob: for a greeting recorded in the browser, played back before it is uploaded.
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 3600, includeSubDomains: true } : false,
  });
}

/** Contacts, members and tokens are private: no browser or proxy may keep a copy. */
const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** The path as express.static will read it: percent-decoded (`%2emap` is `.map`). */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The built single-page app: hashed assets cached for a year, every other page answered with index.html. */
function serveWebApp(app: Express, dir: string) {
  const index = path.join(dir, 'index.html');
  // The build writes no source maps; should one be there, it is not published, however its name is spelled or encoded.
  app.use((req, _res, next) => next(/\.map$/i.test(decodedPath(req.path)) ? notFound('There is no such file.') : undefined));
  app.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }));
  app.use(express.static(dir, { index: false }));
  app.get('/{*path}', (req, res, next) => {
    if (!req.accepts('html') || !fs.existsSync(index)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}

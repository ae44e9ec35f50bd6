import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

/*
 * Dependencies flow one way (../shared/docs/architecture.md): routers -> services -> repositories; modules may use
 * auth, db and lib; auth, db and lib never reach up into modules; the web app imports nothing of the server but
 * its contracts. The composition root (context.ts) builds the process from what is below it, and app.ts and index.ts
 * stand above it: nothing below imports them, not even a type (services and routers name the parts they take).
 * Each rule names the folder, and the folders or files its files must not import from.
 */
const TOP = /^server\/(context|app|index)\.js$/;
const RULES: [string, RegExp][] = [
  ['server/lib', /^server\/(modules|auth|dialer|callbacks)\/|^server\/(context|app|index)\.js$/],
  ['server/db', /^server\/(modules|auth|dialer|callbacks)\/|^server\/(context|app|index)\.js$/],
  ['server/auth', /^server\/(modules|dialer|callbacks)\/|^server\/(context|app|index)\.js$/],
  ['server/contracts', /^server\/(?!contracts\/)|^(?!zod$|server\/)/],
  ['server/callbacks', /^server\/(modules|dialer)\/|^server\/(context|app|index)\.js$/],
  ['server/mail', /^server\/(modules|auth|dialer|callbacks)\/|^server\/(context|app|index)\.js$/],
  ['server/modules', TOP],
  ['server/dialer', TOP],
  ['server/recordings', TOP],
  ['server/transcription', TOP],
  ['server/seed', TOP],
  ['src', /^server\/(?!contracts\/)/],
];

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

const importsOf = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm)].map((m) => m[1]!);

it.each(RULES)('%s imports nothing it must not', (dir, forbidden) => {
  const offending = filesUnder(dir).flatMap((file) =>
    importsOf(file)
      .filter((spec) => forbidden.test(spec.startsWith('.') ? path.relative('.', path.resolve(path.dirname(file), spec)) : spec))
      .map((spec) => `${file} -> ${spec}`),
  );
  expect(offending).toEqual([]);
});

/*
 * Services, repositories and the auth checks throw domain errors; only the HTTP layer (routers, the auth middleware,
 * server/lib) knows statuses and debug codes (server/lib/http-errors.ts maps one to the other).
 */
it('only the HTTP layer imports the HTTP errors', () => {
  const httpLayer = (file: string) => file.endsWith('.router.ts') || file === path.join('server', 'auth', 'middleware.ts');
  const offending = ['server/modules', 'server/auth', 'server/dialer', 'server/callbacks']
    .flatMap(filesUnder)
    .filter((file) => !httpLayer(file))
    .flatMap((file) =>
      importsOf(file)
        .filter(
          (spec) => spec.startsWith('.') && path.relative('.', path.resolve(path.dirname(file), spec)) === 'server/lib/http-errors.js',
        )
        .map((spec) => `${file} -> ${spec}`),
    );
  expect(offending).toEqual([]);
});

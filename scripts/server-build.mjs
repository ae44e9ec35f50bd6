// The server as it runs in its own processes (npm start, the journeys, the tests that start servers): one JavaScript
// file per entry, bundled by esbuild from server/, rebuilt when it is missing or older than its sources.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { newest } from './web-build.mjs';

/*
 * Why: started through tsx, every module of the server went through Node's loader hooks, which run on a thread of their
 * own and answer each resolve and load through a message port, and was compiled on its own. A process took 4 s of a
 * core to start on a 2-core machine (half of it the hooks and the compiling), a server with two workers and its carrier
 * 9 s. One bundle per entry is loaded by Node's own loader with no hooks (packages stay in node_modules, loaded as they
 * always are). The code is the same code: esbuild is also what tsx transforms TypeScript with.
 *
 * What a bundle changes, and how it is kept as it was:
 * - `import.meta.url` would be the bundle's address, and the server finds files beside its modules (voices, the starter
 *   voicemail, the carrier's entry, the import thread's worker, its own root): each module's is written in as the
 *   address of its source file, so every path resolves as it did.
 * - The carrier runs in a child process (server/carrier/child.ts): the server's bundle is told the carrier's bundle
 *   (`RINGBOOK_CARRIER_BUNDLE`), and forks that instead of the TypeScript entry through tsx.
 * - Stack traces: each bundle has its source map beside it, and runs with `--enable-source-maps` (SERVER_COMMAND), so
 *   a logged stack names the .ts files and lines, as it did under tsx.
 * The import thread (server/modules/imports/import-thread.ts) still loads its modules through tsx: it starts once per
 * import, not per process.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(root, 'build', 'server');
const SOURCES = [path.join(root, 'server'), path.join(root, 'package-lock.json')];
const ENTRIES = { index: 'server/index.ts', carrier: 'server/carrier/main.ts' };

/** The built server's entry. */
export const SERVER_BUNDLE = path.join(OUT, 'index.mjs');
/** How to start the built server: `node …SERVER_COMMAND` with the server's environment. */
export const SERVER_COMMAND = ['--enable-source-maps', SERVER_BUNDLE];

const builtAt = () =>
  Math.min(...Object.keys(ENTRIES).map((name) => fs.statSync(path.join(OUT, `${name}.mjs`), { throwIfNoEntry: false })?.mtimeMs ?? 0));

/** Each server module's `import.meta.url` as its source file's address (above). */
const sourceAddresses = {
  name: 'source-addresses',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};

/**
 * Builds the server's bundles when any is missing or older than a file under server/ (or the lock file). Several test
 * runs may build at once: each writes into a folder of its own and moves its files in place, so a reader finds either
 * the old file or the new one, whole.
 */
export async function ensureServerBuild() {
  if (builtAt() >= Math.max(...SOURCES.map(newest))) return;
  // Beside OUT, at the same depth: the maps' relative paths to the sources hold once the files are moved.
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  const scratch = fs.mkdtempSync(path.join(path.dirname(OUT), '.server-'));
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: ENTRIES,
      outdir: scratch,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'linked',
      define: { RINGBOOK_CARRIER_BUNDLE: JSON.stringify(path.join(OUT, 'carrier.mjs')) },
      plugins: [sourceAddresses],
      logLevel: 'warning',
    });
    fs.mkdirSync(OUT, { recursive: true });
    // Maps first, then the bundles, the index last: a process started meanwhile loads a whole file.
    for (const name of ['carrier', 'index']) fs.renameSync(path.join(scratch, `${name}.mjs.map`), path.join(OUT, `${name}.mjs.map`));
    for (const name of ['carrier', 'index']) fs.renameSync(path.join(scratch, `${name}.mjs`), path.join(OUT, `${name}.mjs`));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await ensureServerBuild();

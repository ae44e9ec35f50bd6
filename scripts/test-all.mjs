// npm test: every part of the project's tests, two at a time (TEST_JOBS), in the order below; each part's output goes to
// .tmp/test-all/<part>.log and is printed when it ends (all of it when it failed, its summary when it passed). Exits
// non-zero, naming the parts that failed, when any did. `node scripts/test-all.mjs postgres [files…]` runs the parts
// named (output straight through when there is one); other arguments go to each part's runner.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureServerBuild } from './server-build.mjs';
import { testPostgres } from './test-postgres.mjs';

const node = process.execPath;
const vitest = [node, 'node_modules/vitest/vitest.mjs', 'run'];
/*
 * Started in this order, each as soon as a place is free and the parts it comes `after` (of those run) have ended: the
 * two Vitest parts (the longest) side by side, the type check when one ends, the journeys once both have: little then
 * runs beside them, and their calls run on a clock 20 times fast, where a call's outcome applied after its (scaled)
 * wake-up time is lost to it (seen on both stores at a load of 20).
 */
const VITEST_PARTS = ['postgres', 'sqlite'];
const PARTS = {
  postgres: {
    what: 'unit and HTTP tests on PostgreSQL',
    command: vitest,
    files: storeTestFiles,
    env: { TEST_DATABASE: 'postgres' },
    postgres: true,
  },
  sqlite: { what: 'unit and HTTP tests on SQLite', command: vitest, env: {} },
  typecheck: {
    what: 'type check',
    command: [node, 'node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json'],
    env: {},
    takesArgs: false,
  },
  lint: { what: 'lint (ESLint) and format (Prettier) check', command: ['npm', 'run', '--silent', 'lint'], env: {}, takesArgs: false },
  e2e: {
    what: 'journeys in Chromium on PostgreSQL',
    command: [node, 'scripts/e2e.mjs'],
    env: { E2E_STORE: 'postgres' },
    postgres: true,
    after: VITEST_PARTS,
  },
  'e2e:sqlite': { what: 'journeys in Chromium on SQLite', command: [node, 'scripts/e2e.mjs'], env: {}, after: VITEST_PARTS },
};
const DEFAULT_PARTS = ['typecheck', 'lint', 'postgres', 'sqlite', 'e2e'];
const LOGS = '.tmp/test-all';

const asked = process.argv.slice(2).filter((a) => a in PARTS);
const args = process.argv.slice(2).filter((a) => !(a in PARTS) && a !== '--');
const parts = Object.keys(PARTS).filter((name) => (asked.length ? asked : DEFAULT_PARTS).includes(name));
const jobs = Math.max(1, Number(process.env.TEST_JOBS) || 2);
const alone = parts.length === 1;

const running = new Set();
let postgres;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await stopParts();
    postgres?.stop();
    process.exit(130);
  });
}

const started = Date.now();
const env = { ...process.env };
if (parts.some((name) => PARTS[name].postgres)) {
  try {
    postgres = await testPostgres();
    env.TEST_POSTGRES_URL = postgres.url;
    console.log(`PostgreSQL for the tests: ${postgres.where}`);
  } catch (error) {
    // Not a skip: the parts that need it fail, the others run.
    console.error(`✗ PostgreSQL: ${error instanceof Error ? error.message : error}`);
  }
}
fs.mkdirSync(LOGS, { recursive: true });
// The server the tests start in processes of their own, and the journeys' server: built once here, not by each part.
await ensureServerBuild();

const needsMissingPostgres = (name) => PARTS[name].postgres && !postgres;
const results = parts.filter(needsMissingPostgres).map((name) => ({ name, ok: false, exit: 'no PostgreSQL', ms: 0, log: '-' }));
const queue = parts.filter((name) => !needsMissingPostgres(name));
const ended = new Set();
const waiting = [];
const ready = (name) => (PARTS[name].after ?? []).every((before) => !parts.includes(before) || ended.has(before));
await Promise.all(
  Array.from({ length: Math.min(jobs, parts.length) }, async () => {
    while (queue.length && !stopping) {
      const next = queue.findIndex(ready);
      if (next < 0) {
        await new Promise((resolve) => waiting.push(resolve));
        continue;
      }
      const [name] = queue.splice(next, 1);
      results.push(await run(name));
      ended.add(name);
      waiting.splice(0).forEach((resolve) => resolve());
    }
  }),
);
if (stopping) await new Promise(() => {}); // the signal's handler ends the process
postgres?.stop();

console.log(`\n${'─'.repeat(72)}`);
for (const r of results)
  console.log(
    `${r.ok ? '✓' : '✗'} ${r.name.padEnd(11)} ${seconds(r.ms).padStart(6)}  ${PARTS[r.name].what}${r.ok ? '' : ` — FAILED (${r.exit}), log: ${r.log}`}`,
  );
const failed = results.filter((r) => !r.ok).map((r) => r.name);
console.log(`${failed.length ? `✗ failed: ${failed.join(', ')}` : '✓ all passed'} in ${seconds(Date.now() - started)} (${jobs} at a time)`);
process.exit(failed.length ? 1 : 0);

/** Runs one part to its end; its output to its log (or straight through when it runs alone). */
function run(name) {
  const part = PARTS[name];
  const log = path.join(LOGS, `${name.replace(':', '-')}.log`);
  const [file, ...rest] = [...part.command, ...(part.takesArgs === false ? [] : args.length ? args : (part.files?.() ?? []))];
  const out = alone ? 'inherit' : fs.openSync(log, 'w');
  const begun = Date.now();
  if (!alone) console.log(`▶ ${name}: ${part.what}…`);
  return new Promise((resolve) => {
    const child = spawn(file, rest, { env: { ...env, ...part.env }, stdio: ['ignore', out, out], detached: true });
    running.add(child);
    const end = (exit) => {
      running.delete(child);
      if (typeof out === 'number') fs.closeSync(out);
      const result = { name, ok: exit === 0, exit, ms: Date.now() - begun, log };
      if (!alone) report(result);
      resolve(result);
    };
    child.on('error', (error) => end(error.message));
    child.on('exit', (code, signal) => end(code ?? signal));
  });
}

/** A part's output when it ends: all of it when it failed, its last lines (the summary) when it passed. */
function report(result) {
  // eslint-disable-next-line no-control-regex -- terminal colours' escapes
  const text = fs.readFileSync(result.log, 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
  const lines = text.trimEnd().split('\n');
  const shown = result.ok ? lines.slice(-8) : lines;
  console.log(`\n${result.ok ? '✓' : '✗'} ${result.name} ${result.ok ? 'passed' : `FAILED (${result.exit})`} in ${seconds(result.ms)}`);
  console.log(shown.map((line) => `  │ ${line}`).join('\n'));
  const slowest = lines
    .map((line) => /^ [✓❯×] (\S+) .*?(\d+)ms$/.exec(line))
    .filter(Boolean)
    .map(([, file, ms]) => ({ file, ms: Number(ms) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5);
  if (slowest.length) console.log(`  slowest files: ${slowest.map((f) => `${f.file} ${seconds(f.ms)}`).join(', ')}`);
}

/**
 * Stops the running parts: SIGINT to each one's process group (each leads one), as a terminal's Ctrl-C would, so Vitest
 * and Playwright end what they started (Playwright its web server, in a group of its own); SIGKILL after 15 s.
 */
async function stopParts() {
  const children = [...running];
  const exited = children.map(
    (child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', resolve))),
  );
  const signal = (name) =>
    children.forEach((child) => {
      try {
        process.kill(-child.pid, name);
      } catch {
        // gone already
      }
    });
  signal('SIGINT');
  const timer = setTimeout(() => signal('SIGKILL'), 15_000);
  await Promise.all(exited);
  clearTimeout(timer);
}

/**
 * The server's test files that run on the test store: those that import server/test/harness.ts or databases.ts, directly
 * or through a helper. The others (audio, the recognizer, processes on a SQLite folder of their own…) run the same on
 * either store, so the sqlite part alone runs them.
 */
function storeTestFiles() {
  const store = new Set(['server/test/harness.ts', 'server/test/databases.ts'].map((f) => path.resolve(f)));
  const imports = new Map();
  const importsOf = (file) => {
    if (!imports.has(file)) {
      imports.set(
        file,
        [...fs.readFileSync(file, 'utf8').matchAll(/\b(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g)]
          .map((m) => path.resolve(path.dirname(file), `${m[1]}.ts`))
          .filter((f) => fs.existsSync(f)),
      );
    }
    return imports.get(file);
  };
  const reaches = (file, seen) => store.has(file) || (!seen.has(file) && seen.add(file) && importsOf(file).some((f) => reaches(f, seen)));
  return fs
    .readdirSync('server', { recursive: true })
    .map((f) => path.join('server', f))
    .filter((f) => f.endsWith('.test.ts') && reaches(path.resolve(f), new Set()))
    .sort();
}

function seconds(ms) {
  return `${Math.round(ms / 1000)} s`;
}

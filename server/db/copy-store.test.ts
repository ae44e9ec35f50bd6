import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from './schema.js';
import { DEMO_PASSWORD, seedDemo } from '../seed/demo.js';
import { nowMs, resetClock, setClock } from '../lib/clock.js';
import { onlyOnPostgres, postgresDatabase, type TestDatabase } from '../test/databases.js';
import { type Caller, startServer, type TestServer } from '../test/harness.js';
import { type Receiver, startReceiver } from '../test/receiver.js';

/*
 * `admin copy-store` as operators run it, between real stores: a SQLite store with the demo data and a dial session
 * driven through the app (calls, a recording, dial events, callbacks in the outbox, a web session) is copied into a
 * fresh PostgreSQL database, and a second app on the copy answers as the first does.
 */
const run = promisify(execFile);

type Exit = { code: number; stdout: string; stderr: string };
async function copyStore(...args: string[]): Promise<Exit> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/admin.ts', 'copy-store', ...args], {
      env: process.env,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('copy-store arguments', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-copy-args-'));
  const file = path.join(dir, 'store.db');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each([
    [['--from', `sqlite:${file}`], '--to is required'],
    [['--from', 'mysql://db/ringbook', '--to', `sqlite:${file}`], '--from "mysql://db/ringbook": use sqlite:<file> or postgres://'],
    [
      ['--from', `sqlite:${file}`, '--to', `sqlite:${path.join(dir, '..', path.basename(dir), 'store.db')}`],
      '--from and --to name the same store',
    ],
  ])(
    '%j is a usage error (exit code 2)',
    async (args, message) => {
      const exit = await copyStore(...args);
      expect(exit.code).toBe(2);
      expect(exit.stderr).toContain(message);
      expect(exit.stderr).toContain('copy-store --from sqlite:<file>');
      expect(fs.existsSync(file)).toBe(false);
    },
    60_000,
  );

  it('refuses a source that is not there (exit code 2), creating nothing', async () => {
    const exit = await copyStore('--from', `sqlite:${file}`, '--to', `sqlite:${path.join(dir, 'copy.db')}`);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain(`--from: no such file ${file}`);
    expect(fs.readdirSync(dir)).toEqual([]);
  }, 60_000);
});

/* The copy runs in the PostgreSQL part of the tests (TEST_DATABASE=postgres), once: the SQLite part leaves it out. */

const only = await onlyOnPostgres('copy-store from SQLite to PostgreSQL');
describe.skipIf(only.skip)(only.title, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-copy-'));
  const sourceFile = path.join(dir, 'source.db');
  const secretKey = crypto.randomBytes(32).toString('hex');
  // The callbacks' receiver on 127.0.0.1, the simulated carrier 50 times faster than real time.
  const env = { SECRET_KEY: secretKey, DATA_DIR: dir, CARRIER_TIME_SCALE: '0.02', CALLBACK_ALLOWED_HOSTS: '127.0.0.1' };
  let source: TestServer;
  let target: TestServer;
  let database: TestDatabase;
  let receiver: Receiver;
  let alex: Member;
  let vendor: Member;
  let sessionId: string;
  let first: Exit;
  let second: Exit;
  let sourceWrites: number;
  let fingerprints: { before: string; after: string };

  /** The same request of both apps, each answer with its server's address taken out (links name it). */
  async function both(member: Member, path: string): Promise<[unknown, unknown]> {
    const answer = async (server: TestServer) => {
      const reply = await server.as(server.tokenOf(member)).get(path);
      expect(reply.status, `${path}: ${reply.text}`).toBe(200);
      return JSON.parse(reply.text.replaceAll(server.url, '<server>'));
    };
    return [await answer(source), await answer(target)];
  }

  /** Every table's rows of the target, hashed in one order: whether anything was written between two looks. */
  async function fingerprint(url: string): Promise<string> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      );
      const hash = crypto.createHash('sha256');
      for (const { table_name: table } of rows) {
        const {
          rows: [row],
        } = await client.query(`select count(*) as n, md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as h from "${table}" t`);
        hash.update(`${table}:${row.n}:${row.h};`);
      }
      return hash.digest('hex');
    } finally {
      await client.end();
    }
  }

  /** Re-reads until `ready` holds: the carrier and the callbacks' delivery run on their own timers. */
  async function until<T>(what: string, read: () => Promise<T>, ready: (value: T) => boolean): Promise<T> {
    for (let tries = 0; tries < 1_000; tries++) {
      const value = await read();
      if (ready(value)) return value;
      await pause(20);
    }
    throw new Error(`never: ${what}`);
  }

  /** A session through the app: a busy number, then a person who answers, is recorded and dispositioned. */
  async function dialSession(api: Caller) {
    const created = await api.post('/rest/1/dialsession', {
      contacts: [
        { first_name: 'Bea', last_name: 'Copied', phone: '2125550108' },
        { first_name: 'Cal', last_name: 'Copied', phone: '2125550100' },
      ],
      callbacks: [{ callback_type: 'api_calldone', callback: `${receiver.url}/done` }],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.dialsessions.dialsession_id as string;
    expect((await api.post(`/rest/1/dialsession/${id}/start`, {})).status).toBe(200);
    const live = () => api.get(`/rest/1/dialsession/${id}/live`).then((r) => r.body.live);
    const up = await until('Cal answers', live, (s) => s.phase === 'connected' && s.position === 1);
    const interested = up.dispositions.find((d: { label: string }) => d.label === 'Interested').disposition_id;
    expect((await api.post(`/rest/1/dialsession/${id}/disposition`, { disposition_id: interested })).status).toBe(200);
    await until('the session ends', live, (s) => s.session.status === 'ended');
    return id;
  }

  beforeAll(async () => {
    // Within calling hours in New York (the session's numbers), whatever the hour the test runs at.
    setClock(new Date('2026-11-02T16:00:00Z'));
    source = await startServer({ ...env, DATABASE_URL: `sqlite:${sourceFile}` });
    receiver = await startReceiver();
    await seedDemo(source.ctx);
    const members = await source.ctx.store.db.selectFrom('members').selectAll().execute();
    alex = members.find((m) => m.username === 'alex')!;
    vendor = members.find((m) => m.username === 'vendor')!;
    sessionId = await dialSession(source.as(source.tokenOf(alex)));
    // A web session, and the callbacks delivered and the recording stored: nothing left for the source to do.
    const login = await source.as().raw('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ringbook-request': '1' },
      body: JSON.stringify({ username: 'alex', password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const { db } = source.ctx.store;
    await until(
      'the callbacks are delivered',
      () => db.selectFrom('outbox').select('state').execute(),
      (rows) => rows.length === 2 && rows.every((r) => r.state !== 'pending'),
    );
    await until(
      'the recording is stored',
      () => db.selectFrom('recordings').select('state').execute(),
      // Stored or given up on: 'expected' (from the answer) and 'announced' have the carrier's and the fetch's writes to come.
      (rows) => rows.length === 1 && ['stored', 'failed'].includes(rows[0]!.state),
    );

    database = await postgresDatabase();
    const watcher = new SQLite(sourceFile, { readonly: true });
    const version = () => watcher.pragma('data_version', { simple: true }) as number;
    const before = version();
    first = await copyStore('--from', `sqlite:${sourceFile}`, '--to', database.url);
    const copied = await fingerprint(database.url);
    second = await copyStore('--from', `sqlite:${sourceFile}`, '--to', database.url);
    fingerprints = { before: copied, after: await fingerprint(database.url) };
    sourceWrites = version() - before;
    watcher.close();
    target = await startServer({ ...env, DATABASE_URL: database.url });
  }, 600_000);

  afterAll(async () => {
    await target?.close();
    await source?.close();
    await receiver?.close();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
    resetClock();
  });

  it('copies every table, rebuilds the search indexes, and finds every count equal', () => {
    expect(first.code, first.stderr).toBe(0);
    for (const table of [
      'contacts',
      'contact_phones',
      'members',
      'calls',
      'dial_events',
      'recordings',
      'outbox',
      'access_tokens',
      'sessions',
      'usage_days',
    ]) {
      expect(first.stdout).toMatch(new RegExp(`^${table}: [\\d,]+ rows in`, 'm'));
    }
    expect(first.stdout).toMatch(/^contacts search: rebuilt for [\d,]+ rows/m);
    expect(first.stdout).toMatch(/^organisation \d+: contacts +[\d,]+ +[\d,]+$/m);
    expect(first.stdout).toContain(`their audio files are not: they stay in ${dir}`);
    expect(first.stdout).not.toContain('DIFFERS');
    expect(first.stdout).toContain('every count agrees');
    expect(sourceWrites, 'the source was written').toBe(0);
  });

  it('refuses a second copy into the same store (exit code 2) and changes nothing there', () => {
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('already holds organisations: a copy goes into an empty store only; nothing was written');
    expect(fingerprints.after).toBe(fingerprints.before);
  });

  it("answers the contacts lists, a page beyond the first and a rep's, as the source does", async () => {
    for (const [member, query] of [
      [vendor, 'page_size=100'],
      [vendor, 'page_size=50&page=3&sort_by=last_name&sort_order=ASC'],
      [alex, 'page_size=100'],
    ] as const) {
      const [expected, actual] = await both(member, `/rest/1/contacts?${query}`);
      expect(actual).toEqual(expected);
    }
  });

  it('answers searches by name, part of a name and number as the source does', async () => {
    for (const search of ['murphy', 'ar', 'copied', '2125550100']) {
      const [expected, actual] = await both(vendor, `/rest/1/contacts?search=${search}&page_size=100`);
      expect((expected as any).contacts.total_results, search).toBeGreaterThan(0);
      expect(actual, search).toEqual(expected);
    }
  });

  it('answers a contact record, its history and activities as the source does', async () => {
    const { db } = source.ctx.store;
    const called = await db
      .selectFrom('contacts')
      .select('id')
      .where('first_name', '=', 'Cal')
      .where('last_name', '=', 'Copied')
      .executeTakeFirstOrThrow();
    // A demo contact of alex's with a note, tags and custom values.
    const noted = await db
      .selectFrom('contacts')
      .innerJoin('contact_notes', 'contact_notes.contact_id', 'contacts.id')
      .select('contacts.id')
      .where('contacts.owner_id', '=', alex.id)
      .where('contacts.detail_kinds', '>', 0)
      .orderBy('contacts.id')
      .executeTakeFirstOrThrow();
    for (const id of [called.id, noted.id]) {
      for (const part of ['', '/activities?days=183', '/auditlog']) {
        const [expected, actual] = await both(alex, `/rest/1/contacts/${id}${part}`);
        expect(actual).toEqual(expected);
      }
    }
  });

  it('answers the calls, the dial session and the usage as the source does', async () => {
    for (const path of ['/rest/1/calls?page_size=100', `/rest/1/dialsession/${sessionId}`, '/rest/1/dialsession?page_size=100']) {
      const [expected, actual] = await both(alex, path);
      expect(actual).toEqual(expected);
    }
    const today = new Date(nowMs()).toISOString().slice(0, 10);
    const monthAgo = new Date(nowMs() - 40 * 86_400_000).toISOString().slice(0, 10);
    for (const path of ['/rest/1/dialsession/usage', '/rest/1/dialsession/usage/dispositions']) {
      const [expected, actual] = await both(vendor, `${path}?date_start=${monthAgo}&date_end=${today}`);
      expect(actual).toEqual(expected);
    }
  });

  it('signs in with the same password and the same personal token', async () => {
    const login = await target.as().raw('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ringbook-request': '1' },
      body: JSON.stringify({ username: 'alex', password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    expect(target.tokenOf(alex)).toBe(source.tokenOf(alex));
    expect((await target.as(source.tokenOf(alex)).get('/rest/1/contacts?page_size=1')).status).toBe(200);
  });

  it('gives a new contact an id past every id the source gave', async () => {
    const reply = await target
      .as(target.tokenOf(alex))
      .post('/rest/1/contacts', { first_name: 'Nia', last_name: 'New', email: 'nia.new@example.com' });
    expect(reply.status, reply.text).toBe(201);
    const watcher = new SQLite(sourceFile, { readonly: true });
    const issued = (watcher.prepare(`select seq from sqlite_sequence where name = 'contacts'`).get() as { seq: number }).seq;
    watcher.close();
    expect(Number(reply.body.contacts.contacts.contact_user_id)).toBe(issued + 1);
  });
});

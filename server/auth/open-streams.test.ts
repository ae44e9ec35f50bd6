import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from '../db/database.js';
import type { Member } from '../db/schema.js';
import { type TestDatabase, testDatabase } from '../test/databases.js';
import type { AuthContext } from './access.js';
import { OpenStreams } from './open-streams.js';

/*
 * The register's check on a real store (TEST_DATABASE=postgres for PostgreSQL): a credential the store does not hold
 * ends its stream; a stream opened while a check's queries are on their way is not judged by their answer.
 */
let dir: string;
let database: TestDatabase;
let store: Store;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-open-streams-'));
  database = await testDatabase(dir);
  store = await openStore(database.url);
}, 60_000);
afterAll(async () => {
  await store?.close();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const holder = (memberId: number, hash: string): AuthContext => ({
  member: { id: memberId } as Member,
  via: 'bearer',
  scope: { kind: 'team', orgId: 1, memberIds: [memberId] },
  credential: { kind: 'token', hash },
});

it('ends a stream whose token the store does not hold, and not one opened while the check was asking', async () => {
  const streams = new OpenStreams(store.db, { idleSeconds: 600, maxSeconds: 3600 }, 60_000);
  const ended: string[] = [];
  streams.open(holder(1, 'a'.repeat(64)), () => ended.push('before'));
  const checking = streams.check();
  const forget = streams.open(holder(2, 'b'.repeat(64)), () => ended.push('during'));
  await checking;
  expect(ended).toEqual(['before']);
  await streams.check();
  expect(ended).toEqual(['before', 'during']);
  forget();
  streams.closeAll();
});

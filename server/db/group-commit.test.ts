import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from './database.js';

let store: Store;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-store-'));

beforeAll(async () => {
  store = await openStore(`sqlite:${path.join(dir, 'store.db')}`);
});
afterAll(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const organisation = (name: string) => (tx: Store['db']) =>
  tx.insertInto('organisations').values({ name, created_at: '2026-01-01 00:00:00' }).returning('id').executeTakeFirstOrThrow();

const names = async () => (await store.db.selectFrom('organisations').select('name').orderBy('id').execute()).map((r) => r.name);

it('commits concurrent writers together and rolls back only the one that fails', async () => {
  const results = await Promise.allSettled([
    store.write(organisation('a')),
    store.write(async (tx) => {
      await organisation('half-done')(tx);
      throw new Error('refused');
    }),
    store.write(organisation('b')),
    store.write(async (tx) => {
      // A later writer in the same batch sees the earlier writers' rows.
      const seen = await tx.selectFrom('organisations').select('name').where('name', '=', 'b').executeTakeFirst();
      return organisation(seen ? 'c-after-b' : 'c-alone')(tx);
    }),
  ]);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
  expect(await names()).toEqual(['a', 'b', 'c-after-b']);
});

it('answers writes one after another as well', async () => {
  for (const name of ['d', 'e']) await store.write(organisation(name));
  expect((await names()).slice(-2)).toEqual(['d', 'e']);
});

it('keeps what it acknowledged across a reopen of the file', async () => {
  await store.write(organisation('durable'));
  const reopened = await openStore(`sqlite:${path.join(dir, 'store.db')}`);
  const row = await reopened.db.selectFrom('organisations').select('name').where('name', '=', 'durable').executeTakeFirst();
  await reopened.close();
  expect(row?.name).toBe('durable');
});

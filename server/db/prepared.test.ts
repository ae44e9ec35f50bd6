import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from './database.js';
import { prepared } from './prepared.js';

let store: Store;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-prepared-'));
const AT = '2026-01-01 00:00:00';
let ids: number[];

beforeAll(async () => {
  store = await openStore(`sqlite:${path.join(dir, 'store.db')}`);
  ids = await store.write(async (tx) => {
    const rows = await tx
      .insertInto('organisations')
      .values(['Alpha', 'Beta', 'Gamma', 'Delta'].map((name) => ({ name, created_at: AT })))
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  });
});
afterAll(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('builds once per shape and runs again with new values, list lengths included', async () => {
  let builds = 0;
  const orgs = prepared<{ named: boolean }, { ids: number[]; name?: string }, { id: number; name: string }>('orgs', (db, shape, p) => {
    builds++;
    const q = db.selectFrom('organisations').select(['id', 'name']).where('id', 'in', p.ids).orderBy('id');
    return shape.named ? q.where('name', '=', p.name!) : q;
  });
  const [a, b, c, d] = ids as [number, number, number, number];
  expect(await orgs(store.db, { named: false }, { ids: [a, b] })).toEqual([
    { id: a, name: 'Alpha' },
    { id: b, name: 'Beta' },
  ]);
  expect(await orgs(store.db, { named: false }, { ids: [c, d] })).toEqual([
    { id: c, name: 'Gamma' },
    { id: d, name: 'Delta' },
  ]);
  expect(builds).toBe(1);
  expect(await orgs(store.db, { named: false }, { ids: [a, b, c] })).toHaveLength(3);
  expect(builds).toBe(2);
  expect(await orgs(store.db, { named: true }, { ids: [a, b, c], name: 'Beta' })).toEqual([{ id: b, name: 'Beta' }]);
  expect(await orgs(store.db, { named: true }, { ids: [a, b, c], name: 'Gamma' })).toEqual([{ id: c, name: 'Gamma' }]);
  expect(builds).toBe(3);
  expect(await orgs(store.db, { named: false }, { ids: [] })).toEqual([]);
});

it('keeps the constants of the query and runs inside a write', async () => {
  const renamed = prepared<null, { id: number }, { name: string }>('rename', (db, _, p) =>
    db.updateTable('organisations').set({ name: 'Renamed' }).where('id', '=', p.id).returning('name'),
  );
  expect(await store.write((tx) => renamed(tx, null, { id: ids[0]! }))).toEqual([{ name: 'Renamed' }]);
  expect(await store.write((tx) => renamed(tx, null, { id: ids[1]! }))).toEqual([{ name: 'Renamed' }]);
  const names = await store.db.selectFrom('organisations').select('name').orderBy('id').execute();
  expect(names.map((n) => n.name)).toEqual(['Renamed', 'Renamed', 'Gamma', 'Delta']);
});

it('refuses a value its builder does not use, so a query cannot depend on a value outside its shape', async () => {
  const careless = prepared<null, { id: number; name: string }, { id: number }>('careless', (db, _, p) =>
    db.selectFrom('organisations').select('id').where('id', '=', p.id),
  );
  await expect(careless(store.db, null, { id: 1, name: 'x' })).rejects.toThrow(/careless does not use its parameter "name"/);
});

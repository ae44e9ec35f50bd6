import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness.js';
import { renderErrors } from './http.js';

/* A constraint the services did not catch first (a race) is a 409 in the error envelope, never a 500. */
let server: TestServer;
let url: string;
let close: () => void;

beforeAll(async () => {
  server = await startServer();
  const app = express();
  app.post('/duplicate-tag', async () => {
    await server.ctx.store.write(async (tx) => {
      const org = await tx
        .insertInto('organisations')
        .values({ name: 'o', created_at: '2026-01-01 00:00:00' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const tag = { org_id: org.id, title: 'VIP', title_lc: 'vip', created_at: '2026-01-01 00:00:00' };
      await tx.insertInto('tags').values([tag, tag]).execute();
    });
  });
  app.use(renderErrors);
  const listener = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => listener.once('listening', resolve));
  url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  close = () => listener.close();
});
afterAll(async () => {
  close();
  await server.close();
});

it('answers a constraint violation with 409 and rolls the write back', async () => {
  const res = await fetch(`${url}/duplicate-tag`, { method: 'POST' });
  expect(res.status).toBe(409);
  expect(await res.json()).toMatchObject({ http_status: 409, status: 'error', debug_codes: [{ code: 40901 }] });
  expect(await server.ctx.store.db.selectFrom('organisations').select('id').execute()).toEqual([]);
});

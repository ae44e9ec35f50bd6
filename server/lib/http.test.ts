import net, { type AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness.js';
import { parseBodies, renderErrors, useRequestLogging } from './http.js';
import { createLogger } from './logger.js';

/* A constraint the services did not catch first (a race) is a 409 in the error envelope, never a 500. */
let server: TestServer;
let url: string;
let close: () => void;

beforeAll(async () => {
  server = await startServer();
  const app = express();
  useRequestLogging(app, createLogger('silent'));
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
  // A request whose body was read whole, then a socket of ours reset under it (PostgreSQL's, lost): a real reset.
  app.post('/store-reset', parseBodies, async () => {
    await new Promise<never>((_resolve, reject) => {
      const peer = net.createServer((socket) => socket.resetAndDestroy());
      peer.listen(0, '127.0.0.1', () => {
        const socket = net.connect((peer.address() as AddressInfo).port, '127.0.0.1');
        socket.on('error', (error) => {
          peer.close();
          reject(error);
        });
      });
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

it('answers 503 when a socket of the store is reset after the request was read, instead of taking it for the client gone', async () => {
  const res = await fetch(`${url}/store-reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ first_name: 'Ada' }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('1');
  expect(await res.json()).toMatchObject({ http_status: 503, status: 'error', debug_codes: [{ code: 50301 }] });
});

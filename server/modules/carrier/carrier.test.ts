import { afterAll, beforeAll, expect, it } from 'vitest';
import { newCallbackSecret, signedHeaders } from '../../callbacks/signing.js';
import { startServer, type TestServer } from '../../test/harness.js';

/* The carrier's side door: only events signed with the carrier secret get in, and only JSON ones are read. */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const postEvent = (body: string, headers: Record<string, string>) =>
  server.as().raw('/carrier/events', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

it('refuses an event not signed with the carrier secret as an unknown credential', async () => {
  const body = '{"type":"call.answered"}';
  const reply = await postEvent(body, signedHeaders([newCallbackSecret()], 'msg_1', new Date(), body));
  expect(reply.status).toBe(401);
  expect(reply.body).toEqual({
    http_status: 401,
    status: 'error',
    debug_codes: [{ code: 40103, reason: 'The carrier event is not signed with the carrier secret.' }],
  });
});

it('refuses a signed event that is not JSON', async () => {
  const body = 'not json';
  const reply = await postEvent(body, signedHeaders([server.ctx.dialer.carrierSecret], 'msg_2', new Date(), body));
  expect(reply.status).toBe(400);
  expect(reply.body).toMatchObject({ debug_codes: [{ code: 40001, field: 'body', reason: 'The carrier event is not valid JSON.' }] });
});

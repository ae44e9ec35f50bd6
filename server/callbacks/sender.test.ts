import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../test/receiver.js';
import { createSender, type Sender } from './sender.js';

const body = '{"event":"call.ended","data":{"call_id":"42","note":"Grüße"}}';
const signed = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1772366400', 'webhook-signature': 'v1,abc=' };

let receiver: Receiver;
let sender: Sender;
beforeAll(async () => {
  receiver = await startReceiver();
  sender = createSender({ allowedHosts: ['127.0.0.1'], timeoutMs: 2_000 });
});
afterAll(async () => {
  sender.close();
  await receiver.close();
});
afterEach(() => {
  receiver.received.length = 0;
});

describe('send to an allowed host', () => {
  it('POSTs the body exactly as given with our headers and the given ones, and a 200 is ok', async () => {
    const result = await sender.send(`${receiver.url}/in/abc?token=s3cret`, signed, body);
    expect(result).toMatchObject({ ok: true, status: 200, error: null });
    const [got] = await receiver.waitFor(1);
    expect(got).toMatchObject({ path: '/in/abc', query: 'token=s3cret', body });
    expect(got!.headers).toMatchObject({
      ...signed,
      'content-type': 'application/json',
      'user-agent': 'Ringbook-Callbacks/1',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'keep-alive',
    });
  });

  it("keeps our Content-Type and User-Agent over a caller's", async () => {
    await sender.send(`${receiver.url}/in`, { 'Content-Type': 'text/plain', 'User-Agent': 'x' }, body);
    const [got] = await receiver.waitFor(1);
    expect(got!.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'Ringbook-Callbacks/1' });
  });

  it.each([
    [500, 'The receiver answered 500.'],
    [404, 'The receiver answered 404.'],
    [410, 'The receiver answered 410.'],
  ])('is not ok when the receiver answers %i', async (status, error) => {
    receiver.failNext(1, status);
    expect(await sender.send(`${receiver.url}/in`, signed, body)).toMatchObject({ ok: false, status, error });
  });

  it('does not follow a redirect, and a 302 is not ok', async () => {
    receiver.failNext(1, 302);
    const result = await sender.send(`${receiver.url}/in?token=s3cret`, signed, body);
    expect(result).toMatchObject({ ok: false, status: 302, error: 'The receiver answered 302, a redirect, which is not followed.' });
    await sender.send(`${receiver.url}/second`, signed, body);
    expect((await receiver.waitFor(2)).map((r) => r.path)).toEqual(['/in', '/second']);
  });

  it('gives up on a receiver that never answers after timeoutMs', async () => {
    const quick = createSender({ allowedHosts: ['127.0.0.1'], timeoutMs: 200 });
    receiver.hangNext(1);
    const result = await quick.send(`${receiver.url}/in`, signed, body);
    quick.close();
    expect(result).toMatchObject({ ok: false, status: null, error: 'No complete answer within 200 ms.' });
    expect(result.ms).toBeGreaterThanOrEqual(195);
    expect(receiver.received).toHaveLength(1);
  });

  it('is not ok when the connection is refused', async () => {
    const closed = await startReceiver();
    await closed.close();
    expect(await sender.send(`${closed.url}/in`, signed, body)).toMatchObject({
      ok: false,
      status: null,
      error: 'The connection was refused.',
    });
  });

  it('reuses one connection for callbacks sent one after another', async () => {
    const server = await listen((_req, res) => res.end('ok'));
    for (let i = 0; i < 3; i++) expect(await sender.send(`${server.url}/in`, signed, body)).toMatchObject({ ok: true });
    await server.close();
    expect(server.connections()).toBe(1);
  });

  it('reads no more than 64 KB of an answer, so an endless one still ends the send', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'x');
    const server = await listen((_req, res) => {
      res.writeHead(200);
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    const result = await sender.send(`${server.url}/in`, signed, body);
    await server.close();
    expect(result).toMatchObject({ ok: true, status: 200, error: null });
  });

  it('refuses a URL that is not http(s) or carries credentials, without sending', async () => {
    expect(await sender.send('ftp://127.0.0.1/in', signed, body)).toMatchObject({
      ok: false,
      error: 'The callback URL must be an http or https URL.',
    });
    expect(await sender.send(`${receiver.url.replace('//', '//u:p@')}/in`, signed, body)).toMatchObject({
      ok: false,
      error: 'The callback URL must not contain a user name or password.',
    });
    expect(receiver.received).toHaveLength(0);
  });
});

describe('send to a host that is not allowed', () => {
  it.each([
    ['an IP literal', (url: string) => url, 'Refused: 127.0.0.1 is a private or local address.'],
    [
      'a name that resolves to it',
      (url: string) => url.replace('127.0.0.1', 'localhost'),
      /^Refused: (127\.0\.0\.1|::1) is a private or local address\.$/,
    ],
  ])('refuses a private address given as %s when connecting, and the receiver sees nothing', async (_case, toUrl, error) => {
    const strict = createSender({ allowedHosts: [], timeoutMs: 2_000 });
    const result = await strict.send(`${toUrl(receiver.url)}/in`, signed, body);
    strict.close();
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toMatch(error);
    expect(receiver.received).toHaveLength(0);
  });

  it.each([
    ['IPv4-compatible', '[::127.0.0.1]', '::7f00:1'],
    ['IPv4-compatible, written out', '[0:0:0:0:0:0:7f00:1]', '::7f00:1'],
    ['IPv4-mapped', '[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['the metadata address IPv4-compatible', '[::169.254.169.254]', '::a9fe:a9fe'],
    ['NAT64', '[64:ff9b::127.0.0.1]', '64:ff9b::7f00:1'],
    ['6to4', '[2002:7f00:1::1]', '2002:7f00:1::1'],
    ['site-local', '[fec0::1]', 'fec0::1'],
  ])('refuses an %s address (%s) when connecting, and nothing is sent', async (_case, host, address) => {
    const strict = createSender({ allowedHosts: [], timeoutMs: 2_000 });
    const result = await strict.send(`${receiver.url.replace('127.0.0.1', host)}/in`, signed, body);
    strict.close();
    expect(result).toMatchObject({ ok: false, status: null, error: `Refused: ${address} is a private or local address.` });
    expect(receiver.received).toHaveLength(0);
  });
});

/** A receiver with behaviour of its own, for what startReceiver does not do. */
async function listen(handler: http.RequestListener) {
  const server = http.createServer(handler);
  let connections = 0;
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

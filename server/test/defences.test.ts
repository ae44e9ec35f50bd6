import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { createHttpServer } from '../lib/http-server.js';
import { serverWithTeam, type Caller, type Team, type TestServer } from './harness.js';

/* Findings 4, 5, 6, 7 and 9 of the defences issue, each through the real app. */
let server: TestServer;
let team: Team;
let api: Caller;

beforeAll(async () => {
  let as: (m: Team['rep']) => Caller;
  ({ server, team, api: as } = await serverWithTeam());
  api = as(team.rep);
});
afterAll(() => server.close());

const contactCount = async () =>
  Number(
    (
      await server.ctx.store.db
        .selectFrom('contacts')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('a body we cannot read', () => {
  it.each(['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/octet-stream'])(
    'is refused with 415 in the envelope for %s, and nothing is created or recorded',
    async (type) => {
      const before = await contactCount();
      const created = await api.raw('/rest/1/contacts', { method: 'POST', headers: { 'content-type': type }, body: 'first_name=Blank' });
      expect(created.status).toBe(415);
      expect(created.body).toMatchObject({ http_status: 415, status: 'error', debug_codes: [{ code: 41501, field: 'body' }] });
      expect(await contactCount()).toBe(before);
      const id = (await api.post('/rest/1/contacts', { first_name: 'Kept' })).body.contacts.contacts.contact_user_id;
      const updated = await api.raw(`/rest/1/contacts/${id}`, {
        method: 'PUT',
        headers: { 'content-type': type },
        body: 'first_name=Changed',
      });
      expect(updated.status).toBe(415);
      const activities = (await api.get(`/rest/1/contacts/${id}/activities?days=1`)).body.contact_activities.contact_activities;
      expect(activities.map((a: { activity: string }) => a.activity)).toEqual(['Contact created']);
    },
  );

  it('is refused with 400 when its bytes are not UTF-8, rather than stored with replacement characters', async () => {
    const body = Buffer.concat([Buffer.from('{"first_name":"Ren'), Buffer.from([0xe9]), Buffer.from('e"}')]);
    const reply = await api.raw('/rest/1/contacts', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ code: 40001, field: 'body' });
  });
});

describe('text that is not text', () => {
  it.each([
    ['a NUL byte', 'Acme\u0000'],
    ['an escape', '\u001b[31mred'],
    ['a C1 control', 'x\u0085y'],
    ['a lone surrogate', 'half \ud800 a pair'],
  ])('refuses %s in a name with 400 naming the field, and stores nothing', async (_label, value) => {
    const folders = await server.as(server.tokenOf(team.vendor)).post('/rest/1/folders', { name: value });
    expect(folders.status).toBe(400);
    expect(folders.body.debug_codes[0]).toMatchObject({ code: 40003, field: 'name' });
    const before = await contactCount();
    const contact = await api.post('/rest/1/contacts', { first_name: 'Ok', last_name: value });
    expect(contact.body.debug_codes[0].field).toBe('last_name');
    expect(await contactCount()).toBe(before);
  });

  it('keeps tabs, line breaks and characters outside the BMP as given', async () => {
    const notes = 'line one\n\tline two 😀';
    const id = (await api.post('/rest/1/contacts', { first_name: 'Emoji 😀', notes })).body.contacts.contacts.contact_user_id;
    const record = (await api.get(`/rest/1/contacts/${id}`)).body.contacts.contacts[0];
    expect(record.first_name).toBe('Emoji 😀');
    expect(record.notes.notes.endsWith(notes)).toBe(true);
  });
});

/** Sends raw bytes and answers the status line and body Node or the app writes back. */
function rawExchange(url: string, request: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('error', reject);
    socket.on('close', () =>
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0), body: answer.split('\r\n\r\n')[1] ?? '' }),
    );
  });
}

describe('answers outside the app', () => {
  it.each([
    ['a URL over 16 KB', `GET /rest/1/contacts?x=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['a header block over 16 KB', `GET /auth/session HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17_000)}\r\n\r\n`],
  ])('%s gets 431 in the error envelope', async (_label, request) => {
    const { status, body } = await rawExchange(server.url, request);
    expect(status).toBe(431);
    expect(JSON.parse(body)).toMatchObject({ http_status: 431, status: 'error', debug_codes: [{ code: 43101 }] });
  });

  it('answers bytes that are not HTTP with 400 in the envelope', async () => {
    const { status, body } = await rawExchange(server.url, 'HELLO THERE\r\n\r\n');
    expect(status).toBe(400);
    expect(JSON.parse(body).debug_codes[0].code).toBe(40005);
  });
});

describe('the web app files', () => {
  let dist: string;
  let url: string;
  let close: () => void;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Ringbook</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-1.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dist, 'assets', 'app-1.js.map'), '{"sources":["src/secret.ts"]}');
    const listener = createHttpServer(createApp(server.ctx, { staticDir: dist }), server.ctx.config.connections).listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    url = `http://127.0.0.1:${(listener.address() as net.AddressInfo).port}`;
    close = () => listener.close();
  });
  afterAll(() => {
    close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers a missing asset with 404 naming no file path', async () => {
    const res = await fetch(`${url}/assets/missing-9.js`);
    const text = await res.text();
    expect(res.status).toBe(404);
    expect(text).not.toMatch(/ENOENT|\/tmp\/|dist\//);
    expect(JSON.parse(text)).toMatchObject({ status: 'error', debug_codes: [{ reason: 'There is no such file.' }] });
  });

  it('does not serve source maps', async () => {
    expect((await fetch(`${url}/assets/app-1.js`)).status).toBe(200);
    expect((await fetch(`${url}/assets/app-1.js.map`)).status).toBe(404);
  });

  it('sends a strict CSP, no framing, nosniff and a referrer policy; HSTS only under https', async () => {
    const res = await fetch(`${url}/contacts`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('slow and idle clients', () => {
  let slow: TestServer;
  beforeAll(async () => {
    ({ server: slow } = await serverWithTeam({ REQUEST_TIMEOUT_SECONDS: '1', HEADERS_TIMEOUT_SECONDS: '1', MAX_CONNECTIONS: '5' }));
  });
  afterAll(() => slow.close());

  it('cuts off a body sent a byte at a time with 408 in the envelope, once REQUEST_TIMEOUT_SECONDS is up', async () => {
    const { hostname, port } = new URL(slow.url);
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.write('POST /rest/1/contacts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
        const drip = setInterval(() => socket.writable && socket.write(' '), 100);
        socket.on('close', () => clearInterval(drip));
      });
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!).debug_codes[0].code).toBe(40801);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('closes a connection that never sends a request, and keeps at most MAX_CONNECTIONS open', async () => {
    const { hostname, port } = new URL(slow.url);
    const closed: boolean[] = [];
    const sockets = Array.from({ length: 8 }, (_, i) => {
      const socket = net.connect(Number(port), hostname);
      socket.on('error', () => undefined);
      socket.resume();
      return new Promise<number>((resolve) => socket.on('close', () => resolve(closed.push(true) && i)));
    });
    // Past the cap, three are dropped at once; the five kept are cut off by the header time-out.
    await Promise.all(sockets);
    expect(closed).toHaveLength(8);
  });
});

import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { MAX_STREAMS_PER_MEMBER } from '../auth/open-streams.js';
import { createHttpServer } from '../lib/http-server.js';
import { caller, type Caller, serverWithTeam, TEST_PASSWORD, type Team, type TestServer } from './harness.js';
import { type ServerProcess, startServerProcess, type StoreFolder, storeFolder, vendorIn } from './process.js';
import { testStoreFolder } from './process-store.js';
import { personalToken } from '../auth/tokens.js';

/* Issue 19, the second probe: findings 4, 5, 6, 10 and 12, each through the real app. */
let server: TestServer;
let team: Team;
let api: (member: Team['rep']) => Caller;

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
});
afterAll(() => server.close());

const CSRF = { 'x-ringbook-request': '1' };
async function cookieOf(username: string): Promise<string> {
  const reply = await server.as().raw('/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...CSRF },
    body: JSON.stringify({ username, password: TEST_PASSWORD }),
  });
  expect(reply.status, reply.text).toBe(200);
  return /rb_session=([^;]+)/.exec(reply.headers.getSetCookie().join('\n'))![1]!;
}
async function previewSession(as: Caller): Promise<string> {
  const created = await as.post('/rest/1/dialsession', {
    contacts: [{ first_name: 'Streamed', phone: '3124760001', allow_duplicates: 1 }],
    preview_mode: 1,
  });
  expect(created.status, created.text).toBe(201);
  return created.body.dialsessions.dialsession_id;
}
/** Opens an event stream and answers a promise that settles when the server ends it. */
async function stream(id: string, headers: Record<string, string>): Promise<{ status: number; ended: Promise<void>; abort: () => void }> {
  const abort = new AbortController();
  const response = await fetch(`${server.url}/rest/1/dialsession/${id}/events`, { headers, signal: abort.signal });
  const ended = response.text().then(
    () => undefined,
    () => undefined,
  );
  return { status: response.status, ended, abort: () => abort.abort() };
}

describe('finding 6: ending a session ends its streams', () => {
  it('closes a stream opened with the cookie when that session signs out', async () => {
    const cookie = await cookieOf(team.rep.username);
    const id = await previewSession(api(team.rep));
    const open = await stream(id, { cookie: `rb_session=${cookie}` });
    expect(open.status).toBe(200);
    const out = await server.as().raw('/auth/logout', { method: 'POST', headers: { cookie: `rb_session=${cookie}`, ...CSRF } });
    expect(out.status).toBe(204);
    await open.ended;
  });

  it('closes the streams of a token once it is revoked', async () => {
    const id = await previewSession(api(team.teammate));
    const open = await stream(id, { authorization: `Bearer ${server.tokenOf(team.teammate)}` });
    expect(open.status).toBe(200);
    expect((await api(team.vendor).post(`/rest/1/members/${team.teammate.id}/token`)).status).toBe(200);
    await open.ended;
  });
});

/* What tells the other process is the store (each checks its streams' credentials there), so they run on the test store. */
describe('finding 6, with two server processes: a session or token that ends elsewhere ends the streams here', () => {
  let folder: StoreFolder;
  let two: ServerProcess;
  let vendorToken: string;
  beforeAll(async () => {
    folder = await testStoreFolder();
    const vendor = await vendorIn(folder, `streams${process.pid}`, TEST_PASSWORD);
    vendorToken = personalToken(Buffer.from(folder.secretKey, 'utf8'), vendor);
    two = await startServerProcess(folder, { WORKERS: '2' });
  }, 60_000);
  afterAll(async () => {
    await two?.stop('SIGKILL');
    await folder?.remove();
  });

  /** A fresh connection per request, so requests land on either process. */
  const send = (path: string, init: RequestInit = {}) =>
    fetch(`${two.url}${path}`, { ...init, headers: { connection: 'close', ...(init.headers as object) } });
  /** Opens six streams; answers once all are open, with a promise of their ends. */
  const streams = async (id: string, headers: Record<string, string>) => {
    const responses = await Promise.all(Array.from({ length: 6 }, () => send(`/rest/1/dialsession/${id}/events`, { headers })));
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
    return { ended: Promise.all(responses.map((r) => r.text())) };
  };

  it('ends every stream of a web session signed out, and of a member removed, whichever process holds them', async () => {
    const vendor = { authorization: `Bearer ${vendorToken}`, 'content-type': 'application/json' };
    const username = `twoproc${process.pid}`;
    const made = await send('/rest/1/members', {
      method: 'POST',
      headers: vendor,
      body: JSON.stringify({
        username,
        password: TEST_PASSWORD,
        first_name: 'Two',
        email: 'two@example.com',
        billing_item_id: 1,
        billing_group_id: 'g',
        subgroup_id: 's',
      }),
    });
    const member = (await made.json()).members.members;
    const login = await send('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...CSRF },
      body: JSON.stringify({ username, password: TEST_PASSWORD }),
    });
    const cookie = `rb_session=${/rb_session=([^;]+)/.exec(login.headers.getSetCookie().join('\n'))![1]}`;
    const session = await send('/rest/1/dialsession', {
      method: 'POST',
      headers: { cookie, ...CSRF, 'content-type': 'application/json' },
      body: JSON.stringify({ contacts: [{ first_name: 'Far', phone: '3124760002' }], preview_mode: 1 }),
    });
    const id = (await session.json()).dialsessions.dialsession_id;

    const byCookie = await streams(id, { cookie });
    expect((await send('/auth/logout', { method: 'POST', headers: { cookie, ...CSRF } })).status).toBe(204);
    await byCookie.ended;

    const token = { authorization: `Bearer ${member.oauth.bearer_token}` };
    const byToken = await streams(id, token);
    expect((await send(`/rest/1/members/${member.user_id}`, { method: 'DELETE', headers: vendor })).status).toBe(204);
    await byToken.ended;
  }, 60_000);
});

describe('finding 4: streams per member are capped', () => {
  it(`refuses the ${MAX_STREAMS_PER_MEMBER + 1}th open stream of one member with 429 and Retry-After`, async () => {
    const id = await previewSession(api(team.manager));
    const headers = { authorization: `Bearer ${server.tokenOf(team.manager)}` };
    const open = await Promise.all(Array.from({ length: MAX_STREAMS_PER_MEMBER }, () => stream(id, headers)));
    expect(open.map((s) => s.status)).toEqual(open.map(() => 200));
    const refused = await api(team.manager).get(`/rest/1/dialsession/${id}/events`);
    expect([refused.status, refused.body.debug_codes[0].code, refused.headers.get('retry-after')]).toEqual([429, 42901, '5']);
    open[0]!.abort();
    await open[0]!.ended;
    // The slot is given back when a stream ends.
    const again = await stream(id, headers);
    expect(again.status).toBe(200);
    for (const s of [...open, again]) s.abort();
  });
});

describe('finding 4: clients that never read', () => {
  let folder: StoreFolder;
  let slow: ServerProcess;
  beforeAll(async () => {
    folder = storeFolder();
    slow = await startServerProcess(folder, {
      WORKERS: '1',
      REQUEST_TIMEOUT_SECONDS: '1',
      HEADERS_TIMEOUT_SECONDS: '1',
      MAX_CONNECTIONS: '6',
    });
  }, 60_000);
  afterAll(async () => {
    await slow?.stop('SIGKILL');
    await folder?.remove();
  });

  it('gives back the slot of a connection cut off with 408 even if the client never reads nor closes', async () => {
    const { hostname, port } = new URL(slow.url);
    // Each sends the start of its headers and no more: cut off with 408 by the header time-out.
    const stuck = await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          new Promise<net.Socket>((resolve) => {
            const socket = net.connect(Number(port), hostname, () => {
              socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
              socket.pause();
              resolve(socket);
            });
            socket.on('error', () => undefined);
          }),
      ),
    );
    // All six slots are taken: a new connection is dropped at once.
    await expect(fetch(`${slow.url}/healthz`)).rejects.toThrow();
    // Each is answered 408 and then let go by the server, though the client never reads and never closes: the health
    // check gets through again (before, it never did).
    let status = 0;
    while (status !== 200) {
      status = await fetch(`${slow.url}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(200);
    for (const socket of stuck) socket.destroy();
  }, 30_000);
});

describe('finding 5: source maps', () => {
  let url: string;
  let close: () => void;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Ringbook</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-1.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dist, 'assets', 'index-1.js.map'), '{"sources":["src/secret.ts"]}');
    const listener = createHttpServer(createApp(server.ctx, { staticDir: dist }), server.ctx.config.connections).listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    url = `http://127.0.0.1:${(listener.address() as net.AddressInfo).port}`;
    close = () => listener.close();
  });
  afterAll(() => {
    close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it.each(['index-1.js.ma%70', 'index-1.js%2emap', 'index-1.js%2Emap', 'index-1%2ejs%2emap', 'index-1.js.%6d%61%70'])(
    'are not served as /assets/%s',
    async (name) => {
      const res = await fetch(`${url}/assets/${name}`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('secret.ts');
    },
  );

  it('are not built', () => {
    expect(fs.readFileSync('vite.config.ts', 'utf8')).toMatch(/sourcemap: false/);
  });
});

describe('finding 10: deeply nested bodies', () => {
  const nested = (depth: number, leaf: string) => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
  it.each([
    ['config nested 3,000 levels', () => `{"contacts":[{"first_name":"Deep"}],"config":${nested(3000, '1')}}`],
    [
      'custom_data nested 50,000 levels',
      () => `{"contacts":[{"first_name":"Deep"}],"custom_data":${'['.repeat(50_000)}${']'.repeat(50_000)}}`,
    ],
  ])('refuses %s with 400 naming the limit, creating nothing', async (_what, body) => {
    const before = (await api(team.rep).get('/rest/1/dialsession')).body.dialsessions.total_results;
    const reply = await api(team.rep).raw('/rest/1/dialsession', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body(),
    });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({
      code: 40006,
      field: 'body',
      reason: expect.stringMatching(/nested more than 32 levels/),
    });
    expect((await api(team.rep).get('/rest/1/dialsession')).body.dialsessions.total_results).toBe(before);
  });

  it('still reads brackets inside strings, and a body 32 levels deep', async () => {
    const reply = await api(team.rep).post('/rest/1/contacts', {
      first_name: '[[[[{{{{',
      notes: '}}}]]]',
      custom_fields: [{ name: 'Deep', type: 1, value: '{'.repeat(100) }],
    });
    expect(reply.status).toBe(201);
    const deep = await api(team.rep).raw('/rest/1/contacts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"first_name":"D","config":${nested(31, '1')}}`,
    });
    expect(deep.status, deep.text).toBe(201);
  });
});

describe('finding 12: the smaller ones', () => {
  it('answers an Expect it cannot meet with 417 in the envelope, running nothing', async () => {
    const { hostname, port } = new URL(server.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), hostname, () =>
        socket.write(`GET /rest/1/tranquility HTTP/1.1\r\nHost: x\r\nExpect: junk\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (d) => {
        text += d;
        if (text.includes('}')) resolve(text);
      });
      socket.on('error', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 417/);
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({ http_status: 417, status: 'error', debug_codes: [{ code: 41701 }] });
  });

  it('prefers the valid one of two rb_session cookies, in either order', async () => {
    const cookie = await cookieOf(team.manager.username);
    const planted = 'A'.repeat(43);
    for (const header of [`rb_session=${planted}; rb_session=${cookie}`, `rb_session=${cookie}; rb_session=${planted}`]) {
      const reply = await caller(server.url, { cookie: header, ...CSRF }).get('/rest/1/members/me');
      expect(reply.status, header).toBe(200);
      expect(reply.body.members.members.user_id).toBe(String(team.manager.id));
    }
  });

  it('says what a folder id must be', async () => {
    const reply = await api(team.rep).get('/rest/1/contacts?folder_id=abc');
    expect(reply.body.debug_codes[0].reason).toBe('folder_id must be an id (a whole number), or 0 for none.');
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetClock, setClock } from '../../lib/clock.js';
import { serverWithTeam, type TestServer, type Team } from '../../test/harness.js';
import type { Caller } from '../../test/harness.js';

let server: TestServer;
let team: Team;
let rep: Caller;

beforeAll(async () => {
  ({ server, team } = await serverWithTeam());
  rep = server.as(server.tokenOf(team.rep));
});
afterAll(() => server?.close());
afterEach(() => resetClock());

describe('GET /rest/1/clock', () => {
  it("answers the server's clock and its day, UTC, as the API's timestamps and dates are", async () => {
    setClock(new Date('2026-11-23T23:59:30Z'));
    const reply = await rep.get('/rest/1/clock');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ http_status: 200, status: 'success' });
    expect(reply.body.clock.today).toBe('2026-11-23');
    expect(reply.body.clock.now).toMatch(/^2026-11-23 23:59:(3\d|4\d|5\d)$/);
    expect(reply.headers.get('cache-control')).toBe('no-store');
  });

  it('follows the clock into the next day', async () => {
    setClock(new Date('2026-11-24T00:00:05Z'));
    expect((await rep.get('/rest/1/clock')).body.clock.today).toBe('2026-11-24');
  });

  it('answers the web app by its session cookie too', async () => {
    const login = await server.as().raw('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ringbook-request': '1' },
      body: JSON.stringify({ username: team.rep.username, password: 'correct horse battery' }),
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const reply = await server.as().raw('/rest/1/clock', { method: 'GET', headers: { cookie } });
    expect(reply.status).toBe(200);
    expect(reply.body.clock.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('answers 401 without credentials', async () => {
    const reply = await server.as().get('/rest/1/clock');
    expect([reply.status, reply.body.debug_codes[0].code]).toEqual([401, 40101]);
  });
});

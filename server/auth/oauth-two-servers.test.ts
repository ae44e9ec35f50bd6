import { afterAll, beforeAll, expect, it } from 'vitest';
import { caller, serverWithTeam, type Caller, type Team, type TestServer } from '../test/harness.js';
import { browserOf, codeFor, type Integration, redeem, register, tokenForm } from '../test/oauth.js';
import { type ServerProcess, startServerProcess, type StoreFolder } from '../test/process.js';
import { folderOn } from '../test/process-store.js';

/*
 * A token revoked on one server is refused by the next request to any other server on the same store: tokens are
 * checked in the store on every request, never kept by a process. The second server is a process of its own.
 */
let server: TestServer;
let team: Team;
let api: (m: Team['vendor']) => Caller;
let client: Integration;
let folder: StoreFolder;
let other: ServerProcess;

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  client = await register(api(team.vendor));
  folder = folderOn(server);
  other = await startServerProcess(folder, {
    WORKERS: '1',
    TRANSCRIBER: 'none',
    CARRIER_URL: server.ctx.config.carrier.url!,
    LOG_LEVEL: 'error',
  });
}, 120_000);
afterAll(async () => {
  await other?.stop();
  await server?.close();
  await folder?.remove();
});

const meOnOther = (token: string) => caller(other.url, { authorization: `Bearer ${token}` }).get('/rest/1/members/me');

it('refuses on the other server an OAuth token revoked on this one, at once', async () => {
  const tokens = (await redeem(server, client, await codeFor(await browserOf(server, team.rep), client))).body;
  expect((await meOnOther(tokens.access_token)).status).toBe(200);
  await tokenForm(server, '/oauth/revoke', {
    client_id: client.client_id,
    client_secret: client.client_secret,
    token: tokens.access_token,
  });
  expect((await meOnOther(tokens.access_token)).status).toBe(401);
});

it('refuses on the other server a personal access token revoked on this one, at once', async () => {
  const made = (await api(team.rep).post('/rest/1/tokens', { name: 'Both' })).body.tokens.tokens;
  expect((await meOnOther(made.token)).status).toBe(200);
  await api(team.vendor).delete(`/rest/1/tokens/${made.token_id}`);
  expect((await meOnOther(made.token)).status).toBe(401);
});

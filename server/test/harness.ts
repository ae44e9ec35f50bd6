import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../app.js';
import { defaultRecorder } from '../carrier/recorder.js';
import { carrierSecretOf } from '../carrier/secret.js';
import { type CarrierService, createCarrierService } from '../carrier/service.js';
import { createHttpServer } from '../lib/http-server.js';
import { loadConfig } from '../config.js';
import { type Context, createContext, startBackground, stopBackground } from '../context.js';
import { openStore } from '../db/database.js';
import type { Member } from '../db/schema.js';
import { testDatabase } from './databases.js';
import { keyOfSetting } from '../auth/secret-key.js';
import { personalToken } from '../auth/tokens.js';
import { createLogger } from '../lib/logger.js';
import { createVendor } from '../modules/members/members.service.js';

export type Reply = { status: number; body: any; headers: Headers; text: string };

export type Caller = {
  get(path: string): Promise<Reply>;
  post(path: string, body?: unknown): Promise<Reply>;
  put(path: string, body?: unknown): Promise<Reply>;
  delete(path: string, body?: unknown): Promise<Reply>;
  form(method: string, path: string, body: string): Promise<Reply>;
  raw(path: string, init: RequestInit): Promise<Reply>;
};

export type TestServer = {
  url: string;
  ctx: Context;
  /** A caller with this bearer token (or none). */
  as(token?: string): Caller;
  tokenOf(member: Member): string;
  /** The simulated carrier this server places its calls with. */
  carrier?: CarrierService;
  close(): Promise<void>;
};

/** The simulated carrier on a port of its own, recording into the test's folder. */
async function startCarrier(secret: string, timeScale: number, dir: string): Promise<{ url: string; service: CarrierService }> {
  const service = createCarrierService({ secret, timeScale, recordingsDir: path.join(dir, 'carrier'), recorder: defaultRecorder() });
  service.server.listen(0, '127.0.0.1');
  await new Promise((resolve) => service.server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`, service };
}

/** A fresh store in its own file and the real app listening on a random port; `env` sets configuration as operators do. */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-test-'));
  // A key that is its own text, as SECRET_KEY gives it: the config and the context hold the same key.
  // A SECRET_KEY given (a second server on a copy of a store) is the context's key too: its tokens are the same.
  const secretText = env.SECRET_KEY ?? crypto.randomBytes(32).toString('hex');
  const secretKey = keyOfSetting(secretText);
  // The phone network, as npm start runs it: a carrier service of its own, reached over HTTP.
  const carrier = env.CARRIER_URL
    ? undefined
    : await startCarrier(carrierSecretOf(undefined, secretKey), Number(env.CARRIER_TIME_SCALE ?? 1), dir);
  const database = await testDatabase(dir);
  const config = loadConfig({
    // Transcribing every call of every test would take the machine's CPU: the tests of transcription ask for it.
    DATABASE_URL: database.url,
    SECRET_KEY: secretText,
    LOG_LEVEL: 'silent',
    PORT: '0',
    TRANSCRIBER: 'none',
    ...(carrier ? { CARRIER_URL: carrier.url } : {}),
    ...env,
  });
  const store = await openStore(config.databaseUrl);
  const ctx = createContext({ store, config, secretKey, logger: createLogger('silent') });
  const server = createHttpServer(createApp(ctx), config.connections).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  startBackground(ctx, url);
  return {
    url,
    ctx,
    as: (token) => caller(url, token ? { authorization: `Bearer ${token}` } : {}),
    tokenOf: (member) => personalToken(ctx.secretKey, member),
    carrier: carrier?.service,
    close: async () => {
      await carrier?.service.close();
      await stopBackground(ctx);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Any 5xx fails the test that caused it: a 500 is always a bug. */
export function caller(url: string, headers: Record<string, string>): Caller {
  const send = async (p: string, init: RequestInit): Promise<Reply> => {
    const res = await fetch(url + p, {
      ...init,
      headers: { accept: 'application/json', ...headers, ...(init.headers as Record<string, string>) },
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    if (res.status >= 500) throw new Error(`${init.method ?? 'GET'} ${p} answered ${res.status}: ${text}`);
    return { status: res.status, body, headers: res.headers, text };
  };
  const json = (method: string) => (p: string, body?: unknown) =>
    send(p, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return {
    get: (p) => send(p, { method: 'GET' }),
    post: json('POST'),
    put: json('PUT'),
    delete: json('DELETE'),
    form: (method, p, body) => send(p, { method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
    raw: send,
  };
}

export type Team = {
  vendor: Member;
  manager: Member;
  rep: Member;
  teammate: Member;
  outsider: Member;
  /** A vendor of another organisation. */
  otherVendor: Member;
};

let counter = 0;
const unique = (prefix: string) => `${prefix}${process.pid}x${++counter}`;

/**
 * The team tree most tests need: a vendor; a manager beneath it with a rep and a teammate; an outsider rep
 * directly under the vendor; and a second organisation. Members are created through the real API.
 */
export async function seedTeam(server: TestServer): Promise<Team> {
  const password = 'correct horse battery';
  const [vendor, otherVendor] = await Promise.all([
    createVendor(server.ctx, { username: unique('vendor'), password, email: 'vendor@example.com', firstName: 'Vera', lastName: 'Vendor' }),
    createVendor(server.ctx, { username: unique('other'), password, email: 'other@example.com', firstName: 'Otto', lastName: 'Other' }),
  ]);
  const api = server.as(server.tokenOf(vendor));
  const create = async (first: string, role: string, managerId?: number) => {
    const reply = await api.post('/rest/1/members', {
      username: unique(first.toLowerCase()),
      password,
      first_name: first,
      last_name: 'Test',
      email: `${first.toLowerCase()}@example.com`,
      billing_item_id: 1,
      billing_group_id: 'g',
      subgroup_id: 's',
      role,
      manager_id: managerId,
    });
    if (reply.status !== 201) throw new Error(`seedTeam: ${reply.text}`);
    const member = await server.ctx.store.db
      .selectFrom('members')
      .selectAll()
      .where('id', '=', Number(reply.body.members.members.user_id))
      .executeTakeFirstOrThrow();
    return member;
  };
  const manager = await create('Mona', 'manager');
  const [rep, teammate, outsider] = await Promise.all([
    create('Rick', 'member', manager.id),
    create('Tess', 'member', manager.id),
    create('Owen', 'member'),
  ]);
  return { vendor, manager, rep, teammate, outsider, otherVendor };
}

export const TEST_PASSWORD = 'correct horse battery';

/** What most HTTP test files start from: a fresh server, the seeded team, and a caller per member. */
export async function serverWithTeam(
  env: Record<string, string> = {},
): Promise<{ server: TestServer; team: Team; api: (member: Member) => Caller }> {
  const server = await startServer(env);
  const team = await seedTeam(server);
  return { server, team, api: (member) => server.as(server.tokenOf(member)) };
}

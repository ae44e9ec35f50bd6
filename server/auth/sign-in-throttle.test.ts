import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../lib/http-errors.js';
import { caller, serverWithTeam, TEST_PASSWORD, type Team, type TestServer } from '../test/harness.js';
import { SIGN_IN_LIMITS } from './login-throttle.js';

/*
 * Findings 2, 3 and 10 of the defences issue. `proxied` trusts X-Forwarded-For from loopback (TRUST_PROXY), so a
 * test can sign in from many addresses; `direct` trusts no proxy, the default.
 */
let proxied: { server: TestServer; team: Team };
let direct: { server: TestServer; team: Team };

/**
 * The throttle is under test here, not the password hash: the team's passwords are stored with a cheap scrypt cost
 * (verification reads the cost from the stored hash), so 50 checked attempts take milliseconds, not 50 full-cost
 * scrypt runs whose time depends on the machine's load.
 */
async function cheapPasswords({ server }: { server: TestServer }) {
  const salt = crypto.randomBytes(16);
  const key = crypto.scryptSync(TEST_PASSWORD, salt, 32, { N: 1024, r: 8, p: 1 });
  const hash = ['scrypt', 1024, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
  await server.ctx.store.write((tx) => tx.updateTable('members').set({ password_hash: hash }).execute());
}

beforeAll(async () => {
  [proxied, direct] = await Promise.all([serverWithTeam({ TRUST_PROXY: 'loopback' }), serverWithTeam()]);
  await Promise.all([cheapPasswords(proxied), cheapPasswords(direct)]);
});
afterAll(async () => {
  await proxied?.server.close();
  await direct?.server.close();
});

const CSRF = { 'x-ringbook-request': '1', 'content-type': 'application/json' };

function signIn(server: TestServer, username: string, password: string, headers: Record<string, string> = {}) {
  return caller(server.url, {}).raw('/auth/login', {
    method: 'POST',
    headers: { ...CSRF, ...headers },
    body: JSON.stringify({ username, password }),
  });
}
const from = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });
const cookieNamed = (setCookies: string[], name: string) =>
  setCookies.map((c) => new RegExp(`^${name}=([^;]*)`).exec(c)?.[1]).find(Boolean);

describe('a stranger cannot lock a member out', () => {
  it("counts an account's attempts per address: failures from six addresses leave the owner's sign-in from a seventh alone", async () => {
    const { server, team } = proxied;
    for (let n = 1; n <= 6; n++) expect((await signIn(server, team.rep.username, 'wrong password!', from(n))).status).toBe(401);
    expect((await signIn(server, team.rep.username, TEST_PASSWORD, from(7))).status).toBe(200);
  });

  it('refuses a new address once the account took 50 attempts in the window, but not a browser that signed in before', async () => {
    const { server, team } = proxied;
    const first = await signIn(server, team.teammate.username, TEST_PASSWORD, from(100));
    const device = cookieNamed(first.headers.getSetCookie(), 'rb_device');
    expect(device).toBeTruthy();
    // Four attempts from each address, all at once: none of them meets its own address's limits.
    const guesses = Array.from({ length: SIGN_IN_LIMITS.account }, (_, n) =>
      signIn(server, team.teammate.username, 'wrong password!', from(101 + Math.floor(n / 4))),
    );
    expect((await Promise.all(guesses)).map((r) => r.status)).toEqual(Array(SIGN_IN_LIMITS.account).fill(401));
    const stranger = await signIn(server, team.teammate.username, TEST_PASSWORD, from(200));
    expect(stranger.status).toBe(429);
    expect(stranger.body.debug_codes[0].code).toBe(Codes.rateLimited);
    const forged = `${team.teammate.id}.AAAAAAAAAAAAAAAAAAAAAA.${'A'.repeat(43)}`;
    expect((await signIn(server, team.teammate.username, TEST_PASSWORD, { ...from(201), cookie: `rb_device=${forged}` })).status).toBe(429);
    const owner = await signIn(server, team.teammate.username, TEST_PASSWORD, { ...from(202), cookie: `rb_device=${device}` });
    expect(owner.status).toBe(200);
  });

  it('gives a successful attempt back, so colleagues behind one office address are not throttled by each other', async () => {
    const { server, team } = proxied;
    for (let i = 0; i <= SIGN_IN_LIMITS.address; i++)
      expect((await signIn(server, team.manager.username, TEST_PASSWORD, from(50))).status).toBe(200);
  });
});

describe('X-Forwarded-For', () => {
  it('is not believed by default (TRUST_PROXY empty): rotating it does not get past the throttle', async () => {
    const { server, team } = direct;
    for (let n = 1; n <= SIGN_IN_LIMITS.pair; n++)
      expect((await signIn(server, team.rep.username, 'wrong password!', from(n))).status).toBe(401);
    expect((await signIn(server, team.rep.username, TEST_PASSWORD, from(99))).status).toBe(429);
  });
});

describe('cookies of other apps on the same host', () => {
  it.each([
    ['a stray cookie that is not valid percent-encoding beside ours', (session: string) => `promo=50%off; rb_session=${session}`, 200],
    ['our cookie with a value that is not valid percent-encoding', () => 'rb_session=%ZZ', 401],
    ['our cookie with a value that is not one of our ids', () => 'rb_session=abc; theme=%E0%A4%A', 401],
  ])('%s is ignored, never a 500', async (_label, cookie, status) => {
    const { server, team } = direct;
    const signedIn = await signIn(server, team.vendor.username, TEST_PASSWORD);
    const session = cookieNamed(signedIn.headers.getSetCookie(), 'rb_session')!;
    const reply = await caller(server.url, { cookie: cookie(session), 'x-ringbook-request': '1' }).get('/auth/session');
    expect(reply.status).toBe(status);
    if (status === 401) expect(reply.body.debug_codes[0].code).toBe(Codes.missingAuthorization);
    const login = await signIn(server, team.vendor.username, TEST_PASSWORD, { cookie: cookie(session) });
    expect(login.status).toBe(200);
    expect(
      (await caller(server.url, { cookie: cookie(session), 'x-ringbook-request': '1' }).raw('/auth/logout', { method: 'POST' })).status,
    ).toBe(204);
  });
});

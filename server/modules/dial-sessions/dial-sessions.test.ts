import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.js';
import { createHttpServer } from '../../lib/http-server.js';
import type { Member } from '../../db/schema.js';
import { nowMs, resetClock, setClock } from '../../lib/clock.js';
import { type Caller, caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { searchOf } from '../contacts/search/search-index.js';

/* POST /rest/1/dialsession and its redirect_url. */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let rep: Caller;

const AFTERNOON = new Date('2026-11-23T18:00:00Z');
beforeAll(async () => {
  setClock(AFTERNOON);
  ({ server, team, api } = await serverWithTeam({ PUBLIC_URL: 'https://ringbook.example.com', CALLBACK_ALLOWED_HOSTS: 'receiver.test' }));
  rep = api(team.rep);
});
afterAll(async () => {
  resetClock();
  await server?.close();
});

let n = 0;
const unique = () => `${process.pid}${++n}`;
const phone = (last: number) => `312472${String(1000 + (n % 8000)).slice(-3)}${last}`;
const sessionRow = (id: string) =>
  server.ctx.store.db.selectFrom('dial_sessions').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
const queueOf = async (id: string) =>
  (
    await server.ctx.store.db
      .selectFrom('dial_session_contacts')
      .select('contact_id')
      .where('session_id', '=', Number(id))
      .orderBy('position')
      .execute()
  ).map((r) => r.contact_id);
const count = async (table: 'dial_sessions' | 'contacts') =>
  Number(
    (
      await server.ctx.store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /rest/1/dialsession', () => {
  it('creates the contacts given and answers the contract shape with a one-time redirect_url', async () => {
    const tag = `Dial ${unique()}`;
    const reply = await rep.post('/rest/1/dialsession', {
      contacts: [
        { first_name: 'Ada', last_name: 'One', phone: phone(0), email: `ada${n}@example.com`, tags: [tag] },
        { first_name: 'Bo', last_name: 'Two', phone: phone(8), category_id: 0 },
      ],
      callbacks: { callback_type: 'api_calldone', callback: 'https://receiver.test/done?secret=s3cr3t' },
      custom_data: { crm_id: 42 },
      preview_mode: 1,
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.dialsessions).toMatchObject({
      redirect_url: expect.stringMatching(/^https:\/\/ringbook\.example\.com\/sso\/dialer\?key=[A-Za-z0-9_-]{43}$/),
      errors: null,
      total_results: 2,
      page: 1,
      page_size: 2,
      total_pages: 1,
      skipped_contact_count: 0,
      contact_limit: 5000,
    });
    const id = reply.body.dialsessions.dialsession_id;
    expect(await sessionRow(id)).toMatchObject({
      member_id: team.rep.id,
      preview_mode: 1,
      status: 'ready',
      custom_data: '{"crm_id":42}',
      contact_count: 2,
    });
    const listed = await rep.get(
      `/rest/1/contacts?tag_id=${(await rep.get('/rest/1/tags?page_size=100')).body.tags.tags.find((t: { title: string }) => t.title === tag).id}`,
    );
    expect(listed.body.contacts.contacts.map((c: { first_name: string }) => c.first_name)).toEqual(['Ada']);
    const callbacks = await server.ctx.store.db
      .selectFrom('dial_session_callbacks')
      .selectAll()
      .where('session_id', '=', Number(id))
      .execute();
    expect(callbacks).toEqual([{ session_id: Number(id), type: 'api_calldone', url: 'https://receiver.test/done?secret=s3cr3t' }]);
  });

  it('updates an existing duplicate instead of creating it, and takes contacts named by contact_user_id (extension)', async () => {
    const existing = (await rep.post('/rest/1/contacts', { first_name: 'Dup', phone: phone(1) })).body.contacts.contacts.contact_user_id;
    const other = (await rep.post('/rest/1/contacts', { first_name: 'Named', phone: phone(2) })).body.contacts.contacts.contact_user_id;
    const before = await count('contacts');
    const reply = await rep.post('/rest/1/dialsession', {
      contacts: [{ first_name: 'Dup Updated', phone: phone(1) }, { contact_user_id: other }],
    });
    expect(reply.status).toBe(201);
    expect(await count('contacts')).toBe(before);
    expect(await queueOf(reply.body.dialsessions.dialsession_id)).toEqual([Number(existing), Number(other)]);
    expect((await rep.get(`/rest/1/contacts/${existing}`)).body.contacts.contacts[0].first_name).toBe('Dup Updated');
  });

  it('refuses entries one by one in errors (index and reason) and goes ahead with the rest', async () => {
    const foreign = (await api(team.teammate).post('/rest/1/contacts', { first_name: 'Not yours' })).body.contacts.contacts.contact_user_id;
    const reply = await rep.post('/rest/1/dialsession', {
      contacts: [
        { first_name: 'Good', phone: phone(3) },
        { first_name: 'Bad', email: 'not-an-address' },
        { contact_user_id: foreign },
        'junk',
      ],
    });
    expect(reply.status).toBe(201);
    expect(reply.body.dialsessions.total_results).toBe(1);
    expect(reply.body.dialsessions.errors).toEqual([
      { index: 1, reason: 'email must be an e-mail address.' },
      { index: 2, reason: `There is no contact ${foreign}.` },
      { index: 3, reason: expect.stringMatching(/\.$/) },
    ]);
  });

  it('writes new contacts together, yet refuses one on its own (a folder that is not there) and keeps the order given', async () => {
    const word = `Batch${unique()}`;
    const before = await count('contacts');
    const reply = await rep.post('/rest/1/dialsession', {
      contacts: [
        { first_name: word, last_name: 'One', phone: phone(6) },
        { first_name: word, last_name: 'Two', category_id: 999_999 },
        // Naming an owner (even oneself) takes a contact out of the batch: it is made on its own, between the others.
        { first_name: word, last_name: 'Three', owner_id: team.rep.id },
        { first_name: word, last_name: 'Four', email: `four.${word}@dial.example` },
        { first_name: word, last_name: 'Five', phone: phone(7), allow_duplicates: 1 },
      ],
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.dialsessions.errors).toEqual([{ index: 1, reason: 'category_id 999999 is not a folder of your organisation.' }]);
    const queue = await queueOf(reply.body.dialsessions.dialsession_id);
    const names = [];
    for (const id of queue) names.push((await rep.get(`/rest/1/contacts/${id}`)).body.contacts.contacts[0].last_name);
    expect(names).toEqual(['One', 'Three', 'Four', 'Five']);
    // Made in the order given: their ids rise with it.
    expect(queue).toEqual([...queue].sort((a, b) => a - b));
    expect(await count('contacts')).toBe(before + 4);
    // Each made as a contact made alone is: its activity and its audit record.
    const history = await server.ctx.store.db
      .selectFrom('contact_activities')
      .select('contact_id')
      .where('contact_id', 'in', queue)
      .where('activity', '=', 'Contact created')
      .execute();
    expect(history.map((h) => h.contact_id).sort((a, b) => a - b)).toEqual(queue);
  });

  it('indexes the contacts it creates for every kind of search, once each, with what they hold at the end', async () => {
    const word = `Quetzal${unique()}`;
    const number = phone(5);
    // The second entry is the first's duplicate by number: the contact created by the first is updated by it.
    const reply = await rep.post('/rest/1/dialsession', {
      contacts: [
        { first_name: word, last_name: 'First', phone: number, email: `${word}@dial.example` },
        { first_name: word, last_name: 'Second', phone: number },
      ],
    });
    expect(reply.status, reply.text).toBe(201);
    const [id] = await queueOf(reply.body.dialsessions.dialsession_id);
    const found = async (who: Caller, search: string) =>
      (await who.get(`/rest/1/contacts?search=${encodeURIComponent(search)}&page_size=100`)).body.contacts.contacts.map(
        (c: { contact_user_id: string }) => Number(c.contact_user_id),
      );
    // The rep's searches take the word index, the vendor's the trigram index, a two-letter word the prefix index.
    for (const [who, search] of [
      [rep, word],
      [rep, `${word.slice(2, 8)} second`],
      [rep, number.slice(3)],
      [rep, `${word}@dial`],
      [api(team.vendor), word.toLowerCase()],
      [rep, word.slice(0, 2)],
    ] as const) {
      expect(await found(who, search), search).toContain(id);
    }
    expect(await found(rep, `${word} first`)).toEqual([]);
    // Once in each full-text index the store keeps (SQLite: trigrams and words; PostgreSQL: trigrams).
    const search = searchOf(server.ctx.store.db);
    expect(await search.entriesOf(server.ctx.store.db, id!)).toEqual(Object.fromEntries(search.indexes.map((index) => [index, 1])));
  });

  it.each([
    ['no contacts at all', { contacts: [] }, 'contacts'],
    ['only refused contacts', { contacts: [{ email: 'x' }] }, 'contacts.0'],
    ['too many contacts', { contacts: Array.from({ length: 5001 }, () => ({ contact_user_id: 1 })) }, 'contacts'],
    [
      'a callback to a private address',
      { contacts: [{ first_name: 'A', phone: phone(4) }], callbacks: [{ callback_type: 'api_calldone', callback: 'http://10.0.0.8/x' }] },
      'callbacks.0.callback',
    ],
    [
      'a callback to the metadata address',
      { contacts: [{ first_name: 'A' }], callbacks: [{ callback_type: 'api_callbegin', callback: 'http://169.254.169.254/latest' }] },
      'callbacks.0.callback',
    ],
    [
      'a callback that is not http',
      { contacts: [{ first_name: 'A' }], callbacks: [{ callback_type: 'api_calldone', callback: 'ftp://receiver.test/x' }] },
      'callbacks.0.callback',
    ],
    [
      'an unknown callback type',
      { contacts: [{ first_name: 'A' }], callbacks: [{ callback_type: 'api_everything', callback: 'https://receiver.test' }] },
      'callbacks.0.callback_type',
    ],
    ['a disposition set of another kind', { contacts: [{ first_name: 'A' }], dialing_disposition_set_id: 2 }, 'dialing_disposition_set_id'],
    ['custom_data that is not an object', { contacts: [{ first_name: 'A' }], custom_data: 'x' }, 'custom_data'],
  ])('answers 400 naming the field for %s, and stores nothing', async (_label, body, field) => {
    const before = [await count('dial_sessions'), await count('contacts')];
    const reply = await rep.post('/rest/1/dialsession', body);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.debug_codes.map((d: { field: string }) => d.field)).toContain(field);
    expect([await count('dial_sessions'), await count('contacts')]).toEqual(before);
  });

  it('names what is wrong in a single callback object, not that it is missing', async () => {
    const reply = await rep.post('/rest/1/dialsession', {
      contacts: [{ first_name: 'A' }],
      callbacks: { callback_type: 'api_everything', callback: 'https://receiver.test' },
    });
    expect(reply.body.debug_codes).toEqual([
      {
        code: 40003,
        field: 'callbacks.0.callback_type',
        reason: expect.stringMatching(/^callbacks\.0\.callback_type must be one of api_callbegin/),
      },
    ]);
  });

  it('answers a retry with the same Idempotency-Key with the same session and a fresh key; another body with that key is 422', async () => {
    const body = { contacts: [{ first_name: 'Idem', phone: phone(5) }] };
    const headers = { 'content-type': 'application/json', 'idempotency-key': `key-${unique()}` };
    const send = (b: unknown) => rep.raw('/rest/1/dialsession', { method: 'POST', headers, body: JSON.stringify(b) });
    const [first, second] = [await send(body), await send(body)];
    expect(second.status).toBe(201);
    expect(second.body.dialsessions.dialsession_id).toBe(first.body.dialsessions.dialsession_id);
    expect(second.body.dialsessions.redirect_url).not.toBe(first.body.dialsessions.redirect_url);
    const other = await send({ contacts: [{ first_name: 'Else' }] });
    expect(other.status).toBe(422);
    expect(other.body.debug_codes[0]).toMatchObject({ code: 42201, field: 'Idempotency-Key' });
  });

  it('treats an identical body from the same member within 60 s as the same request, and not after, nor from another member', async () => {
    const body = { contacts: [{ first_name: 'Twice', phone: phone(6) }], preview_mode: 1 };
    const first = (await rep.post('/rest/1/dialsession', body)).body.dialsessions.dialsession_id;
    expect(
      (await rep.post('/rest/1/dialsession', { preview_mode: 1, contacts: [{ phone: phone(6), first_name: 'Twice' }] })).body.dialsessions
        .dialsession_id,
    ).toBe(first);
    expect((await api(team.manager).post('/rest/1/dialsession', body)).body.dialsessions.dialsession_id).not.toBe(first);
    setClock(new Date(nowMs() + 61_000));
    try {
      expect((await rep.post('/rest/1/dialsession', body)).body.dialsessions.dialsession_id).not.toBe(first);
    } finally {
      setClock(AFTERNOON);
    }
  });

  it("dials the caller's contacts matched by contact_filter (extension), and forecasts skips before launch", async () => {
    const tag = `Filter ${unique()}`;
    for (const [i, extra] of [{}, { do_not_call: 1 }, { phone: '5551234567' }].entries()) {
      expect(
        (await rep.post('/rest/1/contacts', { first_name: `F${i}`, phone: phone(i), tags: [tag], allow_duplicates: 1, ...extra })).status,
      ).toBe(201);
    }
    const tagId = (await rep.get('/rest/1/tags?page_size=100')).body.tags.tags.find((t: { title: string }) => t.title === tag).id;
    const forecast = await rep.post('/rest/1/dialsession/forecast', { contact_filter: { tag_id: tagId } });
    expect(forecast.body.forecast).toMatchObject({
      total: 3,
      to_dial: 1,
      skipped: { DNC: 1, 'Invalid Number': 1 },
      skipped_count: 2,
      contact_limit: 5000,
    });
    const created = await rep.post('/rest/1/dialsession', { contact_filter: { tag_id: tagId } });
    expect(created.body.dialsessions).toMatchObject({ total_results: 3, skipped_contact_count: 2 });
    const none = await rep.post('/rest/1/dialsession', { contact_filter: { search: `nobody-${unique()}` } });
    expect(none.status).toBe(400);
    expect(none.body.debug_codes).toEqual([
      expect.objectContaining({ field: 'contact_filter', reason: 'No contact of yours matches the filter, so there is nobody to dial.' }),
    ]);
  });
});

describe('redirect_url', () => {
  const open = (url: string, headers: Record<string, string> = {}) =>
    fetch(url.replace('https://ringbook.example.com', server.url), { redirect: 'manual', headers });
  const created = async () =>
    (await rep.post('/rest/1/dialsession', { contacts: [{ first_name: 'Sso', phone: phone(7), allow_duplicates: 1 }] })).body.dialsessions;

  it('signs the member in once and lands on the dialer screen, sending no referrer onward', async () => {
    const { redirect_url, dialsession_id } = await created();
    const first = await open(redirect_url);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`/dialer/${dialsession_id}`);
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');
    const cookie = /rb_session=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1];
    const me = await caller(server.url, { cookie: `rb_session=${cookie}` }).get('/auth/session');
    expect(me.body.member.user_id).toBe(String(team.rep.id));
    const again = await open(redirect_url);
    expect([again.status, again.headers.get('location'), again.headers.get('set-cookie')]).toEqual([303, '/sign-in?link=expired', null]);
  });

  it.each([
    ['an unknown key', () => `${server.url}/sso/dialer?key=${'A'.repeat(43)}`],
    ['a malformed key', () => `${server.url}/sso/dialer?key=%27%3B--`],
    ['no key', () => `${server.url}/sso/dialer`],
  ])('refuses %s: nobody signed in, and the page leaks nothing', async (_label, url) => {
    const reply = await open(url());
    expect([reply.status, reply.headers.get('location'), reply.headers.get('set-cookie'), reply.headers.get('referrer-policy')]).toEqual([
      303,
      '/sign-in?link=expired',
      null,
      'no-referrer',
    ]);
  });

  it('refuses a key after 10 minutes', async () => {
    const { redirect_url } = await created();
    setClock(new Date(nowMs() + 10 * 60_000 + 1_000));
    try {
      expect((await open(redirect_url)).headers.get('location')).toBe('/sign-in?link=expired');
    } finally {
      setClock(AFTERNOON);
    }
  });

  it('keeps only the hash of the key, and no request log line holds it', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const logged = createHttpServer(createApp({ ...server.ctx, logger }), server.ctx.config.connections).listen(0, '127.0.0.1');
    await new Promise((resolve) => logged.once('listening', resolve));
    try {
      const { redirect_url } = await created();
      const key = new URL(redirect_url).searchParams.get('key')!;
      const url = redirect_url.replace('https://ringbook.example.com', `http://127.0.0.1:${(logged.address() as AddressInfo).port}`);
      expect((await fetch(url, { redirect: 'manual' })).status).toBe(303);
      expect(lines.some((l) => l.includes('/sso/dialer'))).toBe(true);
      expect(lines.some((l) => l.includes(key))).toBe(false);
      const rows = await server.ctx.store.db.selectFrom('sso_keys').select('key_hash').execute();
      expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.key_hash) && !r.key_hash.includes(key))).toBe(true);
    } finally {
      logged.closeAllConnections();
      logged.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

/*
 * The message library's extension routes (POST /rest/1/content, GET, PUT and DELETE /rest/1/content/{message_id}):
 * members write their own e-mails with merge fields; the system's stay read-only; GET /rest/1/content lists them.
 */
let server: TestServer;
let team: Team;
let as: (member: Member) => Caller;

beforeAll(async () => {
  ({ server, team, api: as } = await serverWithTeam());
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const MESSAGE = { display_name: 'After the demo', subject: 'Thanks, {first_name}', body: 'Hi {first_name},\nthanks. {member_first_name}' };

async function create(member: Member, body: object = MESSAGE) {
  const reply = await as(member).post('/rest/1/content', body);
  expect(reply.status, reply.text).toBe(201);
  return reply.body.content as Record<string, string | number | null>;
}

const systemMessage = async () =>
  ((await as(team.rep).get('/rest/1/content?list=system')).body.content.emails as { message_id: string }[])[0]!.message_id;

describe('POST /rest/1/content', () => {
  it("makes a message of the member's own, listed as the organisation's (list=user)", async () => {
    const made = await create(team.rep, { ...MESSAGE, description: null });
    expect(made).toEqual({
      cm_content_id: made.message_id,
      message_id: expect.stringMatching(/^\d+$/),
      display_name: 'After the demo',
      description: '',
      display_order: '0',
      system_message: 0,
      type: 'onetouch',
      subject: 'Thanks, {first_name}',
      body: 'Hi {first_name},\nthanks. {member_first_name}',
      member_id: String(team.rep.id),
      can_edit: '1',
    });
    const mine = (await as(team.rep).get('/rest/1/content?list=user')).body.content.emails;
    expect(mine.map((m: { message_id: string }) => m.message_id)).toContain(made.message_id);
    const system = (await as(team.rep).get('/rest/1/content?list=system')).body.content.emails;
    expect(system.map((m: { message_id: string }) => m.message_id)).not.toContain(made.message_id);
    // A teammate sees it and may choose it, but not change it.
    const seen = (await as(team.teammate).get(`/rest/1/content/${made.message_id}`)).body.content;
    expect(seen).toMatchObject({ message_id: made.message_id, can_edit: '0' });
  });

  it('takes name for display_name', async () => {
    expect(await create(team.rep, { name: 'Named', subject: 'S', body: 'B' })).toMatchObject({ display_name: 'Named' });
  });

  it.each([
    [
      'an unknown merge field',
      { ...MESSAGE, body: 'Hi {firstname}' },
      'body',
      /merge fields we do not know: \{firstname\}.*\{first_name\}/,
    ],
    ['an unknown merge field in the subject', { ...MESSAGE, subject: 'For {company}' }, 'subject', /\{company\}/],
    ['no subject', { display_name: 'X', body: 'B' }, 'subject', /required/],
    ['a blank name', { ...MESSAGE, display_name: '  ' }, 'display_name', /empty/],
    ['a subject of 201 characters', { ...MESSAGE, subject: 'x'.repeat(201) }, 'subject', /at most 200/],
  ])('refuses %s with a 400 naming the field, storing nothing', async (_what, body, field, reason) => {
    const before = (await as(team.rep).get('/rest/1/content')).body.content.emails.length;
    const reply = await as(team.rep).post('/rest/1/content', body);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body).toMatchObject({ status: 'error', debug_codes: [{ field, reason: expect.stringMatching(reason) }] });
    expect((await as(team.rep).get('/rest/1/content')).body.content.emails).toHaveLength(before);
  });
});

describe('PUT and DELETE /rest/1/content/{message_id}', () => {
  it('changes and deletes its own message', async () => {
    const made = await create(team.rep);
    const changed = await as(team.rep).put(`/rest/1/content/${made.message_id}`, { subject: 'Hello {first_name} {last_name}' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.content).toMatchObject({ subject: 'Hello {first_name} {last_name}', body: MESSAGE.body });
    const refused = await as(team.rep).put(`/rest/1/content/${made.message_id}`, { body: '{nope}' });
    expect(refused.status).toBe(400);
    expect((await as(team.rep).get(`/rest/1/content/${made.message_id}`)).body.content.body).toBe(MESSAGE.body);
    expect((await as(team.rep).delete(`/rest/1/content/${made.message_id}`)).status).toBe(204);
    expect((await as(team.rep).get(`/rest/1/content/${made.message_id}`)).status).toBe(404);
  });

  it("lets the manager change its team's message and the vendor any of the organisation's", async () => {
    const made = await create(team.rep);
    expect((await as(team.manager).put(`/rest/1/content/${made.message_id}`, { display_name: 'By the manager' })).status).toBe(200);
    expect((await as(team.vendor).delete(`/rest/1/content/${made.message_id}`)).status).toBe(204);
  });

  it.each([
    ['a teammate', () => team.teammate],
    ['a rep of another team', () => team.outsider],
  ])("refuses %s another member's message with a 403, changing nothing", async (_who, who) => {
    const made = await create(team.rep);
    const put = await as(who()).put(`/rest/1/content/${made.message_id}`, { subject: 'Mine' });
    expect(put.status).toBe(403);
    expect(put.body.debug_codes[0].reason).toMatch(/your own messages/);
    expect((await as(who()).delete(`/rest/1/content/${made.message_id}`)).status).toBe(403);
    expect((await as(team.rep).get(`/rest/1/content/${made.message_id}`)).body.content).toMatchObject({ subject: MESSAGE.subject });
  });

  it('keeps system messages read-only, even to the vendor', async () => {
    const id = await systemMessage();
    const before = (await as(team.vendor).get(`/rest/1/content/${id}`)).body.content;
    expect(before).toMatchObject({ system_message: 1, can_edit: '0' });
    const put = await as(team.vendor).put(`/rest/1/content/${id}`, { subject: 'Ours now' });
    expect(put.status).toBe(403);
    expect(put.body.debug_codes[0].reason).toMatch(/System messages are read-only/);
    expect((await as(team.rep).delete(`/rest/1/content/${id}`)).status).toBe(403);
    expect((await as(team.vendor).get(`/rest/1/content/${id}`)).body.content).toEqual(before);
  });

  it("answers 404 for a message that does not exist or is another organisation's", async () => {
    const theirs = await create(team.otherVendor);
    for (const id of ['999999', theirs.message_id]) {
      expect((await as(team.vendor).get(`/rest/1/content/${id}`)).status).toBe(404);
      expect((await as(team.vendor).put(`/rest/1/content/${id}`, { subject: 'x' })).status).toBe(404);
      expect((await as(team.vendor).delete(`/rest/1/content/${id}`)).status).toBe(404);
    }
    expect((await as(team.vendor).put('/rest/1/content/abc', { subject: 'x' })).status).toBe(400);
  });
});

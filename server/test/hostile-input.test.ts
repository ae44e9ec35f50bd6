import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, serverWithTeam, type TestServer } from './harness.js';

/* No input makes the server answer 5xx: the harness throws on any 5xx, so each call here is an assertion. */
let server: TestServer;
let api: Caller;

beforeAll(async () => {
  const seeded = await serverWithTeam();
  server = seeded.server;
  api = seeded.api(seeded.team.vendor);
  // Contact 1 with an e-mail, a phone, a tag and a custom value 1, so junk reaches past the look-ups of the sub-resources.
  await api.post('/rest/1/contacts', {
    first_name: 'Target',
    email: 'target@example.com',
    phone: '2125550100',
    tags: ['Target'],
    custom_fields: [{ name: 'Target', value: 'x' }],
  });
});
afterAll(() => server.close());

const junkValues = [
  '',
  ' ',
  'abc',
  '-1',
  '0',
  '1.5',
  '99999999999999999999',
  '1e3',
  'null',
  '[]',
  '{}',
  '%00',
  '\u0000',
  'ß'.repeat(300),
  "' OR 1=1 --",
];
const junkBodies: unknown[] = [
  null,
  [],
  'text',
  42,
  true,
  { first_name: { nested: true } },
  { tags: { a: 1 } },
  { custom_fields: 'x' },
  { custom_fields: [null] },
  { additional_phone: [{}] },
  { contact_user_ids: 'all' },
  { name: ['a', 'b'] },
  { duplicate_checks: 'yes' },
  { question: 'q', answer: ['a', 'b'] },
  { rating: { $gt: 1 } },
  { email: 12 },
  { password: 123456789 },
  { username: null },
  { emails: 'x' },
  { emails: [{ email: ['a'] }] },
  { phones: [5] },
  { phones: { 0: { phone_number: { x: 1 } } } },
  { email_address: null, is_primary: [] },
  { phone_number: '1'.repeat(500), type: '1e3' },
  { title: { a: 1 } },
  { title: 'x'.repeat(5000) },
  { value: [1, 2] },
  { value: { a: 1 } },
  { display_name: null, type: 'x', display_order: '1e9' },
  { display_name: 'Junk', type: 6 },
  { contacts: [null, 'x', { phone: {} }] },
  { contacts: { 0: { contact_user_id: -1 } } },
  { callbacks: { callback_type: 'api_calldone', callback: 'http://[::1' } },
  { contact_filter: 'all' },
  { custom_data: [1] },
  { payload: { dialsec: {} } },
  { calltime_min: '2400' },
  { disposition_id: 1e308 },
  { note: { a: 1 } },
  { action: 'add_tag', filter: 'x' },
  { action: 'move', contact_user_ids: [1], folder_id: 'x' },
];

const paths = [
  '/rest/1/contacts',
  '/rest/1/contacts/1',
  '/rest/1/contacts/1/activities',
  '/rest/1/contacts/1/auditlog',
  '/rest/1/contacts/1/emails',
  '/rest/1/contacts/1/emails/1',
  '/rest/1/contacts/1/phones',
  '/rest/1/contacts/1/phones/1',
  '/rest/1/contacts/1/tags',
  '/rest/1/contacts/1/tags/1',
  '/rest/1/contacts/1/customfields',
  '/rest/1/contacts/1/customfields/1',
  '/rest/1/contacts/1/restore',
  '/rest/1/members',
  '/rest/1/members/1',
  '/rest/1/folders',
  '/rest/1/folders/1',
  '/rest/1/tags',
  '/rest/1/tags/1',
  '/rest/1/customfields',
  '/rest/1/customfields/1',
  '/rest/1/bulkjobs',
  '/rest/1/bulkjobs/1',
  '/rest/1/dialsession',
  '/rest/1/dialsession/forecast',
  '/rest/1/dialsession/1',
  '/rest/1/dialsession/1/live',
  ...['start', 'call', 'hangup', 'skip', 'disposition', 'voicemail', 'end', 'note'].map((action) => `/rest/1/dialsession/1/${action}`),
  '/rest/1/dialsession/call',
  '/rest/1/dialsession/call/1',
  '/rest/1/dialsession/usage',
  '/rest/1/dialsession/settings',
  '/rest/1/content',
  '/rest/1/voicemails',
  '/rest/1/voicemails/1/audio',
  '/rest/1/dispositions',
  '/rest/1/phonenumber/2125550100',
  '/rest/1/clock',
];
const params = [
  'page',
  'page_size',
  'category_id',
  'folder_id',
  'updated_from',
  'created_to',
  'sort_order',
  'sort_by',
  'search',
  'tag_id',
  'days',
  'permanent',
  'structure',
  'move_folder_id',
  'entire_team',
  'user_id',
  'include_new',
  'email_address',
  'with_counts',
  'date_start',
  'date_end',
  'include_recording',
  'include_transcript',
  'call_id',
  'type',
  'list',
  'only_trashed',
  'owner_id',
];

describe('hostile input never causes a 5xx', () => {
  it.each(paths)('GET %s with junk in every parameter', async (path) => {
    for (const value of junkValues) {
      const query = params.map((p) => `${p}=${encodeURIComponent(value)}`).join('&');
      const reply = await api.get(`${path}?${query}`);
      expect(reply.status).toBeLessThan(500);
    }
    expect((await api.get(`${path}?page=1&page=2&page_size=5&page_size=x`)).status).toBeLessThan(500);
  });

  it.each(paths)('POST, PUT and DELETE %s with junk bodies, JSON and form', async (path) => {
    for (const body of junkBodies) {
      for (const method of ['post', 'put', 'delete'] as const) expect((await api[method](path, body)).status).toBeLessThan(500);
    }
    for (const form of ['a[b][c][d][e][f][g]=1', 'tags[9999]=x', 'custom_fields[0]=x', '%ZZ=1', 'first_name[]=a&first_name[]=b']) {
      expect((await api.form('POST', path, form)).status).toBeLessThan(500);
    }
  });

  it.each([
    '/rest/1/contacts/1/emails/%ZZ',
    '/rest/1/contacts/1/phones/0',
    '/rest/1/contacts/1/tags/-1',
    '/rest/1/customfields/1.5',
    '/rest/1/contacts/%ZZ',
    '/rest/1/contacts/1%00',
    `/rest/1/contacts/${'9'.repeat(400)}`,
    '/rest/1/members/-5',
    '/rest/1/folders/0x10',
  ])('answers a 4xx for the odd path %s', async (path) => {
    const reply = await api.get(path);
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.body.status).toBe('error');
  });

  it('refuses a body over 1 MB with 413 in the error envelope', async () => {
    const reply = await api.post('/rest/1/contacts', { notes: 'x'.repeat(1_100_000) });
    expect([reply.status, reply.body.debug_codes[0].code]).toEqual([413, 41301]);
  });
});

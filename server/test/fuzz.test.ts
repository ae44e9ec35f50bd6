import fc from 'fast-check';
import qs from 'qs';
import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoRecording } from '../dialer/demo-audio.js';
import { resetClock, setClock } from '../lib/clock.js';
import { now } from '../lib/time.js';
import { insertVoicemail } from '../modules/dial-library/dial-library.repository.js';
import { caller, type Caller, type Reply, serverWithTeam, type Team, type TestServer } from './harness.js';
import { type WriteWatcher, writeWatcher } from './databases.js';

/*
 * Generated bad input over every endpoint's body and query. For each request: never a 5xx (the harness throws on
 * one), always the envelope, every reason in our words, and nothing stored when the answer is a 4xx: the store's
 * data_version, which changes whenever any connection commits, is the same after as before.
 * FUZZ_SEED picks another sequence locally; CI runs the same one every time.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

let server: TestServer;
let team: Team;
let api: Caller;
let watcher: WriteWatcher;
let cases = 0;

/** `binary`: a success answers bytes, not the envelope (its refusals are envelopes all the same). */
type Endpoint = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: () => string;
  body?: () => Record<string, unknown>;
  params?: string[];
  binary?: boolean;
  /** Work a success starts in the background, waited for so that it does not write behind the next request. */
  settle?: (reply: Reply) => Promise<void>;
};

/*
 * The dialer's targets: `session` a preview-mode session that waits on its contact (nothing is dialed in preview
 * until 'call', so no carrier event writes behind a request), `readySession` one not started (where 'call' is
 * refused without dialing), `call` a call made once, `recording` a voicemail recording.
 */
const ids = {
  contact: 0,
  folder: 0,
  member: 0,
  session: 0,
  readySession: 0,
  call: 0,
  recording: 0,
  email: 0,
  phone: 0,
  tag: 0,
  field: 0,
  trashed: 0,
  job: 0,
  integration: 0,
  token: 0,
};
const PAGING = ['page', 'page_size'];
const contactBody = () => ({
  first_name: 'Fuzz',
  last_name: 'Case',
  email: 'fuzz@example.com',
  phone: '2125550100',
  tags: ['Fuzz'],
  custom_fields: [{ name: 'Company', type: 1, value: 'Acme' }],
  rating: 3,
});
const sessionBody = () => ({
  contacts: [{ first_name: 'Fuzz', last_name: 'Dial', phone: '2125550108', email: 'dial@example.com' }, { contact_user_id: ids.contact }],
  callbacks: [{ callback_type: 'api_calldone', callback: 'https://hooks.example/done?secret=s' }],
  custom_data: { crm_id: 'fuzz' },
  dialing_disposition_set_id: 1,
  answer_disposition_set_id: 2,
  preview_mode: 1,
  send_skips: 0,
  preset_id: 1,
});
const action = (name: string, body?: () => Record<string, unknown>, target: () => number = () => ids.session): Endpoint => ({
  method: 'POST',
  path: () => `/rest/1/dialsession/${target()}/${name}`,
  ...(body ? { body } : {}),
});
const memberBody = () => ({
  username: 'fuzzmember',
  password: 'correct horse battery',
  first_name: 'F',
  email: 'f@example.com',
  billing_item_id: 1,
  billing_group_id: 'g',
  subgroup_id: 's',
});

const ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: () => '/rest/1/contacts',
    params: [
      ...PAGING,
      'category_id',
      'folder_id',
      'updated_from',
      'update_to',
      'created_from',
      'created_to',
      'include_new',
      'email_address',
      'include_trashed',
      'include_archived',
      'sort_order',
      'search',
      'sort_by',
      'tag_id',
    ],
  },
  { method: 'POST', path: () => '/rest/1/contacts', body: contactBody },
  { method: 'DELETE', path: () => '/rest/1/contacts', body: () => ({ contact_user_ids: [ids.contact] }), params: ['permanent'] },
  { method: 'GET', path: () => `/rest/1/contacts/${ids.contact}`, params: [...PAGING, 'sort_order'] },
  {
    method: 'PUT',
    path: () => `/rest/1/contacts/${ids.contact}`,
    body: () => ({ first_name: 'Changed', category_id: ids.folder, transfer_to_user_id: ids.member }),
  },
  { method: 'DELETE', path: () => `/rest/1/contacts/${ids.contact}`, params: ['permanent'] },
  { method: 'GET', path: () => `/rest/1/contacts/${ids.contact}/activities`, params: [...PAGING, 'days'] },
  { method: 'GET', path: () => `/rest/1/contacts/${ids.contact}/auditlog`, params: PAGING },
  { method: 'GET', path: () => '/rest/1/members', params: [...PAGING, 'entire_team', 'user_id'] },
  { method: 'GET', path: () => `/rest/1/members/${ids.member}` },
  { method: 'POST', path: () => '/rest/1/members', body: memberBody },
  {
    method: 'PUT',
    path: () => `/rest/1/members/${ids.member}`,
    body: () => ({ first_name: 'New', email_address: 'n@example.com', username: 'fuzzrenamed' }),
  },
  { method: 'DELETE', path: () => `/rest/1/members/${ids.member}` },
  { method: 'GET', path: () => '/rest/1/folders', params: [...PAGING, 'structure'] },
  { method: 'POST', path: () => '/rest/1/folders', body: () => ({ name: 'Fuzz folder', description: 'd', parent_id: ids.folder }) },
  { method: 'PUT', path: () => `/rest/1/folders/${ids.folder}`, body: () => ({ name: 'Renamed', description: 'x' }) },
  { method: 'DELETE', path: () => `/rest/1/folders/${ids.folder}`, params: ['move_folder_id'] },
  { method: 'GET', path: () => '/rest/1/tags', params: [...PAGING, 'with_counts'] },
  { method: 'POST', path: () => '/rest/1/tags', body: () => ({ title: `Fuzz tag ${targets}` }) },
  { method: 'PUT', path: () => `/rest/1/tags/${ids.tag}`, body: () => ({ title: `Renamed ${targets}` }) },
  { method: 'DELETE', path: () => `/rest/1/tags/${ids.tag}` },
  { method: 'GET', path: () => '/rest/1/customfields', params: [...PAGING, 'with_counts'] },
  {
    method: 'POST',
    path: () => '/rest/1/customfields',
    body: () => ({ display_name: `Fuzz field ${targets}`, display_order: '3', type: 1 }),
  },
  { method: 'GET', path: () => `/rest/1/customfields/${ids.field}` },
  {
    method: 'PUT',
    path: () => `/rest/1/customfields/${ids.field}`,
    body: () => ({ display_name: `Renamed field ${targets}`, display_order: '2', type: 1 }),
  },
  { method: 'DELETE', path: () => `/rest/1/customfields/${ids.field}` },
  ...(['emails', 'phones'] as const).flatMap((kind): Endpoint[] => {
    const one = () => ({
      ...(kind === 'emails' ? { email_address: 'more@example.com' } : { phone_number: '3125550142', type: 2, label: 'desk' }),
      is_primary: true,
    });
    const sub = () => `/rest/1/contacts/${ids.contact}/${kind}`;
    const item = () => `${sub()}/${kind === 'emails' ? ids.email : ids.phone}`;
    return [
      { method: 'GET', path: sub, params: PAGING },
      { method: 'POST', path: sub, body: one },
      { method: 'PUT', path: sub, body: () => ({ [kind]: [one()] }) },
      { method: 'GET', path: item },
      { method: 'PUT', path: item, body: one },
      { method: 'DELETE', path: item },
    ];
  }),
  { method: 'GET', path: () => `/rest/1/contacts/${ids.contact}/tags`, params: PAGING },
  { method: 'POST', path: () => `/rest/1/contacts/${ids.contact}/tags`, body: () => ({ title: 'Fuzzed' }) },
  { method: 'GET', path: () => `/rest/1/contacts/${ids.contact}/tags/${ids.tag}` },
  { method: 'PUT', path: () => `/rest/1/contacts/${ids.contact}/tags/${ids.tag}`, body: () => ({ title: 'Swapped' }) },
  { method: 'DELETE', path: () => `/rest/1/contacts/${ids.contact}/tags/${ids.tag}` },
  { method: 'GET', path: () => `/rest/1/contacts/${ids.contact}/customfields` },
  { method: 'GET', path: () => `/rest/1/contacts/${ids.contact}/customfields/${ids.field}` },
  { method: 'POST', path: () => `/rest/1/contacts/${ids.contact}/customfields/${ids.field}`, body: () => ({ value: 'Acme' }) },
  { method: 'PUT', path: () => `/rest/1/contacts/${ids.contact}/customfields/${ids.field}`, body: () => ({ value: 'Acme 2' }) },
  { method: 'DELETE', path: () => `/rest/1/contacts/${ids.contact}/customfields/${ids.field}` },
  { method: 'POST', path: () => `/rest/1/contacts/${ids.trashed}/restore` },
  {
    method: 'POST',
    path: () => '/rest/1/bulkjobs',
    body: () => ({ action: 'add_tag', contact_user_ids: [ids.contact], tag: 'Bulk fuzz' }),
    settle: (reply) => jobDone(reply.body.job.bulk_job_id),
  },
  { method: 'GET', path: () => `/rest/1/bulkjobs/${ids.job}` },
  { method: 'POST', path: () => '/rest/1/dialsession', body: sessionBody },
  { method: 'POST', path: () => '/rest/1/dialsession/forecast', body: sessionBody },
  { method: 'GET', path: () => '/rest/1/dialsession', params: [...PAGING, 'date_start', 'date_end'] },
  { method: 'GET', path: () => `/rest/1/dialsession/${ids.session}`, params: [...PAGING, 'include_recording', 'include_transcript'] },
  { method: 'GET', path: () => `/rest/1/dialsession/${ids.session}/live` },
  action('start'),
  action('skip'),
  action('hangup'),
  action('end'),
  action(
    'call',
    () => ({ phone: '2125550108' }),
    () => ids.readySession,
  ),
  action('disposition', () => ({ disposition_id: 6 })),
  action('voicemail', () => ({ recording_id: ids.recording })),
  action('note', () => ({ note: 'Fuzz note' })),
  { method: 'GET', path: () => `/rest/1/dialsession/call/${ids.call}`, params: ['include_recording', 'include_transcript'] },
  { method: 'GET', path: () => '/rest/1/dialsession/call', params: ['call_id', 'include_recording', 'include_transcript'] },
  { method: 'GET', path: () => '/rest/1/dialsession/usage', params: ['date_start', 'date_end'] },
  { method: 'GET', path: () => '/rest/1/dialsession/settings' },
  {
    method: 'PUT',
    path: () => '/rest/1/dialsession/settings',
    body: () => ({
      dialsecs: 45,
      ringing: 1,
      emails: 0,
      busy: 1,
      interested: null,
      calltime_min: '0900',
      calltime_max: '2000',
      connectme_preset: '2125550100',
      send_skips: 1,
      callback_secret: 'rotate',
    }),
  },
  { method: 'GET', path: () => '/rest/1/content', params: ['type', 'list'] },
  { method: 'GET', path: () => '/rest/1/voicemails' },
  { method: 'GET', path: () => `/rest/1/voicemails/${ids.recording}/audio`, binary: true },
  { method: 'GET', path: () => '/rest/1/dispositions' },
  { method: 'GET', path: () => '/rest/1/clock' },
  { method: 'DELETE', path: () => '/rest/1/phonenumber/2125550100' },
  { method: 'GET', path: () => '/rest/1/integrations' },
  { method: 'POST', path: () => '/rest/1/integrations', body: () => ({ name: 'Fuzz CRM', redirect_uris: ['https://crm.example.com/cb'] }) },
  {
    method: 'PUT',
    path: () => `/rest/1/integrations/${ids.integration}`,
    body: () => ({ name: 'Renamed CRM', redirect_uris: ['https://crm.example.com/other'] }),
  },
  { method: 'POST', path: () => `/rest/1/integrations/${ids.integration}/secret` },
  { method: 'DELETE', path: () => `/rest/1/integrations/${ids.integration}` },
  { method: 'GET', path: () => '/rest/1/connections' },
  { method: 'DELETE', path: () => `/rest/1/connections/${ids.integration}` },
  { method: 'GET', path: () => '/rest/1/tokens', params: ['entire_team'] },
  { method: 'POST', path: () => '/rest/1/tokens', body: () => ({ name: 'Fuzz token' }) },
  { method: 'DELETE', path: () => `/rest/1/tokens/${ids.token}` },
];

/** Values a client might send by mistake or on purpose. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1.5',
    '1e309',
    '9'.repeat(30),
    'null',
    '[]',
    '\u0000',
    'a\ud800b',
    '\u001b[2J',
    '%ZZ',
    'ß'.repeat(300),
    "' OR 1=1 --",
    null,
    true,
    [],
    {},
    [null],
    { a: { b: [1] } },
  ),
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
);

/** A body: junk as a whole, or a valid one with a field set to junk, or with junk keys beside it. */
const bodyFor = (endpoint: Endpoint) => {
  const valid = endpoint.body?.() ?? {};
  const keys = Object.keys(valid);
  return fc.oneof(
    junk,
    keys.length ? fc.tuple(fc.constantFrom(...keys), junk).map(([key, value]) => ({ ...valid, [key]: value })) : junk,
    fc
      .dictionary(fc.oneof(fc.constantFrom(...keys, 'contacts', 'x'), fc.string({ maxLength: 8 })), junk, { maxKeys: 4 })
      .map((extra) => ({ ...valid, ...extra })),
  );
};

const queryFor = (endpoint: Endpoint) =>
  fc.dictionary(
    fc.constantFrom(...(endpoint.params?.length ? endpoint.params : ['page'])),
    fc.oneof(junk.map(String), fc.string({ maxLength: 20 })),
    { maxKeys: 4 },
  );

const dataVersion = () => watcher.version();
const ZOD_WORDS = /expected|received|Invalid input|Too (big|small)|Invalid (string|option|element|type)|NaN|Infinity/;

function checkEnvelope(reply: Reply, binary = false) {
  if (reply.status === 204) return expect(reply.text).toBe('');
  if (binary && reply.status < 300) return expect(reply.headers.get('content-type')).not.toMatch(/json/);
  expect(reply.body).toMatchObject({ http_status: reply.status, status: reply.status < 400 ? 'success' : 'error' });
  if (reply.status < 400) return;
  for (const code of reply.body.debug_codes) {
    expect(code.code).toBeGreaterThanOrEqual(reply.status * 100);
    expect(code.reason).toMatch(/\.$/);
    expect(code.reason).not.toMatch(ZOD_WORDS);
  }
}

async function send(endpoint: Endpoint, query: Record<string, unknown>, body: unknown, asForm: boolean): Promise<void> {
  const path = `${endpoint.path()}${Object.keys(query).length ? `?${qs.stringify(query)}` : ''}`;
  const before = await dataVersion();
  const reply =
    endpoint.method === 'GET'
      ? await api.get(path)
      : asForm && body !== null && typeof body === 'object'
        ? await api.form(endpoint.method, path, qs.stringify(body))
        : await api.raw(path, {
            method: endpoint.method,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body) ?? 'null',
          });
  cases++;
  if (reply.status < 300) await endpoint.settle?.(reply);
  checkEnvelope(reply, endpoint.binary);
  if (reply.status >= 400)
    expect(await dataVersion(), `${endpoint.method} ${path} answered ${reply.status} but stored something`).toBe(before);
}

/** Fresh targets for the endpoints that delete what they are pointed at. */
let targets = 0;
async function refreshTargets() {
  targets++;
  const vendor = caller(server.url, { authorization: `Bearer ${server.tokenOf(team.vendor)}` });
  ids.contact = Number(
    (await vendor.post('/rest/1/contacts', { first_name: 'Target', allow_duplicates: 1 })).body.contacts.contacts.contact_user_id,
  );
  ids.folder = Number((await vendor.post('/rest/1/folders', { name: `Target ${targets}` })).body.folders['0'].folder_id);
  const member = await vendor.post('/rest/1/members', { ...memberBody(), username: `fuzztarget${targets}` });
  ids.member = Number(member.body.members.members.user_id);
  const session = async (preview: boolean) => {
    const reply = await vendor.post('/rest/1/dialsession', {
      contacts: [{ contact_user_id: ids.contact }],
      preview_mode: preview ? 1 : 0,
      custom_data: { targets },
    });
    return Number(reply.body.dialsessions.dialsession_id);
  };
  ids.session = await session(true);
  await vendor.post(`/rest/1/dialsession/${ids.session}/start`);
  ids.readySession = await session(true);
  await detailTargets(vendor);
}

/** A contact with one of each detail, a trashed contact, a catalogue tag and field, and a finished bulk job. */
async function detailTargets(vendor: Caller) {
  const created = await vendor.post('/rest/1/contacts', {
    first_name: 'Details',
    email: `details${targets}@example.com`,
    phone: `31255501${String(targets % 100).padStart(2, '0')}`,
    tags: [`Tagged ${targets}`],
    custom_fields: [{ name: `Field ${targets}`, type: 1, value: 'x' }],
    allow_duplicates: 1,
  });
  ids.contact = Number(created.body.contacts.contacts.contact_user_id);
  const record = (await vendor.get(`/rest/1/contacts/${ids.contact}`)).body.contacts.contacts[0];
  [ids.email, ids.phone, ids.tag, ids.field] = [
    record.emails[0].id,
    record.phones[0].id,
    record.tags[0].id,
    Number(record.custom_fields[0].custom_field_id),
  ];
  ids.trashed = Number(
    (await vendor.post('/rest/1/contacts', { first_name: 'Trashed', allow_duplicates: 1 })).body.contacts.contacts.contact_user_id,
  );
  await vendor.delete(`/rest/1/contacts/${ids.trashed}`);
  const job = await vendor.post('/rest/1/bulkjobs', { action: 'trash', contact_user_ids: [ids.trashed] });
  ids.job = Number(job.body.job.bulk_job_id);
  await jobDone(String(ids.job));
  const integration = await vendor.post('/rest/1/integrations', {
    name: `Target ${targets}`,
    redirect_uris: ['https://crm.example.com/cb'],
  });
  ids.integration = Number(integration.body.integrations.integrations.integration_id);
  ids.token = Number((await vendor.post('/rest/1/tokens', { name: `Target ${targets}` })).body.tokens.tokens.token_id);
}

async function jobDone(id: string) {
  for (let tries = 0; (await api.get(`/rest/1/bulkjobs/${id}`)).body.job.status !== 'done'; tries++) {
    if (tries > 250) throw new Error(`bulk job ${id} never finished`);
    await pause(20);
  }
}

/** One call, made and over before the fuzzing starts: the contact's number is busy. */
async function makeCall(vendor: Caller) {
  const created = await vendor.post('/rest/1/dialsession', { contacts: [{ first_name: 'Busy', phone: '2125550108' }] });
  const id = created.body.dialsessions.dialsession_id;
  await vendor.post(`/rest/1/dialsession/${id}/start`);
  for (let tries = 0; (await vendor.get(`/rest/1/dialsession/${id}/live`)).body.live.session.status !== 'ended'; tries++) {
    if (tries > 250) throw new Error('the busy call never ended');
    await pause(20);
  }
  ids.call = Number((await vendor.get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions.calls[0].call_id);
}

beforeAll(async () => {
  // Calling hours hold at any real hour; the carrier's outcomes come fast.
  setClock(new Date('2026-11-23T18:00:00Z'));
  ({ server, team } = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02', CALLBACK_ALLOWED_HOSTS: 'hooks.example' }));
  api = caller(server.url, { authorization: `Bearer ${server.tokenOf(team.vendor)}` });
  watcher = await writeWatcher(server.ctx.config.databaseUrl);
  ids.recording = await server.ctx.store.write(
    async (tx) =>
      (
        await insertVoicemail(tx, {
          org_id: team.vendor.org_id,
          member_id: null,
          name: 'Fuzz recording',
          content_type: 'audio/wav',
          audio: demoRecording(0, 1),
          duration_ms: 1000,
          created_at: now(),
        })
      ).id,
  );
  await makeCall(api);
  await refreshTargets();
});
afterAll(async () => {
  resetClock();
  process.stdout.write(`fuzz: ${cases} generated requests over ${ENDPOINTS.length} endpoints (seed ${SEED})\n`);
  await watcher?.close();
  await server?.close();
});

it.each(ENDPOINTS.map((e) => [`${e.method} ${e.path().replace(/(?<!rest)\/\d+/g, '/{id}')}`, e] as const))(
  '%s: generated input',
  async (_name, endpoint) => {
    await refreshTargets();
    await fc.assert(
      fc.asyncProperty(queryFor(endpoint), bodyFor(endpoint), fc.boolean(), async (query, body, asForm) => {
        await send(endpoint, query, endpoint.method === 'GET' ? undefined : body, asForm);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  },
  120_000,
);

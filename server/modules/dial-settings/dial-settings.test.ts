import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { now } from '../../lib/time.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { insertMessage } from '../dial-library/dial-library.repository.js';

let server: TestServer;
let team: Team;
let as: (member: Member) => Caller;
let rep: Caller;
/** A system message, one of the organisation's own, and one of another organisation. */
let systemMessage: number;
let ownMessage: number;
let foreignMessage: number;

const PATH = '/rest/1/dialsession/settings';
const MESSAGE_KEYS = ['busy', 'badphone', 'noanswer', 'fax', 'voicemail', 'interested', 'notinterested', 'wrongperson'] as const;
const DEFAULTS = {
  dialsecs: '30',
  ringing: '1',
  emails: '0',
  ...Object.fromEntries(MESSAGE_KEYS.map((k) => [k, null])),
  calltime_max: '2100',
  calltime_min: '0800',
  connectme_preset: null,
  send_skips: '0',
  record_calls: '1',
  recording_retention_days: '365',
};

const settingsOf = async (api: Caller) => (await api.get(PATH)).body.settings.settings;
const secretOf = async (orgId: number) =>
  (await server.ctx.store.db.selectFrom('organisations').select('callback_secret').where('id', '=', orgId).executeTakeFirstOrThrow())
    .callback_secret;

const message = (orgId: number, name: string) =>
  server.ctx.store.write(
    async (tx) =>
      (
        await insertMessage(tx, {
          org_id: orgId,
          type: 'onetouch',
          display_name: name,
          description: '',
          body: 'Hello',
          display_order: 50,
          created_at: now(),
        })
      ).id,
  );

beforeAll(async () => {
  ({ server, team, api: as } = await serverWithTeam());
  rep = as(team.rep);
  systemMessage = Number((await rep.get('/rest/1/content?list=system')).body.content.emails[0].message_id);
  ownMessage = await message(team.vendor.org_id, 'Our follow-up');
  foreignMessage = await message(team.otherVendor.org_id, 'Their follow-up');
});
afterAll(() => server.close());

describe('GET /rest/1/dialsession/settings', () => {
  it("answers the defaults: the contract's keys, values as strings or null, beside paging fields", async () => {
    const reply = await as(team.teammate).get(PATH);
    expect(reply.status).toBe(200);
    expect(reply.body.settings).toEqual({ settings: DEFAULTS, page: 1, page_size: 1, total_results: 1, total_pages: 1 });
  });

  it.each([
    ['the vendor', () => team.vendor, true],
    ['a manager', () => team.manager, false],
    ['a rep', () => team.rep, false],
  ])('shows the callback signing secret to %s: %s', async (_who, member, shown) => {
    const settings = await settingsOf(as(member()));
    if (shown) expect(settings.callback_secret).toBe(await secretOf(team.vendor.org_id));
    else expect(settings).not.toHaveProperty('callback_secret');
  });
});

describe('PUT /rest/1/dialsession/settings', () => {
  const put = (body: unknown) => rep.put(PATH, body);
  const form = (body: string) => rep.form('PUT', PATH, body);

  it.each<[string, () => Promise<any>, Record<string, unknown>]>([
    ['dialsecs as a number', () => put({ dialsecs: 45 }), { dialsecs: '45' }],
    ['dialsecs at its lowest, as a string', () => put({ dialsecs: '21' }), { dialsecs: '21' }],
    ['dialsecs at its highest', () => put({ dialsecs: 120 }), { dialsecs: '120' }],
    ["dialsec, the contract example's spelling", () => put({ dialsec: 60 }), { dialsecs: '60' }],
    ['ringing off', () => put({ ringing: 0 }), { ringing: '0' }],
    ['ringing on as true', () => put({ ringing: true }), { ringing: '1' }],
    ['emails on', () => put({ emails: '1' }), { emails: '1' }],
    ['a calling window', () => put({ calltime_min: '0900', calltime_max: 2030 }), { calltime_min: '0900', calltime_max: '2030' }],
    ['calltime_min as the number 800', () => put({ calltime_min: 800 }), { calltime_min: '0800' }],
    [
      'the widest calling window',
      () => put({ calltime_min: '0800', calltime_max: '2100' }),
      { calltime_min: '0800', calltime_max: '2100' },
    ],
    ['a formatted connectme_preset', () => put({ connectme_preset: '(212) 555-0100' }), { connectme_preset: '2125550100' }],
    ['connectme_preset cleared', () => put({ connectme_preset: null }), { connectme_preset: null }],
    ['send_skips on', () => put({ send_skips: 1 }), { send_skips: '1' }],
    ['send_skips off', () => put({ send_skips: 'false' }), { send_skips: '0' }],
    ['a body nested under payload', () => put({ payload: { dialsecs: 50, ringing: 1 } }), { dialsecs: '50', ringing: '1' }],
    ['a form body', () => form('dialsecs=40&emails=0&calltime_max=2000'), { dialsecs: '40', emails: '0', calltime_max: '2000' }],
    ['a form body nested under payload', () => form('payload[dialsec]=33&payload[ringing]=0'), { dialsecs: '33', ringing: '0' }],
    ['dialsec nested under payload', () => put({ payload: { dialsec: 35 } }), { dialsecs: '35' }],
  ])('sets %s, and the state after shows it', async (_what, send, expected) => {
    const reply = await send();
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.settings.settings).toMatchObject(expected);
    expect(await settingsOf(rep)).toEqual(reply.body.settings.settings);
  });

  it.each(MESSAGE_KEYS)("sets %s to a message of the library, its own or the system's, and clears it", async (key) => {
    expect((await put({ [key]: systemMessage })).body.settings.settings[key]).toBe(String(systemMessage));
    expect((await put({ [key]: String(ownMessage) })).body.settings.settings[key]).toBe(String(ownMessage));
    expect((await settingsOf(rep))[key]).toBe(String(ownMessage));
    expect((await put({ [key]: null })).body.settings.settings[key]).toBeNull();
    expect((await put({ [key]: '' })).body.settings.settings[key]).toBeNull();
  });

  it('ignores keys it does not know', async () => {
    const before = await settingsOf(rep);
    expect((await put({ colour: 'blue' })).status).toBe(200);
    expect(await settingsOf(rep)).toEqual(before);
  });

  it.each<[string, () => Record<string, unknown>]>([
    ['dialsecs', () => ({ dialsecs: 20 })],
    ['dialsecs', () => ({ dialsecs: 121 })],
    ['dialsecs', () => ({ dialsec: 'thirty' })],
    ['dialsecs', () => ({ dialsecs: 30.5 })],
    ['ringing', () => ({ ringing: 2 })],
    ['emails', () => ({ emails: 'sometimes' })],
    ['send_skips', () => ({ send_skips: [] })],
    ['calltime_min', () => ({ calltime_min: '0759' })],
    ['calltime_max', () => ({ calltime_max: '2101' })],
    ['calltime_min', () => ({ calltime_min: '9am' })],
    ['calltime_max', () => ({ calltime_min: '1200', calltime_max: '1100' })],
    ['calltime_max', () => ({ calltime_max: '0830' })],
    ['connectme_preset', () => ({ connectme_preset: '212555010' })],
    ['connectme_preset', () => ({ connectme_preset: '212-555-01000' })],
    ['busy', () => ({ busy: 999_999 })],
    ['interested', () => ({ interested: foreignMessage })],
    ['fax', () => ({ fax: -4 })],
    ['voicemail', () => ({ dialsecs: 99, voicemail: foreignMessage })],
    ['dialsecs', () => ({ payload: { dialsecs: 20 } })],
    ['callback_secret', () => ({ callback_secret: 'my-own-secret' })],
    ['payload', () => ({ payload: 'dialsecs=40' })],
    ['payload', () => ({ payload: [40] })],
  ])('refuses a bad %s with a 400 naming it, and changes nothing', async (field, body) => {
    // A saved calltime_min of 0900, so that a calltime_max before it is caught against what is stored too.
    expect((await put({ calltime_min: '0900', calltime_max: '2100' })).status).toBe(200);
    const before = await settingsOf(rep);
    const reply = await put(body());
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes.map((d: any) => d.field)).toEqual([field]);
    // A value that was given is never reported as missing, wherever the body put it.
    expect(reply.body.debug_codes[0]).toMatchObject({ code: expect.toBeOneOf([40003, 40004]), reason: expect.stringContaining(field) });
    expect(reply.body.debug_codes[0].reason).not.toMatch(/required/);
    expect(await settingsOf(rep)).toEqual(before);
  });

  it('names calltime_min when it alone is moved past the saved calltime_max', async () => {
    await put({ calltime_min: '0900', calltime_max: '1000' });
    const reply = await put({ calltime_min: '1100' });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes).toEqual([
      expect.objectContaining({ field: 'calltime_min', reason: expect.stringMatching(/^calltime_min .*1000/) }),
    ]);
    expect(await settingsOf(rep)).toMatchObject({ calltime_min: '0900', calltime_max: '1000' });
  });

  it('lists every bad key as its own debug code', async () => {
    const reply = await put({ dialsecs: 5, ringing: 7, connectme_preset: '1' });
    expect(reply.body.debug_codes.map((d: any) => d.field).sort()).toEqual(['connectme_preset', 'dialsecs', 'ringing']);
  });

  it('keeps settings per member', async () => {
    await as(team.manager).put(PATH, { dialsecs: 77, interested: systemMessage });
    expect(await settingsOf(as(team.manager))).toMatchObject({ dialsecs: '77', interested: String(systemMessage) });
    expect(await settingsOf(as(team.teammate))).toEqual(DEFAULTS);
    expect((await settingsOf(rep)).dialsecs).not.toBe('77');
  });
});

describe('rotating the callback secret', () => {
  it('gives the vendor a new whsec_ secret', async () => {
    const vendor = as(team.vendor);
    const before = await secretOf(team.vendor.org_id);
    const otherBefore = await secretOf(team.otherVendor.org_id);
    const reply = await vendor.put(PATH, { callback_secret: 'rotate' });
    expect(reply.status).toBe(200);
    const secret = reply.body.settings.settings.callback_secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secret).not.toBe(before);
    expect(await secretOf(team.vendor.org_id)).toBe(secret);
    expect((await settingsOf(vendor)).callback_secret).toBe(secret);
    expect(await secretOf(team.otherVendor.org_id)).toBe(otherBefore);
  });

  it.each([
    ['a manager', () => team.manager],
    ['a rep', () => team.rep],
  ])('refuses %s with 403 40302 and changes nothing', async (_who, member) => {
    const api = as(member());
    const [secret, before] = [await secretOf(team.vendor.org_id), await settingsOf(api)];
    const reply = await api.put(PATH, { callback_secret: 'rotate', dialsecs: 99 });
    expect([reply.status, reply.body.debug_codes[0].code]).toEqual([403, 40302]);
    expect(await secretOf(team.vendor.org_id)).toBe(secret);
    expect(await settingsOf(api)).toEqual(before);
  });
});

describe("the recording settings (organisation-wide, the vendor's to change)", () => {
  const recordingOf = async (api: Caller) => {
    const { record_calls, recording_retention_days } = await settingsOf(api);
    return { record_calls, recording_retention_days };
  };
  const DEFAULT_RECORDING = { record_calls: '1', recording_retention_days: '365' };

  it('the vendor turns recording off and sets the retention; every member of its organisation reads them, another organisation keeps its own', async () => {
    const vendor = as(team.vendor);
    const reply = await vendor.put(PATH, { record_calls: '0', recording_retention_days: 30 });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.settings.settings).toMatchObject({ record_calls: '0', recording_retention_days: '30' });
    for (const member of [team.vendor, team.manager, team.rep, team.teammate])
      expect(await recordingOf(as(member))).toEqual({ record_calls: '0', recording_retention_days: '30' });
    expect(await recordingOf(as(team.otherVendor))).toEqual(DEFAULT_RECORDING);
    // One key at a time leaves the other as it was.
    expect((await vendor.put(PATH, { payload: { record_calls: 'on' } })).body.settings.settings).toMatchObject({
      record_calls: '1',
      recording_retention_days: '30',
    });
    expect((await vendor.form('PUT', PATH, 'recording_retention_days=3650')).body.settings.settings).toMatchObject({
      record_calls: '1',
      recording_retention_days: '3650',
    });
    expect((await vendor.put(PATH, { recording_retention_days: '1' })).body.settings.settings.recording_retention_days).toBe('1');
    expect((await vendor.put(PATH, DEFAULT_RECORDING)).status).toBe(200);
  });

  it.each<[string, () => Member, Record<string, unknown>]>([
    ['a manager turning recording off', () => team.manager, { record_calls: 0 }],
    ['a rep turning recording off', () => team.rep, { record_calls: '0', dialsecs: 45 }],
    ['a manager changing the retention', () => team.manager, { recording_retention_days: 7, dialsecs: 45 }],
    ['a rep changing the retention', () => team.rep, { payload: { recording_retention_days: 7 } }],
  ])('refuses %s with 403 40302 and changes nothing', async (_who, member, body) => {
    const api = as(member());
    const before = await settingsOf(api);
    const reply = await api.put(PATH, body);
    expect([reply.status, reply.body.debug_codes[0].code]).toEqual([403, 40302]);
    expect(reply.body.debug_codes[0].reason).toMatch(/vendor/);
    expect(await settingsOf(api)).toEqual(before);
    expect(await recordingOf(as(team.vendor))).toEqual(DEFAULT_RECORDING);
  });

  it.each<[string, Record<string, unknown>]>([
    ['recording_retention_days', { recording_retention_days: 0 }],
    ['recording_retention_days', { recording_retention_days: 3651 }],
    ['recording_retention_days', { recording_retention_days: 'forever' }],
    ['recording_retention_days', { recording_retention_days: 1.5 }],
    ['recording_retention_days', { recording_retention_days: '-3' }],
    ['record_calls', { record_calls: 'sometimes' }],
    ['record_calls', { record_calls: 2, dialsecs: 40 }],
  ])('refuses the vendor a bad %s with a 400 naming it and its bounds, and changes nothing', async (field, body) => {
    const vendor = as(team.vendor);
    const before = await settingsOf(vendor);
    const reply = await vendor.put(PATH, body);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes).toEqual([expect.objectContaining({ field, reason: expect.stringContaining(field) })]);
    if (field === 'recording_retention_days') expect(reply.body.debug_codes[0].reason).toMatch(/1 to 3650/);
    expect(await settingsOf(vendor)).toEqual(before);
  });

  it('reads a null recording_retention_days as not given (compat-notes): 200, nothing changed', async () => {
    const vendor = as(team.vendor);
    const before = await settingsOf(vendor);
    const reply = await vendor.put(PATH, { recording_retention_days: null, record_calls: null });
    expect(reply.status, reply.text).toBe(200);
    expect(await settingsOf(vendor)).toEqual(before);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { type ServerProcess, startServerProcess, type StoreFolder } from '../../test/process.js';
import { folderOn } from '../../test/process-store.js';
import { recordRows } from './contact-records.repository.js';
import { presentContacts } from './contacts.service.js';
import { RecordCache } from '../../lib/record-cache.js';

describe('RecordCache', () => {
  it('answers a record only at the contact version and catalog version it was kept under', () => {
    const cache = new RecordCache<string>(10);
    cache.set(1, 3, 7, '{"a":1}');
    expect(cache.get(1, 3, 7)).toBe('{"a":1}');
    expect(cache.get(1, 4, 7)).toBeUndefined();
    expect(cache.get(1, 3, 8)).toBeUndefined();
    expect(cache.get(2, 3, 7)).toBeUndefined();
    cache.set(1, 4, 7, '{"a":2}');
    expect(cache.get(1, 4, 7)).toBe('{"a":2}');
    expect(cache.size).toBe(1);
  });

  it('drops the least recently used record past its capacity', () => {
    const cache = new RecordCache<string>(2);
    cache.set(1, 0, 0, 'one');
    cache.set(2, 0, 0, 'two');
    expect(cache.get(1, 0, 0)).toBe('one');
    cache.set(3, 0, 0, 'three');
    expect(cache.get(2, 0, 0)).toBeUndefined();
    expect(cache.get(1, 0, 0)).toBe('one');
    expect(cache.get(3, 0, 0)).toBe('three');
    expect(cache.size).toBe(2);
  });

  it('keeps nothing with capacity 0', () => {
    const cache = new RecordCache<string>(0);
    cache.set(1, 0, 0, 'one');
    expect(cache.get(1, 0, 0)).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});

/*
 * Lists and GET /contacts/{id} serve records from the record cache. After each kind of write, every record a
 * list or a GET shows must equal one built afresh from the store. The reads run on the test's server and the writes
 * on a server process of their own on the same store (the test store: a PostgreSQL database with
 * TEST_DATABASE=postgres), with its own pool and cache: nothing but the versions in the store can tell the reader that
 * a record changed.
 */
let server: TestServer;
let team: Team;
let reader: (member: Member) => Caller;
let writer: (member: Member) => Caller;
let writerFolder: StoreFolder;
let writerProcess: ServerProcess;

beforeAll(async () => {
  ({ server, team, api: reader } = await serverWithTeam());
  writerFolder = folderOn(server);
  writerProcess = await startServerProcess(writerFolder, {
    WORKERS: '1',
    TRANSCRIBER: 'none',
    // The phone network is the test server's: one carrier, as for every server of a deployment.
    CARRIER_URL: server.ctx.config.carrier.url!,
    LOG_LEVEL: 'error',
  });
  writer = (member) => caller(writerProcess.url, { authorization: `Bearer ${server.tokenOf(member)}` });
}, 120_000);
afterAll(async () => {
  await writerProcess?.stop();
  await server?.close();
  await writerFolder?.remove();
});

const ALL = '/rest/1/contacts?page_size=100&include_trashed=1&include_archived=1';
const idOf = (reply: { body: any }) => reply.body.contacts.contacts.contact_user_id as string;

/** The record of a contact as the serializer builds it from the store now, past any cache. */
async function freshRecord(id: number) {
  const db = server.ctx.store.db;
  const [record] = await presentContacts(db, await recordRows(db, [id]));
  return JSON.parse(JSON.stringify(record));
}

/** Every record the member's list shows, and its GET, each equal to a fresh one; answers the listed records. */
async function expectListedRecordsFresh(member: Member) {
  const list = await reader(member).get(ALL);
  expect(list.status, list.text).toBe(200);
  const listed: any[] = list.body.contacts.contacts;
  expect(listed.length).toBeGreaterThan(0);
  for (const record of listed) {
    const fresh = await freshRecord(Number(record.contact_user_id));
    expect(record, `contact ${record.contact_user_id} listed`).toEqual(fresh);
    const got = await reader(member).get(`/rest/1/contacts/${record.contact_user_id}`);
    expect(got.body.contacts.contacts[0], `contact ${record.contact_user_id} by id`).toEqual(fresh);
  }
  return listed;
}

const listedOf = async (member: Member, id: string) =>
  (await reader(member).get(ALL)).body.contacts.contacts.find((c: any) => c.contact_user_id === id);

it('shows every write in the next list, whichever process made it', async () => {
  const vendor = writer(team.vendor);
  const folder = (await vendor.post('/rest/1/folders', { name: 'Leads', description: 'New ones' })).body.folders['0'].folder_id as string;
  const other = (await vendor.post('/rest/1/folders', { name: 'Others' })).body.folders['0'].folder_id as string;
  const rep = writer(team.rep);
  const ada = idOf(
    await rep.post('/rest/1/contacts', {
      first_name: 'Ada',
      email: 'ada@example.com',
      phone: '6175550101',
      category_id: folder,
      notes: 'First call',
    }),
  );
  const ben = idOf(
    await rep.post('/rest/1/contacts', {
      first_name: 'Ben',
      tags: ['Warm'],
      custom_fields: [{ name: 'Company', type: 1, value: 'Acme' }],
      category_id: folder,
    }),
  );
  const cy = idOf(await rep.post('/rest/1/contacts', { first_name: 'Cy', category_id: other }));
  await expectListedRecordsFresh(team.rep);
  await expectListedRecordsFresh(team.vendor);

  // The contact's own row and detail rows: fields, phones and e-mails, notes, tags, custom values, other details.
  await rep.put(`/rest/1/contacts/${ada}`, { last_name: 'Lovelace', email: 'ada@lovelace.example.com', phone: '6175550199', rating: 5 });
  await rep.put(`/rest/1/contacts/${ben}`, {
    notes: 'Sent a quote',
    tags: ['Hot'],
    custom_fields: [{ name: 'Company', type: 1, value: 'Acme Inc' }],
    city: 'Boston',
    additional_name: [{ first_name: 'Benjamin', last_name: 'B' }],
    question: ['Budget?'],
    answer: ['Large'],
    social_accounts: [{ type: 1, account: 'twitter.com/ben' }],
    additional_phone: [{ number: '6175550123', type: 2 }],
  });
  expect((await listedOf(team.rep, ben)).notes.notes).toMatch(/Sent a quote/);
  await expectListedRecordsFresh(team.rep);

  // A duplicate create updates the contact it matches.
  await rep.post('/rest/1/contacts', { first_name: 'Ada', last_name: 'King', email: 'ada@lovelace.example.com' });
  expect((await listedOf(team.rep, ada)).last_name).toBe('King');
  await expectListedRecordsFresh(team.rep);

  // A move, a transfer within the team, the trash.
  await rep.put(`/rest/1/contacts/${ada}`, { category_id: other });
  await writer(team.manager).put(`/rest/1/contacts/${cy}`, { transfer_to_user_id: team.teammate.id });
  await rep.delete(`/rest/1/contacts/${ben}`);
  expect((await listedOf(team.rep, ben)).trashed).toBe('1');
  await expectListedRecordsFresh(team.rep);
  await expectListedRecordsFresh(team.manager);

  // What records show from outside the contact: its folder's name and description, its note authors' names.
  await vendor.put(`/rest/1/folders/${other}`, { name: 'Customers', description: 'Signed' });
  expect((await listedOf(team.rep, ada)).category).toEqual({ category_id: other, name: 'Customers', description: 'Signed' });
  await expectListedRecordsFresh(team.rep);
  await vendor.put(`/rest/1/members/${team.rep.id}`, { first_name: 'Richard' });
  expect((await listedOf(team.rep, ada)).notes.notes).toMatch(/Richard Test: First call/);
  await expectListedRecordsFresh(team.rep);

  // A folder deleted into another.
  expect((await vendor.delete(`/rest/1/folders/${other}?move_folder_id=${folder}`)).status).toBe(204);
  expect((await listedOf(team.rep, ada)).category.name).toBe('Leads');
  await expectListedRecordsFresh(team.rep);
  await expectListedRecordsFresh(team.vendor);

  // A member removed: its contacts pass to the member above it; its notes on others' contacts keep its name (its history).
  await writer(team.manager).put(`/rest/1/contacts/${ada}`, { notes: 'Manager checked in' });
  await writer(team.manager).post('/rest/1/contacts', { first_name: 'Dee', category_id: folder });
  expect((await listedOf(team.rep, ada)).notes.notes).toMatch(/Mona Test: Manager checked in/);
  await expectListedRecordsFresh(team.vendor);
  expect((await vendor.delete(`/rest/1/members/${team.manager.id}`)).status).toBe(204);
  expect((await listedOf(team.rep, ada)).notes.notes).toMatch(/Mona Test: Manager checked in/);
  await expectListedRecordsFresh(team.rep);
  const passedOn = await expectListedRecordsFresh(team.vendor);
  expect(passedOn.find((c) => c.first_name === 'Dee')).toMatchObject({ owner_id: String(team.vendor.id) });
});

it("shows every write to a contact's details and to the catalogues in the next list, whichever process made it", async () => {
  const rep = writer(team.rep);
  const vendor = writer(team.vendor);
  const eve = idOf(
    await rep.post('/rest/1/contacts', { first_name: 'Eve', email: 'eve@example.com', phone: '6175550200', tags: ['Shared'] }),
  );
  const fay = idOf(
    await rep.post('/rest/1/contacts', { first_name: 'Fay', tags: ['Shared'], custom_fields: [{ name: 'Score', type: 1, value: '7' }] }),
  );
  await rep.post('/rest/1/contacts', { first_name: 'Gus', custom_fields: [{ name: 'Level', type: 6 }] });
  await expectListedRecordsFresh(team.rep);
  const fresh = () => expectListedRecordsFresh(team.rep);
  const expectOk = (reply: { status: number; text: string }) => expect(reply.status, reply.text).toBeLessThan(300);

  // E-mail addresses: add, make primary, replace all, change one, delete the primary.
  const added = (await rep.post(`/rest/1/contacts/${eve}/emails`, { email_address: 'eve@work.example.com', is_primary: false })).body.email;
  await fresh();
  expectOk(await rep.put(`/rest/1/contacts/${eve}/emails/${added.id}`, { email_address: 'eve@work.example.com', is_primary: true }));
  expect((await listedOf(team.rep, eve)).primary_email.email_address).toBe('eve@work.example.com');
  await fresh();
  expectOk(
    await rep.put(`/rest/1/contacts/${eve}/emails`, {
      emails: [{ email: 'eve@home.example.com' }, { email: 'eve@work.example.com', is_primary: 1 }],
    }),
  );
  await fresh();
  expectOk(await rep.delete(`/rest/1/contacts/${eve}/emails/${added.id}`));
  expect((await listedOf(team.rep, eve)).primary_email.email_address).toBe('eve@home.example.com');
  await fresh();

  // Phones: add as primary, change one, replace all, delete one.
  const phone = (await rep.post(`/rest/1/contacts/${eve}/phones`, { phone_number: '6175550201', type: 3, is_primary: 1 })).body.phone;
  await fresh();
  expectOk(await rep.put(`/rest/1/contacts/${eve}/phones/${phone.id}`, { phone_number: '6175550202', label: 'cell' }));
  await fresh();
  expectOk(
    await rep.put(`/rest/1/contacts/${eve}/phones`, { phones: [{ phone_number: '6175550202', type: 2 }, { phone_number: '6175550203' }] }),
  );
  await fresh();
  expectOk(await rep.delete(`/rest/1/contacts/${eve}/phones/${phone.id}`));
  expect((await listedOf(team.rep, eve)).primary_phone.raw_phone).toBe('6175550203');
  await fresh();

  // A contact's tags: add by title, change one, remove one.
  expectOk(await rep.post(`/rest/1/contacts/${eve}/tags`, { title: 'Fresh' }));
  await fresh();
  const shared = (await listedOf(team.rep, eve)).tags.find((t: any) => t.title === 'Shared');
  expectOk(await rep.put(`/rest/1/contacts/${eve}/tags/${shared.id}`, { title: 'Swapped' }));
  await fresh();
  const swapped = (await listedOf(team.rep, eve)).tags.find((t: any) => t.title === 'Swapped');
  expectOk(await rep.delete(`/rest/1/contacts/${eve}/tags/${swapped.id}`));
  await fresh();

  // The tag catalogue: a rename and a delete change what other contacts show, without touching them.
  expectOk(await vendor.put(`/rest/1/tags/${shared.id}`, { title: 'Shared widely' }));
  expect((await listedOf(team.rep, fay)).tags).toEqual([{ id: shared.id, title: 'Shared widely' }]);
  await fresh();
  expectOk(await vendor.delete(`/rest/1/tags/${shared.id}`));
  expect((await listedOf(team.rep, fay)).tags).toEqual([]);
  await fresh();

  // A contact's custom values: set (a drop-down's new option too), remove.
  const defs = (await rep.get('/rest/1/customfields?page_size=100')).body.customfields.customfields;
  const [score, level] = ['Score', 'Level'].map((name) => defs.find((d: any) => d.display_name === name).custom_field_id);
  expectOk(await rep.post(`/rest/1/contacts/${eve}/customfields/${level}`, { value: 'Expert' }));
  expectOk(await rep.put(`/rest/1/contacts/${eve}/customfields/${score}`, { value: '9' }));
  await fresh();
  expectOk(await rep.delete(`/rest/1/contacts/${eve}/customfields/${level}`));
  await fresh();

  // Definitions: a new name, order and type show on every contact holding a value; a delete takes the values.
  expectOk(await vendor.put(`/rest/1/customfields/${score}`, { display_name: 'Rank', display_order: 99, type: 7 }));
  expect((await listedOf(team.rep, fay)).custom_fields).toEqual([{ custom_field_id: score, name: 'Rank', type: '7', value: '7' }]);
  await fresh();
  expectOk(await vendor.delete(`/rest/1/customfields/${score}`));
  expect((await listedOf(team.rep, fay)).custom_fields).toEqual([]);
  await fresh();

  // The trash and back.
  expectOk(await rep.delete(`/rest/1/contacts/${fay}`));
  await fresh();
  expectOk(await rep.post(`/rest/1/contacts/${fay}/restore`));
  expect((await listedOf(team.rep, fay)).trashed).toBe('0');
  await fresh();
  await expectListedRecordsFresh(team.vendor);
});

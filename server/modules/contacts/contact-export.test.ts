import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

/* GET/POST /rest/1/contacts/export (docs/api.md, "Export"): the CSV of a view or a selection. */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let rep: Caller;
let tricky: string;
let plain: string;
let folderId: string;

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  rep = api(team.rep);
  await rep.post('/rest/1/customfields', { display_name: 'Company', type: 1 });
  await rep.post('/rest/1/customfields', { display_name: 'Notes', type: 1 });
  folderId = (await rep.post('/rest/1/folders', { name: 'Leads' })).body.folders['0'].folder_id;
  const create = async (body: object, who = rep) =>
    (await who.post('/rest/1/contacts', { allow_duplicates: 1, ...body })).body.contacts.contacts.contact_user_id as string;
  tricky = await create({
    first_name: 'Ann, "the" boss',
    last_name: '=SUM(A1:A2)',
    email: 'ann@example.com',
    phone: '555-010-0101',
    phone_type: 3,
    additional_phone: [{ number: '555-010-0102', phone_type: 2 }],
    notes: 'line one\nline two',
    tags: ['vip', 'east'],
    category_id: folderId,
    rating: 4,
    do_not_call: 1,
    city: 'Zürich',
    custom_fields: [
      { name: 'Company', value: '@corp' },
      { name: 'Notes', value: 'custom note' },
    ],
  });
  plain = await create({ first_name: 'Bob', last_name: 'Plain' });
  await create({ first_name: 'Tess', last_name: 'Teammate' }, api(team.teammate));
});
afterAll(() => server?.close());

/** RFC 4180 records: quoted cells may hold commas, quotes (doubled) and line breaks; records end in CRLF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (quoted) cell += ch;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      records.push([...cells, cell]);
      cells = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return records;
}

type Export = { status: number; headers: Headers; bytes: Buffer; rows: Record<string, string>[]; header: string[] };

async function exported(path: string, init: RequestInit = {}, who: Member = team.rep): Promise<Export> {
  const res = await fetch(server.url + path, {
    ...init,
    headers: { authorization: `Bearer ${server.tokenOf(who)}`, 'content-type': 'application/json', ...init.headers },
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) return { status: res.status, headers: res.headers, bytes, rows: [], header: [] };
  const [header = [], ...records] = parseCsv(bytes.subarray(3).toString('utf8'));
  const rows = records.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
  return { status: res.status, headers: res.headers, bytes, rows, header };
}

const selection = (ids: (string | number)[], who?: Member) =>
  exported('/rest/1/contacts/export', { method: 'POST', body: JSON.stringify({ contact_ids: ids }) }, who);

describe('GET /rest/1/contacts/export', () => {
  it('answers a UTF-8 CSV attachment with a BOM, CRLF records and readable headers', async () => {
    const reply = await exported('/rest/1/contacts/export');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(reply.headers.get('content-disposition')).toMatch(/^attachment; filename="ringbook-contacts-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect([...reply.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(reply.bytes.toString('utf8')).toMatch(/^\uFEFFID,First name,Last name,Owner,Folder,Tags,E-mail 1,/);
    expect(reply.header.slice(-2)).toEqual(['Company', 'Notes (custom field)']);
    // The rep's own contacts, newest first.
    expect(reply.rows.map((r) => r.ID)).toEqual([plain, tricky]);
  });

  it('writes every field, quotes what needs it and defuses formulas', async () => {
    const { rows, bytes } = await exported('/rest/1/contacts/export');
    const ann = rows.find((r) => r.ID === tricky)!;
    expect(ann).toMatchObject({
      'First name': 'Ann, "the" boss',
      'Last name': "'=SUM(A1:A2)",
      Owner: 'Rick Test',
      Folder: 'Leads',
      Tags: 'east; vip',
      'E-mail 1': 'ann@example.com',
      'Phone 1': '5550100101',
      'Phone 1 type': 'CELL',
      'Phone 2': '5550100102',
      'Phone 2 type': 'WORK',
      'Phone 3': '',
      City: 'Zürich',
      'Do not call': 'yes',
      Rating: '4',
      Notes: 'line one\nline two',
      Company: "'@corp",
      'Notes (custom field)': 'custom note',
    });
    expect(bytes.toString('utf8')).toContain('"Ann, ""the"" boss"');
    expect(rows.find((r) => r.ID === plain)).toMatchObject({ 'E-mail 1': '', Folder: '', Company: '', 'Do not call': 'no' });
  });

  it('honours the filters and the search of the list', async () => {
    expect((await exported('/rest/1/contacts/export?search=plain')).rows.map((r) => r.ID)).toEqual([plain]);
    expect((await exported(`/rest/1/contacts/export?folder_id=${folderId}`)).rows.map((r) => r.ID)).toEqual([tricky]);
    expect((await exported('/rest/1/contacts/export?email_address=nobody@example.com')).rows).toEqual([]);
  });

  it("exports only the caller's scope", async () => {
    const manager = await exported('/rest/1/contacts/export', {}, team.manager);
    expect(manager.rows.map((r) => r['Last name']).sort()).toEqual(['Plain', 'Teammate', "'=SUM(A1:A2)"].sort());
    const other = await exported('/rest/1/contacts/export', {}, team.otherVendor);
    expect(other.rows).toEqual([]);
  });

  it('refuses bad parameters with 400 and the error envelope', async () => {
    const reply = await exported('/rest/1/contacts/export?sort_order=sideways');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.bytes.toString()).debug_codes[0]).toMatchObject({ field: 'sort_order' });
  });
});

describe('POST /rest/1/contacts/export', () => {
  it('exports the selection newest first, leaving out unknown ids and those out of scope', async () => {
    const teammates = (await exported('/rest/1/contacts/export', {}, team.teammate)).rows.map((r) => r.ID!);
    const reply = await selection([tricky, plain, tricky, 99_999_999, ...teammates]);
    expect(reply.status).toBe(200);
    expect(reply.rows.map((r) => r.ID)).toEqual([plain, tricky]);
  });

  it('takes the selection as a form body too', async () => {
    const reply = await exported('/rest/1/contacts/export', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `contact_ids[0]=${tricky}&contact_ids[1]=${plain}`,
    });
    expect(reply.rows.map((r) => r.ID)).toEqual([plain, tricky]);
  });

  it('refuses an empty or malformed selection with 400', async () => {
    expect((await selection([])).status).toBe(400);
    expect((await selection(['x'])).status).toBe(400);
  });
});

describe('a long export', () => {
  it('reads chunk after chunk and writes every contact once, newest first', async () => {
    const owner = api(team.outsider);
    const ids: string[] = [];
    // 2,100 contacts: three chunks of 1,000, the last one short.
    for (let start = 0; start < 2_100; start += 50) {
      const batch = Array.from({ length: 50 }, (_, i) =>
        owner.post('/rest/1/contacts', { first_name: `Bulk ${start + i}`, allow_duplicates: 1 }),
      );
      for (const reply of await Promise.all(batch)) ids.push(reply.body.contacts.contacts.contact_user_id);
    }
    const { rows } = await exported('/rest/1/contacts/export', {}, team.outsider);
    expect(rows.map((r) => r.ID)).toEqual(
      ids
        .map(Number)
        .sort((a, b) => b - a)
        .map(String),
    );
    const selected = await selection(ids.slice(0, 1_500), team.outsider);
    expect(selected.rows).toHaveLength(1_500);
  }, 120_000);

  it('stops cleanly when the client goes away after the first bytes, and the next export is whole', async () => {
    const abort = new AbortController();
    const res = await fetch(`${server.url}/rest/1/contacts/export`, {
      headers: { authorization: `Bearer ${server.tokenOf(team.outsider)}` },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    const first = await res.body!.getReader().read();
    expect(first.done).toBe(false);
    abort.abort();
    // The server neither fails nor stops answering (a write after the client left would throw outside any request).
    expect((await exported('/rest/1/contacts/export', {}, team.outsider)).rows).toHaveLength(2_100);
  });
});

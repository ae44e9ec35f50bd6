import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportMapping, ImportRecord } from '../../contracts/imports.js';
import { type Db, openStore, type Store } from '../../db/database.js';
import { nowMs, resetClock, setClock } from '../../lib/clock.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { importTask } from './import-job.js';

/*
 * CSV imports through the real server, store and runner: messy files uploaded over HTTP (semicolons, Windows-1252,
 * quoted line breaks, a row too long), files refused whole with nothing stored, preview, dry run, run with duplicates
 * in the store and in the file, the refused rows' CSV, undo with a value changed since, who may see what, a claim
 * raced by two stores, and a run resumed after its runner's lease ran out. Jobs are waited for by polling, not sleeping.
 */
let server: TestServer;
let team: Team;
let rep: Caller;
let vendor: Caller;
let outsider: Caller;
let elsewhere: Caller;

beforeAll(async () => {
  let api;
  ({ server, team, api } = await serverWithTeam({ IMPORT_MAX_BYTES: '4000', IMPORT_MAX_ROWS: '40' }));
  [rep, vendor, outsider, elsewhere] = [api(team.rep), api(team.vendor), api(team.outsider), api(team.otherVendor)];
}, 60_000);
afterAll(() => server?.close());

const db = () => server.ctx.store.db;
const write = <T>(work: (tx: Db) => Promise<T>) => server.ctx.store.write(work);

const win1252 = (text: string) => Buffer.from([...text].map((c) => ({ é: 0xe9, ü: 0xfc, '€': 0x80 })[c] ?? c.charCodeAt(0)));

async function upload(caller: Caller, bytes: Buffer | string, filename = 'people.csv') {
  return caller.raw(`/rest/1/imports?filename=${encodeURIComponent(filename)}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: new Uint8Array(typeof bytes === 'string' ? Buffer.from(bytes) : bytes),
  });
}

const importCount = async () =>
  Number(
    (
      await db()
        .selectFrom('imports')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function finished(caller: Caller, id: number, status = /^(done|failed|undone)$/): Promise<ImportRecord> {
  let record: ImportRecord | undefined;
  await expect
    .poll(
      async () => {
        const reply = await caller.get(`/rest/1/imports/${id}`);
        expect(reply.status, reply.text).toBe(200);
        record = reply.body.import;
        return record!.status;
      },
      { timeout: 20_000, interval: 25 },
    )
    .toMatch(status);
  return record!;
}

const MESSY = [
  'Prénom;Nom;E-mail;Mobile;Ville;Notes',
  'Renée;Dupré;renee@example.com;(212) 555-0101;Lyon;"Met at the fair;\nwants a call back"',
  'Jürgen;Ünal;jurgen@example.com;2125550102;Köln;Price 5€',
  'Too;Long;too@example.com;2125550103;X;a;b;c',
  ';;not-an-email;;;',
  'Renée;Again;RENEE@example.com;2125550109;;second row of the same person',
  ';;;;;',
  'Solo;;;3125550111;;',
].join('\r\n');

const MAPPING: ImportMapping = {
  folder_id: undefined,
  columns: [
    { index: 0, field: 'first_name' },
    { index: 1, field: 'last_name' },
    { index: 2, field: 'email' },
    { index: 3, field: 'phone', phone_type: 'mobile' },
    { index: 4, field: 'address.city' },
    { index: 5, field: 'notes' },
  ],
  tags: ['Imported'],
};

describe('upload', () => {
  it('reads a semicolon, Windows-1252 file with quoted line breaks, and suggests fields from its header', async () => {
    const reply = await upload(rep, win1252(MESSY));
    expect(reply.status, reply.text).toBe(201);
    const record = reply.body.import as ImportRecord;
    expect(record).toMatchObject({ status: 'uploaded', encoding: 'windows-1252', delimiter: ';', row_count: 6, filename: 'people.csv' });
    expect(record.columns.map((c) => c.header)).toEqual(['Prénom', 'Nom', 'E-mail', 'Mobile', 'Ville', 'Notes']);
    expect(record.columns.map((c) => c.suggestion?.field ?? null)).toEqual([
      'first_name',
      'last_name',
      'email',
      'phone',
      'address.city',
      'notes',
    ]);
    expect(record.columns[3]!.suggestion).toEqual({ field: 'phone', phone_type: 'mobile' });
    expect(record.columns[0]!.samples).toEqual(['Renée', 'Jürgen', 'Too']);
    expect(record.columns[5]!.samples[0]).toBe('Met at the fair;\nwants a call back');
  });

  it('reads a Windows-1252 file whose first accent comes after the bytes it sniffs, and a UTF-8 one alike', async () => {
    const ascii = Array.from({ length: 60_000 }, (_, i) => `Person${i},Plain${i},p${i}@example.com`);
    const tail = ['Jürgen,Ünal,jurgen.late@example.com'];
    const text = ['First Name,Last Name,Email', ...ascii, ...tail].join('\r\n');
    expect(Buffer.byteLength(text.slice(0, text.indexOf('ü')))).toBeGreaterThan(64 * 1024);
    // This file is larger than the other tests' server takes: a server of its own, with the default limits.
    const big = await serverWithTeam();
    try {
      for (const [bytes, encoding] of [
        [win1252(text), 'windows-1252'],
        [Buffer.from(text), 'utf-8'],
      ] as const) {
        const reply = await upload(big.api(big.team.rep), bytes);
        expect(reply.status, reply.text).toBe(201);
        expect(reply.body.import).toMatchObject({ encoding, row_count: 60_001 });
        const last = await big.server.ctx.store.db
          .selectFrom('import_rows')
          .select('fields')
          .where('import_id', '=', reply.body.import.id as number)
          .where('row_no', '=', 60_001)
          .executeTakeFirstOrThrow();
        expect(JSON.parse(last.fields)).toEqual(['Jürgen', 'Ünal', 'jurgen.late@example.com']);
      }
    } finally {
      await big.server.close();
    }
  }, 60_000);

  it('reads UTF-8 with a byte-order mark, commas and tabs', async () => {
    const utf8 = await upload(rep, `\uFEFFFirst Name,Last Name,Email Address\r\nZoë,"O""Brien, Jr",zoe@example.com\r\n`);
    expect(utf8.body.import).toMatchObject({ encoding: 'utf-8', delimiter: ',', row_count: 1 });
    expect(utf8.body.import.columns[1].samples).toEqual(['O"Brien, Jr']);
    const tabs = await upload(rep, 'Name\tPhone\nAda Lovelace\t2125550150\n');
    expect(tabs.body.import).toMatchObject({ delimiter: '\t', row_count: 1 });
    expect(tabs.body.import.columns.map((c: { suggestion: unknown }) => c.suggestion)).toEqual([
      { field: 'full_name' },
      { field: 'phone', phone_type: 'other' },
    ]);
  });

  it.each([
    ['an empty file', '', 'The file is empty.'],
    ['blank lines', '\r\n\r\n', 'blank lines'],
    ['a header without rows', 'Name,Email\r\n', 'The file has a header but no rows.'],
    ['binary bytes', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08]), 'binary'],
    ['more rows than IMPORT_MAX_ROWS', `Name\n${Array.from({ length: 41 }, (_, i) => `P${i}`).join('\n')}`, 'more than 40 rows'],
    ['an unclosed quote', 'Name,Email\n"Ada,ada@example.com\n', 'could not be read as CSV'],
  ])('refuses %s with a 400 and keeps nothing', async (_, body, words) => {
    const before = await importCount();
    const reply = await upload(rep, body as string);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.status).toBe('error');
    expect(reply.text).toContain(words);
    expect(await importCount()).toBe(before);
    expect(
      Number(
        (
          await db()
            .selectFrom('import_rows')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('import_id', 'not in', db().selectFrom('imports').select('id'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(0);
  });

  it('refuses a file over IMPORT_MAX_BYTES with a 413, whether it says its length or streams', async () => {
    const before = await importCount();
    const big = `Name\n${'x'.repeat(60)}\n`.repeat(100);
    const said = await upload(rep, big);
    expect(said.status, said.text).toBe(413);
    expect(said.text).toContain('larger than');
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode(i ? `row ${i} ${'y'.repeat(600)}\n` : 'Name\n'));
        c.close();
      },
    });
    const streamed = await rep.raw('/rest/1/imports', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(streamed.status, streamed.text).toBe(413);
    expect(await importCount()).toBe(before);
  });

  it('needs a credential', async () => {
    expect((await upload(server.as(), 'Name\nA\n')).status).toBe(401);
  });
});

describe('preview, run, refused rows and undo', () => {
  let id: number;
  beforeAll(async () => {
    // Already in the store: the second file row's person, by e-mail, with a first name of their own.
    const existing = await rep.post('/rest/1/contacts', { first_name: 'Jurgen', email: 'jurgen@example.com' });
    expect(existing.status, existing.text).toBe(201);
    id = (await upload(rep, win1252(MESSY))).body.import.id;
  });

  it('previews the rows as they would be stored, writing nothing', async () => {
    const reply = await rep.post(`/rest/1/imports/${id}/preview`, { mapping: MAPPING, duplicates: 'update' });
    expect(reply.status, reply.text).toBe(200);
    const rows = reply.body.rows;
    expect(rows.map((r: { outcome: string }) => r.outcome)).toEqual(['create', 'update', 'refuse', 'refuse', 'update', 'create']);
    expect(rows[0].contact).toMatchObject({
      first_name: 'Renée',
      emails: ['renee@example.com'],
      phones: [{ phone_number: '2125550101', type_name: 'CELL' }],
      tags: ['Imported'],
    });
    expect(rows[1].reason).toContain('First name "Jurgen" kept');
    expect(rows[2].reason).toBe('Row 3 has 8 fields; the header has 6.');
    expect(rows[3].reason).toContain('not-an-email');
    expect(rows[4].reason).toContain('row 1');
  });

  it('refuses a mapping that does not fit the file', async () => {
    const reply = await rep.post(`/rest/1/imports/${id}/preview`, {
      mapping: {
        columns: [
          { index: 9, field: 'email' },
          { index: 1, field: 'custom:999' },
        ],
      },
    });
    expect(reply.status).toBe(400);
    expect(reply.text).toContain('the file has 6 columns');
    expect(reply.text).toContain('no custom field 999');
    const twice = await rep.post(`/rest/1/imports/${id}/run`, {
      mapping: {
        columns: [
          { index: 0, field: 'first_name' },
          { index: 1, field: 'first_name' },
        ],
      },
    });
    expect(twice.status).toBe(400);
  });

  it('counts a dry run without writing a contact, then runs, skipping and updating duplicates', async () => {
    const contactsBefore = await contactTotal();
    const dry = await rep.post(`/rest/1/imports/${id}/run`, { mapping: MAPPING, duplicates: 'update', dry_run: true });
    expect(dry.status, dry.text).toBe(202);
    expect(dry.body.import.status).toBe('queued');
    expect(await finished(rep, id)).toMatchObject({
      status: 'done',
      dry_run: true,
      counts: { created: 2, updated: 2, skipped: 0, refused: 2 },
      rows_done: 6,
    });
    expect(await contactTotal()).toBe(contactsBefore);

    expect((await rep.post(`/rest/1/imports/${id}/run`, { mapping: MAPPING, duplicates: 'update', dry_run: false })).status).toBe(202);
    expect(await finished(rep, id)).toMatchObject({
      status: 'done',
      dry_run: false,
      counts: { created: 2, updated: 2, skipped: 0, refused: 2 },
    });
    expect(await contactTotal()).toBe(contactsBefore + 2);
    // Found by the grid's search, as a contact created by hand is.
    const found = await rep.get('/rest/1/contacts?search=Renée');
    expect(found.body.contacts.total_results).toBe(1);
    const renee = found.body.contacts.contacts[0];
    expect(renee.emails.map((e: { email_address: string }) => e.email_address).sort()).toEqual(['renee@example.com']);
    expect(renee.phones.map((p: { phone_number: string }) => p.phone_number).sort()).toEqual(['2125550101', '2125550109']);
    expect(renee.tags.map((t: { title: string }) => t.title)).toEqual(['Imported']);
    const jurgen = (await rep.get('/rest/1/contacts?search=jurgen@example.com')).body.contacts.contacts[0];
    expect(jurgen.first_name).toBe('Jurgen');
    expect(jurgen.last_name).toBe('Ünal');
    expect(jurgen.primary_address.city).toBe('Köln');

    const again = await rep.post(`/rest/1/imports/${id}/run`, { mapping: MAPPING, duplicates: 'skip', dry_run: false });
    expect(again.status).toBe(409);
    expect(again.text).toContain('done already');
  });

  it('answers the refused rows as CSV: the header, "Reason", and each row as uploaded', async () => {
    const reply = await rep.get(`/rest/1/imports/${id}/refused.csv`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/csv');
    const lines = reply.text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Prénom,Nom,E-mail,Mobile,Ville,Notes,Reason');
    expect(lines[1]).toBe('Too,Long,too@example.com,2125550103,X,a,b,c,Row 3 has 8 fields; the header has 6.');
    expect(lines[2]).toContain('not-an-email');
    expect(lines.length).toBe(4);
  });

  it('skips a row that repeats an earlier row of the file, naming the contact that row created', async () => {
    const file = [
      'Prénom;Nom;E-mail;Mobile;Ville;Notes',
      'Ada;One;ada.skip@example.com;;;',
      'Bea;Two;;4155550177;;',
      'Ada;Again;ADA.SKIP@example.com;;;',
    ];
    const uploaded = (await upload(rep, file.join('\r\n'))).body.import.id as number;
    const run = await rep.post(`/rest/1/imports/${uploaded}/run`, { mapping: MAPPING, duplicates: 'skip', dry_run: false });
    expect(run.status, run.text).toBe(202);
    expect(await finished(rep, uploaded)).toMatchObject({ status: 'done', counts: { created: 2, updated: 0, skipped: 1, refused: 0 } });
    const rows = await db().selectFrom('import_rows').selectAll().where('import_id', '=', uploaded).orderBy('row_no').execute();
    const ada = (await rep.get('/rest/1/contacts?search=ada.skip@example.com')).body.contacts.contacts[0];
    expect(rows.map((r) => [r.outcome, r.contact_id])).toEqual([
      ['created', Number(ada.contact_user_id)],
      ['created', rows[1]!.contact_id],
      ['skipped', Number(ada.contact_user_id)],
    ]);
    expect(rows[1]!.contact_id).toBeGreaterThan(Number(ada.contact_user_id));
    expect(rows[2]!.reason).toBe(`Same e-mail or phone as contact ${ada.contact_user_id}.`);
  });

  it('keeps imports to those who may see them', async () => {
    expect((await outsider.get(`/rest/1/imports/${id}`)).status).toBe(404);
    expect((await elsewhere.get(`/rest/1/imports/${id}`)).status).toBe(404);
    expect((await outsider.post(`/rest/1/imports/${id}/undo`)).status).toBe(404);
    expect((await outsider.get(`/rest/1/imports/${id}/refused.csv`)).status).toBe(404);
    const seen = await vendor.get(`/rest/1/imports/${id}`);
    expect(seen.status).toBe(200);
    const who = { member_id: team.rep.id, member_name: `${team.rep.first_name} ${team.rep.last_name}`.trim() || team.rep.username };
    expect(seen.body.import).toMatchObject(who);
    const listed = (await vendor.get('/rest/1/imports')).body.data.find((i: { id: number }) => i.id === id);
    expect(listed).toMatchObject(who);
    expect((await rep.get('/rest/1/imports')).body.data.map((i: { id: number }) => i.id)).toContain(id);
    expect((await outsider.get('/rest/1/imports')).body.data.map((i: { id: number }) => i.id)).not.toContain(id);
  });

  it('undoes: created contacts go unless edited since, filled values return unless changed since, and says which', async () => {
    // A minute after the import ended (the product's clock), so that what follows is "since" to the second.
    setClock(new Date(nowMs() + 60_000));
    const jurgen = (await rep.get('/rest/1/contacts?search=jurgen@example.com')).body.contacts.contacts[0];
    // Changed since the import filled it: undo must leave it and say so.
    expect((await rep.put(`/rest/1/contacts/${jurgen.contact_user_id}`, { last_name: 'Unal' })).status).toBe(200);
    // Created by the import and edited since: undo keeps it and says so.
    const solo = (await rep.get('/rest/1/contacts?search=3125550111')).body.contacts.contacts[0];
    expect((await rep.put(`/rest/1/contacts/${solo.contact_user_id}`, { last_name: 'Kept' })).status).toBe(200);
    const before = await contactTotal();
    const reply = await rep.post(`/rest/1/imports/${id}/undo`);
    expect(reply.status, reply.text).toBe(202);
    expect(await finished(rep, id, /^(undone|failed)$/)).toMatchObject({ status: 'undone', not_restored: 2 });
    resetClock();
    expect(await contactTotal()).toBe(before - 1);
    expect((await rep.get(`/rest/1/contacts/${solo.contact_user_id}`)).body.contacts.contacts[0]).toMatchObject({
      first_name: 'Solo',
      last_name: 'Kept',
    });
    const after = (await rep.get(`/rest/1/contacts/${jurgen.contact_user_id}`)).body.contacts.contacts[0];
    expect(after).toMatchObject({ first_name: 'Jurgen', last_name: 'Unal' });
    expect(after.primary_address.city ?? '').toBe('');
    expect(after.tags).toEqual([]);
    const left = await rep.get(`/rest/1/imports/${id}/not-restored`);
    expect(left.body.data).toEqual(
      expect.arrayContaining([
        { contact_id: Number(jurgen.contact_user_id), name: 'Jurgen Unal', field: 'last_name', reason: 'changed since to "Unal"' },
        {
          contact_id: Number(solo.contact_user_id),
          name: 'Solo Kept',
          field: 'contact',
          reason: 'The contact was edited since the import, so it was kept.',
        },
      ]),
    );
    expect(left.body.data).toHaveLength(2);
    expect((await rep.post(`/rest/1/imports/${id}/undo`)).status).toBe(409);
  });
});

async function contactTotal(caller = rep): Promise<number> {
  return (await caller.get('/rest/1/contacts?page_size=1')).body.contacts.total_results;
}

describe('saved mappings', () => {
  it('saves, lists and deletes a mapping keyed by header names, for its member only', async () => {
    const body = {
      name: 'Trade fair',
      mapping: {
        columns: [
          { header: 'E-mail', field: 'email' },
          { header: 'Mobile', field: 'phone', phone_type: 'mobile' },
        ],
        tags: ['Fair'],
      },
    };
    const saved = await rep.post('/rest/1/import-mappings', body);
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body.import_mapping).toMatchObject(body);
    expect((await rep.get('/rest/1/import-mappings')).body.data.map((m: { name: string }) => m.name)).toContain('Trade fair');
    expect((await outsider.get('/rest/1/import-mappings')).body.data).toEqual([]);
    expect((await outsider.delete(`/rest/1/import-mappings/${saved.body.import_mapping.id}`)).status).toBe(404);
    expect(
      (await rep.post('/rest/1/import-mappings', { name: '', mapping: { columns: [{ header: 'x', field: 'shoe_size' }] } })).status,
    ).toBe(400);
    expect((await rep.delete(`/rest/1/import-mappings/${saved.body.import_mapping.id}`)).status).toBe(204);
  });
});

describe('the job on several servers', () => {
  let stores: Store[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
  });

  let batch = 0;
  async function queuedImport(rows: number, prefix = `Batch${++batch}`): Promise<number> {
    const lines = ['Name,Email', ...Array.from({ length: rows }, (_, i) => `${prefix} Person${i},${prefix}.p${i}@example.com`)];
    const id = (await upload(rep, lines.join('\n'))).body.import.id as number;
    await write((tx) =>
      tx
        .updateTable('imports')
        .set({
          status: 'queued',
          mapping: JSON.stringify({
            columns: [
              { index: 0, field: 'full_name' },
              { index: 1, field: 'email' },
            ],
          }),
          duplicates: 'skip',
          dry_run: 0,
        })
        .where('id', '=', id)
        .execute(),
    );
    return id;
  }

  it('two stores claiming at once: one import is claimed once', async () => {
    await server.ctx.imports.stop();
    try {
      stores = [await openStore(server.ctx.config.databaseUrl), await openStore(server.ctx.config.databaseUrl)];
      const ids = [await queuedImport(3), await queuedImport(3)];
      const task = importTask(server.ctx.store, server.ctx.logger);
      const claimed = await Promise.all(
        stores.map(async (store, n) => {
          const got: number[] = [];
          for (let round = 0; round < 4; round++) {
            const at = nowMs();
            got.push(...(await store.write((tx) => task.claim(tx, `store-${n}`, at, at + 60_000, 1))).map((r) => r.id));
          }
          return got;
        }),
      );
      const flat = claimed.flat();
      expect(flat.length).toBe(new Set(flat).size);
      expect([...flat].sort()).toEqual([...ids].sort());
      // Leases lapse, so the loop below may take them.
      await write((tx) => tx.updateTable('imports').set({ lease_owner: null, lease_until_ms: null }).where('id', 'in', ids).execute());
    } finally {
      server.ctx.imports.start();
    }
  });

  it('resumes after a lost lease from the last chunk done, no row twice', async () => {
    await server.ctx.imports.stop();
    let id = 0;
    try {
      id = await queuedImport(5, 'Resumed');
      // A runner died after its chunk of the first 2 rows: their outcomes and the count recorded, its lease lapsed.
      await write((tx) =>
        tx
          .updateTable('import_rows')
          .set({ outcome: 'skipped', reason: 'done before the crash' })
          .where('import_id', '=', id)
          .where('row_no', '<=', 2)
          .execute(),
      );
      await write((tx) =>
        tx
          .updateTable('imports')
          .set({ status: 'running', rows_done: 2, skipped: 2, lease_owner: '1.dead', lease_until_ms: nowMs() - 1 })
          .where('id', '=', id)
          .execute(),
      );
    } finally {
      server.ctx.imports.start();
    }
    expect(await finished(rep, id)).toMatchObject({
      status: 'done',
      rows_done: 5,
      counts: { created: 3, skipped: 2, updated: 0, refused: 0 },
    });
    const rows = await db().selectFrom('import_rows').select(['row_no', 'outcome']).where('import_id', '=', id).orderBy('row_no').execute();
    expect(rows.map((r) => r.outcome)).toEqual(['skipped', 'skipped', 'created', 'created', 'created']);
    // Rows 1 and 2 were the dead runner's: not created again.
    expect((await rep.get('/rest/1/contacts?search=Resumed')).body.contacts.total_results).toBe(3);
    expect((await rep.get('/rest/1/contacts?search=resumed.p0@example.com')).body.contacts.total_results).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_IDS_LIMIT } from '../../contracts/bulk-jobs.js';
import type { Member } from '../../db/schema.js';
import { nowMs, resetClock, setClock } from '../../lib/clock.js';
import { now } from '../../lib/time.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { indexNewContact, insertContact, removeTagFromContacts } from '../contacts/contact-rows.repository.js';
import { claimJob } from './bulk-jobs.repository.js';
import { JOB_CHUNK, jobTask } from './job-runner.js';

/*
 * Bulk jobs through the real server, store and runner: each action over named contacts and over a filter, what the
 * job record says, and what every contact, list total, ETag, activity and audit record shows afterwards; who may do
 * what; every refused body; jobs of several chunks, one resumed after its runner died; and jobs whose tag, folder or
 * member went away while they waited. Jobs are waited for by polling their progress, never by sleeping.
 */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let vendor: Caller;
let manager: Caller;
let rep: Caller;
let teammate: Caller;
let outsider: Caller;
let elsewhere: Caller;
const folders: Record<string, number> = {};

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  [vendor, manager, rep, teammate, outsider, elsewhere] = [
    api(team.vendor),
    api(team.manager),
    api(team.rep),
    api(team.teammate),
    api(team.outsider),
    api(team.otherVendor),
  ];
  for (const name of ['Alpha', 'Beta', 'Gamma']) folders[name] = await newFolder(name);
});
afterAll(() => server?.close());

const db = () => server.ctx.store.db;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
let serial = 0;

async function newFolder(name: string, caller: Caller = vendor): Promise<number> {
  const reply = await caller.post('/rest/1/folders', { name: `${name} ${++serial}` });
  expect(reply.status, reply.text).toBe(200);
  return Number(reply.body.folders['0'].folder_id);
}

async function newTag(title: string, caller: Caller = vendor): Promise<{ id: number; title: string }> {
  const unique = `${title} ${++serial}`;
  const reply = await caller.post('/rest/1/tags', { title: unique });
  expect(reply.status, reply.text).toBe(202);
  return { id: reply.body.tag.id, title: unique };
}

async function newContact(caller: Caller, body: object = {}): Promise<number> {
  const reply = await caller.post('/rest/1/contacts', { first_name: `Bulk ${++serial}`, allow_duplicates: 1, ...body });
  expect(reply.status, reply.text).toBe(201);
  return Number(reply.body.contacts.contacts.contact_user_id);
}

/** A member created through the API (a vendor's), for tests that move or delete members. */
async function newMember(first: string, role: 'manager' | 'member', managerId?: number): Promise<Member> {
  const reply = await vendor.post('/rest/1/members', {
    username: `${first.toLowerCase()}${++serial}x${process.pid}`,
    password: 'correct horse battery',
    first_name: first,
    last_name: 'Bulk',
    email: `${first.toLowerCase()}@example.com`,
    billing_item_id: 1,
    billing_group_id: 'g',
    subgroup_id: 's',
    role,
    manager_id: managerId,
  });
  expect(reply.status, reply.text).toBe(201);
  return db().selectFrom('members').selectAll().where('id', '=', Number(reply.body.members.members.user_id)).executeTakeFirstOrThrow();
}

/** Many contacts at once, straight into the store through the one writer of contact rows (counts and search terms kept). */
async function seedMany(owner: Member, n: number, folderId: number | null, firstName: string): Promise<number[]> {
  return server.ctx.store.write(async (tx) => {
    const ids: number[] = [];
    const at = now();
    for (let i = 0; i < n; i++) {
      const contact = await insertContact(tx, {
        org_id: owner.org_id,
        owner_id: owner.id,
        folder_id: folderId,
        first_name: firstName,
        last_name: `N${i}`,
        created_at: at,
        updated_at: at,
      });
      await indexNewContact(tx, contact);
      ids.push(contact.id);
    }
    return ids;
  });
}

const recordOf = async (caller: Caller, id: number) => {
  const reply = await caller.get(`/rest/1/contacts/${id}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.contacts.contacts[0];
};
const tagTitles = async (id: number) => (await recordOf(vendor, id)).tags.map((t: { title: string }) => t.title).sort();
const total = async (caller: Caller, query: string) => {
  const reply = await caller.get(`/rest/1/contacts?page_size=1&${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.contacts.total_results as number;
};

type BulkJob = {
  bulk_job_id: string;
  action: string;
  status: string;
  total: number;
  processed: number;
  changed: number;
  error: string | null;
  created_at: string;
  finished_at: string | null;
};

const jobRows = async () =>
  Number(
    (
      await db()
        .selectFrom('bulk_jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function submit(caller: Caller, body: object): Promise<BulkJob> {
  const reply = await caller.post('/rest/1/bulkjobs', body);
  expect(reply.status, reply.text).toBe(202);
  return reply.body.job;
}

/** Polls the job's progress until it has finished (done or failed). */
async function finished(caller: Caller, id: string): Promise<BulkJob> {
  let job: BulkJob | undefined;
  await expect
    .poll(
      async () => {
        const reply = await caller.get(`/rest/1/bulkjobs/${id}`);
        expect(reply.status, reply.text).toBe(200);
        job = reply.body.job;
        return job!.status;
      },
      { timeout: 10_000, interval: 20 },
    )
    .toMatch(/^(done|failed)$/);
  return job!;
}

const run = async (caller: Caller, body: object) => finished(caller, (await submit(caller, body)).bulk_job_id);

const done = (fields: Partial<BulkJob>) =>
  expect.objectContaining({ status: 'done', error: null, finished_at: expect.stringMatching(TIMESTAMP), ...fields });

/** What the API shows of a contact's history and version: its ETag, activities and audit records (read as the vendor). */
async function historyOf(id: number) {
  const [one, activities, audit] = await Promise.all([
    vendor.get(`/rest/1/contacts/${id}`),
    vendor.get(`/rest/1/contacts/${id}/activities?days=1&page_size=100`),
    vendor.get(`/rest/1/contacts/${id}/auditlog?page_size=100`),
  ]);
  expect([one.status, activities.status, audit.status]).toEqual([200, 200, 200]);
  return {
    etag: one.headers.get('etag'),
    activities: activities.body.contact_activities.contact_activities as any[],
    audit: audit.body.contact_activities.contact_activities as any[],
  };
}
type History = Awaited<ReturnType<typeof historyOf>>;
const histories = async (ids: number[]) => new Map(await Promise.all(ids.map(async (id) => [id, await historyOf(id)] as const)));

/**
 * Exactly the contacts `changed` have a new ETag, one new activity of `activity` and one new audit record of
 * `dataType` (whose values `audit` checks); the others show no change at all.
 */
type ActivityShown = { id: number; text: string | RegExp };
async function expectChangedOnly(
  before: Map<number, History>,
  changed: number[],
  activityOf: ActivityShown | ((id: number) => ActivityShown),
  dataType: string,
  audit?: (id: number) => object,
) {
  for (const [id, was] of before) {
    const is = await historyOf(id);
    if (changed.includes(id)) {
      const activity = typeof activityOf === 'function' ? activityOf(id) : activityOf;
      expect(is.etag, `ETag of ${id}`).not.toBe(was.etag);
      expect(is.activities.length, `activities of ${id}`).toBe(was.activities.length + 1);
      expect(is.activities[0]).toMatchObject({
        activity_id: String(activity.id),
        activity: activity.text instanceof RegExp ? expect.stringMatching(activity.text) : activity.text,
      });
      expect(is.audit.length, `audit of ${id}`).toBe(was.audit.length + 1);
      expect(is.audit[0]).toMatchObject({ contact_id: String(id), data_type: dataType, ...audit?.(id) });
    } else {
      expect(is, `contact ${id} was not changed`).toEqual(was);
    }
  }
}

/** Every list total the app takes from kept counts equals a real count (the same list with created_to, which counts rows). */
async function expectKeptCounts(extraFolders: number[] = []) {
  const owners = [team.manager, team.rep, team.teammate];
  for (const member of [team.vendor, team.manager, team.rep, team.teammate, team.outsider]) {
    const caller = api(member);
    for (const folder of [0, ...Object.values(folders), ...extraFolders]) {
      for (const flags of ['', '&include_trashed=1', '&only_trashed=1']) {
        const query = `${folder ? `folder_id=${folder}` : ''}${flags}`;
        expect(await total(caller, query), `${member.username} ${query}`).toBe(await total(caller, `${query}&created_to=2999-12-31`));
      }
    }
    if (member.role === 'manager') {
      for (const owner of owners) {
        const query = `owner_id=${owner.id}`;
        expect(await total(caller, query), `${member.username} ${query}`).toBe(await total(caller, `${query}&created_to=2999-12-31`));
      }
    }
  }
}

/** Runs `work` with the runner stopped, so jobs wait as queued; starts it again afterwards. Only call it with no job running. */
async function withRunnerStopped(work: () => Promise<void>) {
  await server.ctx.jobs.stop();
  try {
    await work();
  } finally {
    server.ctx.jobs.start();
  }
}

describe('POST /rest/1/bulkjobs', () => {
  it('answers 202 with the job queued, and its progress by id until done', async () => {
    const id = await newContact(rep);
    const reply = await rep.post('/rest/1/bulkjobs', { action: 'trash', contact_user_ids: [id] });
    expect(reply.status).toBe(202);
    expect(reply.body).toEqual({
      http_status: 202,
      status: 'success',
      job: {
        bulk_job_id: expect.stringMatching(/^\d+$/),
        action: 'trash',
        status: 'queued',
        total: 1,
        processed: 0,
        changed: 0,
        error: null,
        created_at: expect.stringMatching(TIMESTAMP),
        finished_at: null,
      },
    });
    const job = await finished(rep, reply.body.job.bulk_job_id);
    expect(job).toEqual({ ...reply.body.job, status: 'done', processed: 1, changed: 1, finished_at: expect.stringMatching(TIMESTAMP) });
    expect(job.finished_at! >= job.created_at).toBe(true);
    expect((await recordOf(rep, id)).trashed).toBe('1');
  });

  it('takes a form body with PHP-style lists and a filter object', async () => {
    const folder = await newFolder('Form');
    const [a, b] = [await newContact(rep, { category_id: folder }), await newContact(rep, { category_id: folder })];
    const tag = await newTag('Form');
    const byIds = await rep.form(
      'POST',
      '/rest/1/bulkjobs',
      `action=add_tag&tag_id=${tag.id}&contact_user_ids[0]=${a}&contact_user_ids[1]=${b}`,
    );
    expect(byIds.status, byIds.text).toBe(202);
    expect(await finished(rep, byIds.body.job.bulk_job_id)).toEqual(done({ total: 2, processed: 2, changed: 2 }));
    const byFilter = await rep.form('POST', '/rest/1/bulkjobs', `action=remove_tag&tag_id=${tag.id}&filter[folder_id]=${folder}`);
    expect(byFilter.status, byFilter.text).toBe(202);
    expect(await finished(rep, byFilter.body.job.bulk_job_id)).toEqual(done({ total: 2, processed: 2, changed: 2 }));
    expect(await tagTitles(a)).toEqual([]);
  });
});

describe('actions over named contacts', () => {
  it('add_tag by tag_id tags those lacking it; one holding it already is processed, not changed', async () => {
    const tag = await newTag('Hot');
    const [a, b, c] = [await newContact(rep), await newContact(rep, { tags: [tag.title] }), await newContact(rep)];
    const before = await histories([a, b, c]);
    const job = await run(rep, { action: 'add_tag', tag_id: tag.id, contact_user_ids: [a, b, c, a] });
    expect(job).toEqual(done({ action: 'add_tag', total: 3, processed: 3, changed: 2 }));
    for (const id of [a, b, c]) expect(await tagTitles(id)).toEqual([tag.title]);
    await expectChangedOnly(before, [a, c], { id: 10, text: `Tag "${tag.title}" added` }, 'tag_added', () => ({
      old: '',
      new: tag.title,
      member_id: String(team.rep.id),
    }));
    expect(await total(rep, `tag_id=${tag.id}`)).toBe(3);
  });

  it('add_tag by title adds the title to the catalogue once, and reuses a tag of that title in any case', async () => {
    const title = `Brand new ${++serial}`;
    const [a, b] = [await newContact(rep), await newContact(teammate)];
    expect(await run(rep, { action: 'add_tag', tag: title, contact_user_ids: [a] })).toEqual(done({ total: 1, processed: 1, changed: 1 }));
    const catalogue = (await vendor.get('/rest/1/tags?page_size=100')).body.tags.tags.filter(
      (t: { title: string }) => t.title.toLowerCase() === title.toLowerCase(),
    );
    expect(catalogue).toEqual([{ id: expect.any(Number), title }]);
    expect(await run(teammate, { action: 'add_tag', tag: title.toUpperCase(), contact_user_ids: [b] })).toEqual(
      done({ total: 1, processed: 1, changed: 1 }),
    );
    expect(
      (await vendor.get('/rest/1/tags?page_size=100')).body.tags.tags.filter(
        (t: { title: string }) => t.title.toLowerCase() === title.toLowerCase(),
      ),
    ).toEqual(catalogue);
    expect(await tagTitles(a)).toEqual([title]);
    expect(await tagTitles(b)).toEqual([title]);
  });

  it('remove_tag takes the tag from those holding it and leaves their other tags', async () => {
    const [tag, other] = [await newTag('Cold'), await newTag('Keep')];
    const [a, b, c] = [
      await newContact(rep, { tags: [tag.title, other.title] }),
      await newContact(rep, { tags: [other.title] }),
      await newContact(rep, { tags: [tag.title] }),
    ];
    const before = await histories([a, b, c]);
    expect(await run(rep, { action: 'remove_tag', tag_id: tag.id, contact_user_ids: [a, b, c] })).toEqual(
      done({ total: 3, processed: 3, changed: 2 }),
    );
    expect(await tagTitles(a)).toEqual([other.title]);
    expect(await tagTitles(b)).toEqual([other.title]);
    expect(await tagTitles(c)).toEqual([]);
    await expectChangedOnly(before, [a, c], { id: 10, text: `Tag "${tag.title}" removed` }, 'tag_removed', () => ({ old: tag.title }));
    expect(await total(rep, `tag_id=${tag.id}`)).toBe(0);
  });

  it('move puts the contacts in a folder, and folder_id 0 takes them out of any folder', async () => {
    const [a, b, c] = [
      await newContact(rep, { category_id: folders.Alpha }),
      await newContact(rep, { category_id: folders.Beta }),
      await newContact(rep),
    ];
    let before = await histories([a, b, c]);
    expect(await run(rep, { action: 'move', folder_id: folders.Beta, contact_user_ids: [a, b, c] })).toEqual(
      done({ total: 3, processed: 3, changed: 2 }),
    );
    for (const id of [a, b, c]) expect((await recordOf(rep, id)).category_id).toBe(String(folders.Beta));
    await expectChangedOnly(
      before,
      [a, c],
      (id) => ({ id: 3, text: `Contact moved from folder ${id === a ? folders.Alpha : 0} to folder ${folders.Beta}` }),
      'moved',
      (id) => ({ old: id === a ? String(folders.Alpha) : '0', new: String(folders.Beta) }),
    );

    before = await histories([a, b, c]);
    const out = await run(rep, { action: 'move', folder_id: 0, contact_user_ids: [a, b] });
    expect(out).toEqual(done({ total: 2, processed: 2, changed: 2 }));
    for (const id of [a, b, c]) expect((await recordOf(rep, id)).category_id).toBe(id === c ? String(folders.Beta) : '0');
    await expectChangedOnly(before, [a, b], { id: 3, text: `Contact moved from folder ${folders.Beta} to folder 0` }, 'moved', () => ({
      old: String(folders.Beta),
      new: '0',
    }));
    await expectKeptCounts();
  });

  it('transfer gives the contacts to a member of the team: the old owner no longer sees them', async () => {
    const [a, b] = [await newContact(rep), await newContact(teammate)];
    const before = await histories([a, b]);
    expect(await run(manager, { action: 'transfer', member_id: team.teammate.id, contact_user_ids: [a, b] })).toEqual(
      done({ total: 2, processed: 2, changed: 1 }),
    );
    expect((await recordOf(teammate, a)).owner_id).toBe(String(team.teammate.id));
    expect((await rep.get(`/rest/1/contacts/${a}`)).status).toBe(404);
    await expectChangedOnly(
      before,
      [a],
      { id: 4, text: `Contact transferred from member ${team.rep.id} to member ${team.teammate.id}` },
      'transferred',
      () => ({ old: String(team.rep.id), new: String(team.teammate.id), member_id: String(team.manager.id) }),
    );
    await expectKeptCounts();
  });

  it('trash moves the contacts to the trash; one there already is processed, not changed', async () => {
    const [a, b] = [await newContact(rep), await newContact(rep)];
    expect((await rep.delete(`/rest/1/contacts/${b}`)).status).toBe(204);
    const before = await histories([a, b]);
    expect(await run(rep, { action: 'trash', contact_user_ids: [a, b] })).toEqual(done({ total: 2, processed: 2, changed: 1 }));
    expect((await recordOf(rep, a)).trashed).toBe('1');
    const trash = (await rep.get('/rest/1/contacts?only_trashed=1&page_size=100')).body.contacts.contacts.map(
      (r: { contact_user_id: string }) => Number(r.contact_user_id),
    );
    expect(trash).toEqual(expect.arrayContaining([a, b]));
    await expectChangedOnly(before, [a], { id: 5, text: 'Contact moved to the trash' }, 'trashed', () => ({
      action: 'trash',
      old: '0',
      new: '1',
    }));
    await expectKeptCounts();
  });
});

describe('actions over a filter', () => {
  it("add_tag over a folder reaches exactly the folder's contacts the caller may see", async () => {
    const folder = await newFolder('Filter');
    const mine = [await newContact(rep, { category_id: folder }), await newContact(rep, { category_id: folder })];
    const others = [await newContact(rep), await newContact(teammate, { category_id: folder })];
    const tag = await newTag('Filtered');
    const before = await histories([...mine, ...others]);
    expect(await run(rep, { action: 'add_tag', tag_id: tag.id, filter: { folder_id: folder } })).toEqual(
      done({ total: 2, processed: 2, changed: 2 }),
    );
    await expectChangedOnly(before, mine, { id: 10, text: `Tag "${tag.title}" added` }, 'tag_added');
    expect(await total(vendor, `tag_id=${tag.id}`)).toBe(2);
    // The same over the manager's view reaches the teammate's contact too; the rep's already have the tag.
    expect(await run(manager, { action: 'add_tag', tag_id: tag.id, filter: { category_id: folder } })).toEqual(
      done({ total: 3, processed: 3, changed: 1 }),
    );
    expect(await tagTitles(others[1]!)).toEqual([tag.title]);
    expect(await tagTitles(others[0]!)).toEqual([]);
  });

  it('remove_tag over the contacts holding that tag', async () => {
    const tag = await newTag('Drop');
    const [a, b, c] = [
      await newContact(rep, { tags: [tag.title] }),
      await newContact(teammate, { tags: [tag.title] }),
      await newContact(rep),
    ];
    const before = await histories([a, b, c]);
    expect(await run(manager, { action: 'remove_tag', tag_id: tag.id, filter: { tag_id: tag.id } })).toEqual(
      done({ total: 2, processed: 2, changed: 2 }),
    );
    await expectChangedOnly(before, [a, b], { id: 10, text: `Tag "${tag.title}" removed` }, 'tag_removed');
    expect(await total(manager, `tag_id=${tag.id}`)).toBe(0);
  });

  it('move over a search, into a folder and back out', async () => {
    const word = `Zebulon${++serial}`;
    const found = [
      await newContact(rep, { first_name: word }),
      await newContact(rep, { last_name: word.toLowerCase(), first_name: 'Ann' }),
    ];
    const missed = [await newContact(rep, { first_name: 'Nobody' }), await newContact(teammate, { first_name: word })];
    const folder = await newFolder('Searched');
    const before = await histories([...found, ...missed]);
    expect(await run(rep, { action: 'move', folder_id: folder, filter: { search: word } })).toEqual(
      done({ total: 2, processed: 2, changed: 2 }),
    );
    await expectChangedOnly(before, found, { id: 3, text: `Contact moved from folder 0 to folder ${folder}` }, 'moved');
    expect(await total(rep, `folder_id=${folder}`)).toBe(2);
    expect(await run(rep, { action: 'move', folder_id: '0', filter: { search: word, folder_id: folder } })).toEqual(
      done({ total: 2, processed: 2, changed: 2 }),
    );
    expect(await total(rep, `folder_id=${folder}`)).toBe(0);
    await expectKeptCounts([folder]);
  });

  it("transfer over owner_id moves one member's contacts to another", async () => {
    const folder = await newFolder('Owned');
    const theirs = [await newContact(teammate, { category_id: folder }), await newContact(teammate, { category_id: folder })];
    const rest = [await newContact(rep, { category_id: folder }), await newContact(manager, { category_id: folder })];
    const before = await histories([...theirs, ...rest]);
    const job = await run(manager, {
      action: 'transfer',
      member_id: team.manager.id,
      filter: { owner_id: team.teammate.id, folder_id: folder },
    });
    expect(job).toEqual(done({ total: 2, processed: 2, changed: 2 }));
    await expectChangedOnly(
      before,
      theirs,
      { id: 4, text: `Contact transferred from member ${team.teammate.id} to member ${team.manager.id}` },
      'transferred',
      () => ({ old: String(team.teammate.id) }),
    );
    expect(await total(manager, `owner_id=${team.teammate.id}&folder_id=${folder}`)).toBe(0);
    expect(await total(manager, `owner_id=${team.manager.id}&folder_id=${folder}`)).toBe(3);
    await expectKeptCounts([folder]);
  });

  it('trash over a folder, then only_trashed reaches the trash alone (and trashing it again changes nothing)', async () => {
    const folder = await newFolder('Bin');
    const ids = [await newContact(rep, { category_id: folder }), await newContact(rep, { category_id: folder })];
    const kept = await newContact(rep);
    expect(await run(rep, { action: 'trash', filter: { folder_id: folder } })).toEqual(done({ total: 2, processed: 2, changed: 2 }));
    expect(await total(rep, `folder_id=${folder}`)).toBe(0);
    expect(await total(rep, `folder_id=${folder}&only_trashed=1`)).toBe(2);
    const tag = await newTag('Binned');
    expect(await run(rep, { action: 'add_tag', tag_id: tag.id, filter: { folder_id: folder, only_trashed: 1 } })).toEqual(
      done({ total: 2, processed: 2, changed: 2 }),
    );
    for (const id of ids) expect(await tagTitles(id)).toEqual([tag.title]);
    const before = await histories([...ids, kept]);
    expect(await run(rep, { action: 'trash', filter: { folder_id: folder, only_trashed: true } })).toEqual(
      done({ total: 2, processed: 2, changed: 0 }),
    );
    await expectChangedOnly(before, [], { id: 5, text: '' }, 'trashed');
    await expectKeptCounts([folder]);
  });

  it('a filter that matches nothing is done at once with nothing changed', async () => {
    expect(await run(rep, { action: 'trash', filter: { search: `nothing-matches-${++serial}` } })).toEqual(
      done({ total: 0, processed: 0, changed: 0 }),
    );
  });
});

describe('scope', () => {
  it("a rep's job leaves out the contacts it cannot see: the total counts its own only", async () => {
    const tag = await newTag('Mine');
    const own = [await newContact(rep), await newContact(rep)];
    const foreign = [await newContact(teammate), await newContact(outsider), await newContact(manager), await newContact(elsewhere)];
    const before = await histories(foreign.slice(0, 3));
    const job = await run(rep, { action: 'add_tag', tag_id: tag.id, contact_user_ids: [...own, ...foreign, 987654321] });
    expect(job).toEqual(done({ total: 2, processed: 2, changed: 2 }));
    for (const id of own) expect(await tagTitles(id)).toEqual([tag.title]);
    await expectChangedOnly(before, [], { id: 10, text: '' }, 'tag_added');
    expect((await recordOf(elsewhere, foreign[3]!)).tags).toEqual([]);
    for (const action of [
      { action: 'trash' },
      { action: 'transfer', member_id: team.rep.id },
      { action: 'move', folder_id: folders.Gamma },
    ]) {
      expect(await run(rep, { ...action, contact_user_ids: foreign })).toEqual(done({ total: 0, processed: 0, changed: 0 }));
    }
    expect(await histories(foreign.slice(0, 3))).toEqual(before);
  });

  it("a rep's filter reaches its own contacts only; a manager's its team's, not an outsider's", async () => {
    const word = `Quillon${++serial}`;
    const [r, t, m, o] = [
      await newContact(rep, { first_name: word }),
      await newContact(teammate, { first_name: word }),
      await newContact(manager, { first_name: word }),
      await newContact(outsider, { first_name: word }),
    ];
    const tag = await newTag('Scoped');
    expect(await run(rep, { action: 'add_tag', tag_id: tag.id, filter: { search: word } })).toEqual(
      done({ total: 1, processed: 1, changed: 1 }),
    );
    expect(await run(manager, { action: 'add_tag', tag_id: tag.id, filter: { search: word } })).toEqual(
      done({ total: 3, processed: 3, changed: 2 }),
    );
    for (const id of [r, t, m]) expect(await tagTitles(id)).toEqual([tag.title]);
    expect(await tagTitles(o)).toEqual([]);
    expect(await run(vendor, { action: 'add_tag', tag_id: tag.id, filter: { search: word } })).toEqual(
      done({ total: 4, processed: 4, changed: 1 }),
    );
  });

  it("refuses a filter.owner_id outside the caller's team with 400 (40004) and writes no job", async () => {
    const rows = await jobRows();
    for (const [caller, owner] of [
      [rep, team.teammate],
      [manager, team.outsider],
      [manager, team.otherVendor],
      [elsewhere, team.rep],
      [rep, { id: 987654 }],
    ] as const) {
      const reply = await caller.post('/rest/1/bulkjobs', { action: 'trash', filter: { owner_id: owner.id } });
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body).toEqual({
        http_status: 400,
        status: 'error',
        debug_codes: [{ code: 40004, field: 'filter.owner_id', reason: expect.stringContaining(String(owner.id)) }],
      });
    }
    expect(await jobRows()).toBe(rows);
  });

  it("refuses a transfer to a member outside the caller's team with 400 (40004) naming member_id", async () => {
    const id = await newContact(rep);
    const rows = await jobRows();
    for (const [caller, to] of [
      [rep, team.teammate],
      [manager, team.outsider],
      [manager, team.vendor],
      [vendor, team.otherVendor],
      [vendor, { id: 987654 }],
    ] as const) {
      const reply = await caller.post('/rest/1/bulkjobs', { action: 'transfer', member_id: to.id, contact_user_ids: [id] });
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body.debug_codes).toEqual([{ code: 40004, field: 'member_id', reason: expect.stringContaining(String(to.id)) }]);
    }
    expect(await jobRows()).toBe(rows);
    expect((await recordOf(rep, id)).owner_id).toBe(String(team.rep.id));
  });

  it("refuses a tag or folder that is not the organisation's with 400 (40004) naming it", async () => {
    const id = await newContact(rep);
    const [theirTag, theirFolder] = [await newTag('Theirs', elsewhere), await newFolder('Theirs', elsewhere)];
    const rows = await jobRows();
    for (const [body, field] of [
      [{ action: 'add_tag', tag_id: 987654 }, 'tag_id'],
      [{ action: 'add_tag', tag_id: theirTag.id }, 'tag_id'],
      [{ action: 'remove_tag', tag_id: 987654 }, 'tag_id'],
      [{ action: 'remove_tag', tag_id: theirTag.id }, 'tag_id'],
      [{ action: 'move', folder_id: 987654 }, 'folder_id'],
      [{ action: 'move', folder_id: theirFolder }, 'folder_id'],
    ] as const) {
      const reply = await rep.post('/rest/1/bulkjobs', { ...body, contact_user_ids: [id] });
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body).toEqual({
        http_status: 400,
        status: 'error',
        debug_codes: [{ code: 40004, field, reason: expect.stringContaining(field) }],
      });
    }
    expect(await jobRows()).toBe(rows);
  });

  it('answers a job to its creator only: 404 to anyone else, 400 for an id that is not one', async () => {
    const job = await run(rep, { action: 'trash', contact_user_ids: [await newContact(rep)] });
    for (const caller of [teammate, manager, vendor, elsewhere]) {
      const reply = await caller.get(`/rest/1/bulkjobs/${job.bulk_job_id}`);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({
        http_status: 404,
        status: 'error',
        debug_codes: [{ code: 40401, reason: `There is no bulk job ${job.bulk_job_id}.` }],
      });
    }
    expect((await rep.get('/rest/1/bulkjobs/987654321')).status).toBe(404);
    const bad = await rep.get('/rest/1/bulkjobs/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.debug_codes[0]).toMatchObject({ field: 'bulk_job_id' });
    expect((await server.as().get(`/rest/1/bulkjobs/${job.bulk_job_id}`)).status).toBe(401);
    expect((await server.as().post('/rest/1/bulkjobs', { action: 'trash', filter: {} })).status).toBe(401);
  });
});

describe('refused bodies', () => {
  let id: number;
  beforeAll(async () => {
    id = await newContact(rep);
  });

  const cases: [string, () => object, { code: number; field: string }[]][] = [
    ['no action', () => ({ contact_user_ids: [id] }), [{ code: 40002, field: 'action' }]],
    ['an unknown action', () => ({ action: 'paint', contact_user_ids: [id] }), [{ code: 40003, field: 'action' }]],
    ['neither ids nor a filter', () => ({ action: 'trash' }), [{ code: 40002, field: 'contact_user_ids' }]],
    ['an empty list of ids and no filter', () => ({ action: 'trash', contact_user_ids: [] }), [{ code: 40002, field: 'contact_user_ids' }]],
    [
      'both ids and a filter',
      () => ({ action: 'trash', contact_user_ids: [id], filter: { folder_id: folders.Alpha } }),
      [{ code: 40003, field: 'contact_user_ids' }],
    ],
    ['add_tag without tag_id or tag', () => ({ action: 'add_tag', contact_user_ids: [id] }), [{ code: 40002, field: 'tag_id' }]],
    ['add_tag with an empty title', () => ({ action: 'add_tag', tag: '', contact_user_ids: [id] }), [{ code: 40003, field: 'tag' }]],
    ['remove_tag without tag_id', () => ({ action: 'remove_tag', contact_user_ids: [id] }), [{ code: 40002, field: 'tag_id' }]],
    [
      'remove_tag with a title only',
      () => ({ action: 'remove_tag', tag: 'Hot', contact_user_ids: [id] }),
      [{ code: 40002, field: 'tag_id' }],
    ],
    ['move without folder_id', () => ({ action: 'move', contact_user_ids: [id] }), [{ code: 40002, field: 'folder_id' }]],
    ['transfer without member_id', () => ({ action: 'transfer', contact_user_ids: [id] }), [{ code: 40002, field: 'member_id' }]],
    [
      `more than ${BULK_IDS_LIMIT} ids`,
      () => ({ action: 'trash', contact_user_ids: Array.from({ length: BULK_IDS_LIMIT + 1 }, (_, i) => i + 1) }),
      [{ code: 40003, field: 'contact_user_ids' }],
    ],
    [
      'an id that is not a number',
      () => ({ action: 'trash', contact_user_ids: [id, 'abc'] }),
      [{ code: 40003, field: 'contact_user_ids.1' }],
    ],
    ['an id that is not positive', () => ({ action: 'trash', contact_user_ids: [-4] }), [{ code: 40003, field: 'contact_user_ids.0' }]],
    ['a filter that is not an object', () => ({ action: 'trash', filter: 'all' }), [{ code: 40003, field: 'filter' }]],
    ['a filter with a bad owner_id', () => ({ action: 'trash', filter: { owner_id: 'me' } }), [{ code: 40003, field: 'filter.owner_id' }]],
    [
      'a tag_id that is not a number',
      () => ({ action: 'remove_tag', tag_id: 'x', contact_user_ids: [id] }),
      [{ code: 40003, field: 'tag_id' }],
    ],
  ];

  it.each(cases)('refuses %s with 400 naming the field, and writes no job', async (_, body, codes) => {
    const rows = await jobRows();
    const reply = await rep.post('/rest/1/bulkjobs', body());
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body).toEqual({
      http_status: 400,
      status: 'error',
      debug_codes: codes.map((c) => ({ ...c, reason: expect.stringMatching(new RegExp(`^${c.field.replace('.', '\\.')} `)) })),
    });
    expect(await jobRows()).toBe(rows);
  });

  it('accepts exactly BULK_IDS_LIMIT ids, counting only those the caller may see', async () => {
    const ids = [id, ...Array.from({ length: BULK_IDS_LIMIT - 1 }, (_, i) => 900_000_000 + i)];
    expect(await run(rep, { action: 'move', folder_id: 0, contact_user_ids: ids })).toEqual(done({ total: 1, processed: 1, changed: 0 }));
  });
});

describe('more than one chunk', () => {
  const N = 2 * JOB_CHUNK + 101;
  let bulky: Member;
  let many: number[];
  let source: number;
  let target: number;

  beforeAll(async () => {
    bulky = await newMember('Bulky', 'member', team.manager.id);
    [source, target] = [await newFolder('Many'), await newFolder('Moved')];
    many = await seedMany(bulky, N, source, 'Manifold');
  });

  /** How many activities and audit records of a type each contact has (the API shows these one contact at a time). */
  async function historyCounts(activity: number, dataType: string) {
    const activities = await db()
      .selectFrom('contact_activities')
      .select((eb) => ['contact_id', eb.fn.countAll<number>().as('n')])
      .where('contact_id', 'in', many)
      .where('activity_type', '=', activity)
      .groupBy('contact_id')
      .execute();
    const audit = await db()
      .selectFrom('contact_audit')
      .select((eb) => ['contact_id', eb.fn.countAll<number>().as('n')])
      .where('contact_id', 'in', many)
      .where('data_type', '=', dataType)
      .groupBy('contact_id')
      .execute();
    return {
      activities: new Map(activities.map((r) => [r.contact_id, Number(r.n)])),
      audit: new Map(audit.map((r) => [r.contact_id, Number(r.n)])),
    };
  }
  const versions = async () =>
    new Map((await db().selectFrom('contacts').select(['id', 'version']).where('id', 'in', many).execute()).map((r) => [r.id, r.version]));

  it(`works a filter over ${N} contacts to the end: each contact once, history once each`, async () => {
    const tag = await newTag('Many');
    const before = await versions();
    const job = await run(manager, { action: 'add_tag', tag_id: tag.id, filter: { folder_id: source } });
    expect(job).toEqual(done({ total: N, processed: N, changed: N }));
    expect(await total(manager, `tag_id=${tag.id}`)).toBe(N);
    expect(await total(api(bulky), `tag_id=${tag.id}&folder_id=${source}`)).toBe(N);
    const after = await versions();
    expect(many.filter((id) => after.get(id) === before.get(id))).toEqual([]);
    const counts = await historyCounts(10, 'tag_added');
    expect(many.filter((id) => counts.activities.get(id) !== 1 || counts.audit.get(id) !== 1)).toEqual([]);
    // Again: every contact processed, none changed, nothing recorded.
    expect(await run(manager, { action: 'add_tag', tag_id: tag.id, filter: { tag_id: tag.id } })).toEqual(
      done({ total: N, processed: N, changed: 0 }),
    );
    expect(await versions()).toEqual(after);
    expect(await historyCounts(10, 'tag_added')).toEqual(counts);
  });

  it('reaches every contact once when the job moves them out of the filter as it goes', async () => {
    const job = await run(manager, { action: 'move', folder_id: target, filter: { folder_id: source, owner_id: bulky.id } });
    expect(job).toEqual(done({ total: N, processed: N, changed: N }));
    expect(await total(manager, `folder_id=${source}`)).toBe(0);
    expect(await total(manager, `folder_id=${target}`)).toBe(N);
    const counts = await historyCounts(3, 'moved');
    expect(many.filter((id) => counts.activities.get(id) !== 1 || counts.audit.get(id) !== 1)).toEqual([]);
    await expectKeptCounts([source, target]);
  });

  it('trashes a whole view and works the trash alone over only_trashed', async () => {
    expect(await run(manager, { action: 'trash', filter: { owner_id: bulky.id } })).toEqual(done({ total: N, processed: N, changed: N }));
    expect(await total(manager, `owner_id=${bulky.id}`)).toBe(0);
    expect(await total(manager, `owner_id=${bulky.id}&only_trashed=1`)).toBe(N);
    const tag = await newTag('Trashed many');
    expect(await run(manager, { action: 'add_tag', tag_id: tag.id, filter: { owner_id: bulky.id, only_trashed: 1 } })).toEqual(
      done({ total: N, processed: N, changed: N }),
    );
    expect(await run(manager, { action: 'trash', filter: { only_trashed: 1, folder_id: target } })).toEqual(
      done({ total: N, processed: N, changed: 0 }),
    );
    await expectKeptCounts([source, target]);
  });

  it('resumes a job whose runner died from its last chunk, without working that chunk again', async () => {
    const tag = await newTag('Resumed');
    const view = { owner_id: bulky.id, only_trashed: 1 };
    expect(await run(manager, { action: 'add_tag', tag_id: tag.id, filter: view })).toEqual(done({ total: N, processed: N, changed: N }));
    const newest = [...many].sort((a, b) => b - a).slice(0, JOB_CHUNK);
    let jobId = '';
    await withRunnerStopped(async () => {
      const queued = await submit(manager, { action: 'remove_tag', tag_id: tag.id, filter: view });
      expect(queued).toMatchObject({ status: 'queued', total: N, processed: 0 });
      jobId = queued.bulk_job_id;
      // What a runner that died after its first chunk leaves: that chunk written, its progress beside it, a lapsed lease.
      await server.ctx.store.write(async (tx) => {
        const changed = await removeTagFromContacts(tx, {
          orgId: team.vendor.org_id,
          contactIds: newest,
          actorId: team.manager.id,
          at: now(),
          tag,
        });
        expect(changed).toBe(JOB_CHUNK);
        await tx
          .updateTable('bulk_jobs')
          .set({
            status: 'running',
            processed: JOB_CHUNK,
            changed: JOB_CHUNK,
            cursor: Math.min(...newest),
            lease_owner: '1.deadbeef',
            lease_until_ms: nowMs() - 1,
          })
          .where('id', '=', Number(jobId))
          .execute();
      });
      expect((await manager.get(`/rest/1/bulkjobs/${jobId}`)).body.job).toMatchObject({ status: 'running', processed: JOB_CHUNK });
    });
    expect(await finished(manager, jobId)).toEqual(done({ total: N, processed: N, changed: N }));
    expect(await total(manager, `tag_id=${tag.id}&include_trashed=1`)).toBe(0);
    const removed = await db()
      .selectFrom('contact_audit')
      .select((eb) => ['contact_id', eb.fn.countAll<number>().as('n')])
      .where('contact_id', 'in', many)
      .where('data_type', '=', 'tag_removed')
      .where('old_value', '=', tag.title)
      .groupBy('contact_id')
      .execute();
    expect(removed.length).toBe(N);
    expect(removed.filter((r) => Number(r.n) !== 1)).toEqual([]);
  });

  it('resumes a job over named contacts from its cursor', async () => {
    const ids = many.slice(0, JOB_CHUNK + 10);
    let jobId = '';
    await withRunnerStopped(async () => {
      const queued = await submit(manager, { action: 'move', folder_id: source, contact_user_ids: ids });
      expect(queued).toMatchObject({ status: 'queued', total: ids.length });
      jobId = queued.bulk_job_id;
      // A runner died having done nothing it recorded but the first 3 ids (which it pretends it changed).
      await server.ctx.store.write((tx) =>
        tx
          .updateTable('bulk_jobs')
          .set({ status: 'running', processed: 3, changed: 3, cursor: 3, lease_owner: '2.deadbeef', lease_until_ms: nowMs() - 1 })
          .where('id', '=', Number(jobId))
          .execute(),
      );
    });
    expect(await finished(manager, jobId)).toEqual(done({ total: ids.length, processed: ids.length, changed: ids.length }));
    // The first three were skipped as done: they are where they were.
    for (const id of ids.slice(0, 3)) expect((await recordOf(manager, id)).category_id).toBe(String(target));
    expect(await total(manager, `folder_id=${source}&include_trashed=1`)).toBe(ids.length - 3);
  });

  it('a runner that stops lets go of its job between chunks, and another continues it from there', async () => {
    const tag = await newTag('Stopped');
    const view = { owner_id: bulky.id, only_trashed: 1 };
    let jobId = '';
    await withRunnerStopped(async () => {
      jobId = (await submit(manager, { action: 'add_tag', tag_id: tag.id, filter: view })).bulk_job_id;
      // This runner is told to stop as soon as it has the job: it works the chunk it started, no more.
      const owner = 'stopping.runner';
      const job = await server.ctx.store.write((tx) => claimJob(tx, owner, nowMs(), nowMs() + 30_000));
      expect(job?.id).toBe(Number(jobId));
      const stopping = new AbortController();
      const work = jobTask(server.ctx.store, server.ctx.logger).work(job!, { owner, untilMs: nowMs() + 30_000, signal: stopping.signal });
      stopping.abort();
      await work;
      expect((await manager.get(`/rest/1/bulkjobs/${jobId}`)).body.job).toMatchObject({
        status: 'running',
        processed: JOB_CHUNK,
        changed: JOB_CHUNK,
      });
      // Let go of at once, not left for its lease to run out.
      expect(
        await db().selectFrom('bulk_jobs').select(['lease_owner', 'lease_until_ms']).where('id', '=', Number(jobId)).executeTakeFirst(),
      ).toEqual({ lease_owner: null, lease_until_ms: null });
    });
    expect(await finished(manager, jobId)).toEqual(done({ total: N, processed: N, changed: N }));
    const added = await db()
      .selectFrom('contact_audit')
      .select((eb) => ['contact_id', eb.fn.countAll<number>().as('n')])
      .where('contact_id', 'in', many)
      .where('data_type', '=', 'tag_added')
      .where('new_value', '=', tag.title)
      .groupBy('contact_id')
      .execute();
    expect(added.length).toBe(N);
    expect(added.filter((r) => Number(r.n) !== 1)).toEqual([]);
  });
});

describe('changes while a job waits', () => {
  it('a job waits as queued while no runner runs', async () => {
    const id = await newContact(rep);
    let jobId = '';
    await withRunnerStopped(async () => {
      jobId = (await submit(rep, { action: 'trash', contact_user_ids: [id] })).bulk_job_id;
      expect((await rep.get(`/rest/1/bulkjobs/${jobId}`)).body.job).toMatchObject({ status: 'queued', processed: 0, finished_at: null });
      expect((await recordOf(rep, id)).trashed).toBe('0');
    });
    expect(await finished(rep, jobId)).toEqual(done({ total: 1, processed: 1, changed: 1 }));
  });

  it('a contact the caller can no longer see when its chunk runs is left out', async () => {
    const [a, b] = [await newContact(rep), await newContact(rep)];
    let jobId = '';
    await withRunnerStopped(async () => {
      jobId = (await submit(rep, { action: 'trash', contact_user_ids: [a, b] })).bulk_job_id;
      expect((await manager.put(`/rest/1/contacts/${b}`, { transfer_to_user_id: team.teammate.id })).status).toBe(200);
    });
    expect(await finished(rep, jobId)).toEqual(done({ total: 2, processed: 1, changed: 1 }));
    expect((await recordOf(teammate, b)).trashed).toBe('0');
  });

  it('a chunk that fails on an unexpected error changes nothing, is tried again after a pause, and the job fails after five', async () => {
    const id = await newContact(rep);
    let jobId = '';
    await withRunnerStopped(async () => {
      jobId = (await submit(rep, { action: 'trash', contact_user_ids: [id] })).bulk_job_id;
      // What no request can write: a job whose stored values cannot be read.
      await server.ctx.store.write((tx) =>
        tx.updateTable('bulk_jobs').set({ params: '{not json' }).where('id', '=', Number(jobId)).execute(),
      );
    });
    const failuresOf = async () =>
      await db().selectFrom('bulk_jobs').select(['failures', 'status']).where('id', '=', Number(jobId)).executeTakeFirstOrThrow();
    try {
      for (let failures = 1; failures < 5; failures++) {
        await expect.poll(failuresOf, { timeout: 10_000, interval: 20 }).toEqual({ failures, status: 'running' });
        setClock(new Date(nowMs() + failures * 5_000 + 1));
      }
      await failsWith(rep, jobId, /unexpected error after 0 contacts/);
    } finally {
      resetClock();
    }
    expect((await recordOf(rep, id)).trashed).toBe('0');
  });

  it('a job whose creator is removed ends with it, failed, and changes nothing', async () => {
    const gone = await newMember('Gone', 'member', team.manager.id);
    const id = await newContact(api(gone));
    await withRunnerStopped(async () => {
      const job = await submit(api(gone), { action: 'trash', contact_user_ids: [id] });
      expect((await vendor.delete(`/rest/1/members/${gone.id}`)).status).toBe(204);
      const row = await db().selectFrom('bulk_jobs').selectAll().where('id', '=', Number(job.bulk_job_id)).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'failed', error: 'The member who made this job was removed.', processed: 0, changed: 0 });
    });
    // Jobs run oldest first: once a later one is done, the runner is past where the deleted one was.
    expect(await run(rep, { action: 'trash', contact_user_ids: [await newContact(rep)] })).toMatchObject({ status: 'done' });
    expect(await recordOf(manager, id)).toMatchObject({ trashed: '0', owner_id: String(team.manager.id) });
  });

  const failsWith = async (caller: Caller, jobId: string, error: RegExp) => {
    const job = await finished(caller, jobId);
    expect(job).toEqual(
      expect.objectContaining({
        status: 'failed',
        error: expect.stringMatching(error),
        changed: 0,
        finished_at: expect.stringMatching(TIMESTAMP),
      }),
    );
    return job;
  };

  it('a job whose tag is deleted before it runs fails with its error and changes nothing', async () => {
    const tag = await newTag('Doomed');
    const ids = [await newContact(rep), await newContact(rep)];
    const before = await histories(ids);
    let jobId = '';
    await withRunnerStopped(async () => {
      jobId = (await submit(rep, { action: 'add_tag', tag_id: tag.id, contact_user_ids: ids })).bulk_job_id;
      expect((await vendor.delete(`/rest/1/tags/${tag.id}`)).status).toBe(204);
    });
    await failsWith(rep, jobId, /tag/i);
    expect(await histories(ids)).toEqual(before);
  });

  it('a tag renamed before the job runs is recorded by its title as it is now', async () => {
    const tag = await newTag('Old name');
    const id = await newContact(rep);
    const renamed = `New name ${++serial}`;
    let jobId = '';
    await withRunnerStopped(async () => {
      jobId = (await submit(rep, { action: 'add_tag', tag_id: tag.id, contact_user_ids: [id] })).bulk_job_id;
      expect((await vendor.put(`/rest/1/tags/${tag.id}`, { title: renamed })).status).toBe(202);
    });
    expect(await finished(rep, jobId)).toEqual(done({ total: 1, processed: 1, changed: 1 }));
    const history = await historyOf(id);
    expect(history.activities[0]).toMatchObject({ activity_id: '10', activity: `Tag "${renamed}" added` });
    expect(history.audit[0]).toMatchObject({ data_type: 'tag_added', new: renamed });
  });

  it('a move whose folder is deleted before it runs fails with its error and changes nothing', async () => {
    const folder = await newFolder('Doomed');
    const ids = [await newContact(rep), await newContact(rep)];
    const before = await histories(ids);
    let jobId = '';
    await withRunnerStopped(async () => {
      jobId = (await submit(rep, { action: 'move', folder_id: folder, contact_user_ids: ids })).bulk_job_id;
      expect((await vendor.delete(`/rest/1/folders/${folder}`)).status).toBe(204);
    });
    await failsWith(rep, jobId, /folder/i);
    expect(await histories(ids)).toEqual(before);
    await expectKeptCounts();
  });

  it("a transfer whose member left the caller's team or was deleted before it runs fails with its error and changes nothing", async () => {
    const [leaving, deleted] = [
      await newMember('Leaving', 'member', team.manager.id),
      await newMember('Deleted', 'member', team.manager.id),
    ];
    const ids = [await newContact(rep), await newContact(rep)];
    const before = await histories(ids);
    const jobIds: string[] = [];
    await withRunnerStopped(async () => {
      jobIds.push((await submit(manager, { action: 'transfer', member_id: leaving.id, contact_user_ids: ids })).bulk_job_id);
      jobIds.push((await submit(manager, { action: 'transfer', member_id: deleted.id, contact_user_ids: ids })).bulk_job_id);
      expect((await vendor.put(`/rest/1/members/${leaving.id}`, { manager_id: team.vendor.id })).status).toBe(200);
      expect((await vendor.delete(`/rest/1/members/${deleted.id}`)).status).toBe(204);
    });
    await failsWith(manager, jobIds[0]!, new RegExp(`member.*${leaving.id}|${leaving.id}.*member`, 'i'));
    await failsWith(manager, jobIds[1]!, new RegExp(`member.*${deleted.id}|${deleted.id}.*member`, 'i'));
    expect(await histories(ids)).toEqual(before);
    expect((await recordOf(rep, ids[0]!)).owner_id).toBe(String(team.rep.id));
  });

  it("a job whose filter.owner_id left the caller's team before it runs fails with its error and changes nothing", async () => {
    const leaving = await newMember('Wanderer', 'member', team.manager.id);
    const ids = [await newContact(api(leaving)), await newContact(api(leaving))];
    const before = await histories(ids);
    let jobId = '';
    await withRunnerStopped(async () => {
      jobId = (await submit(manager, { action: 'trash', filter: { owner_id: leaving.id } })).bulk_job_id;
      expect((await vendor.put(`/rest/1/members/${leaving.id}`, { manager_id: team.vendor.id })).status).toBe(200);
    });
    await failsWith(manager, jobId, new RegExp(String(leaving.id)));
    expect(await histories(ids)).toEqual(before);
  });
});

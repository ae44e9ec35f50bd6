import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../db/database.js';
import { nowMs, resetClock, setClock } from '../../lib/clock.js';
import { createLogger } from '../../lib/logger.js';
import { createMailer } from '../../mail/mailer.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { type MailServer, startMailServer } from '../../test/smtp.js';
import { openStream } from '../../test/sse.js';
import { createEmailDelivery } from './email-delivery.js';
import { enqueueEmail } from './emails.repository.js';

/*
 * Disposition e-mails for real: a session dials (the simulated carrier at CARRIER_TIME_SCALE 0.02, on a weekday
 * afternoon in every US zone), the call is dispositioned No Answer, and the member's message for it goes through the
 * e-mail outbox to a real SMTP server in this process. Retries are made due by moving the product's clock.
 */
let server: TestServer;
let team: Team;
let rep: Caller;
let mail: MailServer;
let messageId: string;

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  mail = await startMailServer();
  let api: (m: Team['rep']) => Caller;
  ({ server, team, api } = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02', SMTP_URL: mail.url }));
  rep = api(team.rep);
  const created = await rep.post('/rest/1/content', {
    display_name: 'Missed you',
    subject: 'Sorry I missed you, {first_name}',
    body: 'Hi {first_name} {last_name},\nthis is {member_first_name}. Reach me at {member_email}.',
  });
  expect(created.status, created.text).toBe(201);
  messageId = created.body.content.message_id;
  expect((await rep.put('/rest/1/dialsession/settings', { emails: 1, noanswer: messageId })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  resetClock();
  await server?.close();
  await mail?.close();
});

let n = 0;
/** One contact that does not answer (its number ends in 7), dialed to the end: the session's one call. */
async function dialNoAnswer(contact: { first_name: string; last_name?: string; email?: string }) {
  const phone = `312473${String(100 + (++n % 900))}7`;
  const created = await rep.post('/rest/1/dialsession', { contacts: [{ ...contact, phone, allow_duplicates: 1 }] });
  expect(created.status, created.text).toBe(201);
  const id = created.body.dialsessions.dialsession_id as string;
  const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, {
    authorization: `Bearer ${server.tokenOf(team.rep)}`,
  });
  await rep.post(`/rest/1/dialsession/${id}/start`);
  await stream.waitFor((e) => e.event === 'state' && e.data.call_state === 'Session complete');
  stream.close();
  return callOf(id);
}

const callOf = async (sessionId: string) => (await rep.get(`/rest/1/dialsession/${sessionId}`)).body.dialsessions.dialsessions.calls[0];
const emailRow = (callId: string) =>
  server.ctx.store.db.selectFrom('emails').selectAll().where('call_id', '=', Number(callId)).executeTakeFirst();

/** Waits for the store to say what the delivery did (it records outcomes there, not in an event). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`Waited ${timeoutMs} ms; last seen: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const sentTo = (address: string) => mail.received.filter((m) => m.to.includes(address));

describe('a dispositioned call', () => {
  it("sends the member's message for the disposition to the contact's primary e-mail, from the member, merged", async () => {
    const call = await dialNoAnswer({ first_name: 'Nora', last_name: 'Quinn', email: 'nora.quinn@example.com' });
    expect(call).toMatchObject({ disposition: 'No Answer', message_id: messageId, email_sent: '1' });
    const [got] = await until(
      async () => sentTo('nora.quinn@example.com'),
      (list) => list.length > 0,
    );
    expect(got!.from).toBe('rick@example.com');
    expect(got!.headers.from).toBe('Rick Test <rick@example.com>');
    expect(got!.headers.to).toBe('nora.quinn@example.com');
    expect(got!.headers.subject).toBe('Sorry I missed you, Nora');
    expect(got!.body).toBe('Hi Nora Quinn,\r\nthis is Rick. Reach me at rick@example.com.');
    const row = await until(
      () => emailRow(call.call_id),
      (r) => r?.state === 'sent',
    );
    expect(got!.headers['message-id']).toBe(`<ringbook-email-${row!.id}.${team.rep.org_id}@example.com>`);
    expect(row).toMatchObject({ attempts: 1, last_error: null });
    expect(await callOf(await sessionOf(call.call_id))).toMatchObject({ email_sent: '1', email_ok: '1' });
    const usage = await rep.get('/rest/1/dialsession/usage?date_start=2026-11-23&date_end=2026-11-23');
    expect(usage.body.usage[String(team.rep.id)]).toMatchObject({ emails: 1 });
  });

  it('tries again while the mail server is down, and sends once it is up: one e-mail', async () => {
    await mail.down();
    const call = await dialNoAnswer({ first_name: 'Dana', email: 'dana.down@example.com' });
    const failed = await until(
      () => emailRow(call.call_id),
      (r) => r?.attempts === 1 && r.last_error !== null,
    );
    expect(failed).toMatchObject({ state: 'pending' });
    expect(failed!.next_attempt_at_ms).toBeGreaterThan(nowMs());
    await mail.up();
    setClock(new Date(nowMs() + 10 * 60_000));
    server.ctx.dialer.emails!.nudge();
    const row = await until(
      () => emailRow(call.call_id),
      (r) => r?.state === 'sent',
    );
    expect(row).toMatchObject({ attempts: 2 });
    expect(sentTo('dana.down@example.com')).toHaveLength(1);
    expect(await callOf(await sessionOf(call.call_id))).toMatchObject({ email_sent: '1', email_ok: '1' });
  });

  it('records a permanent refusal (5xx) as failed, with email_ok 0, and does not try it again', async () => {
    mail.refuse(/^bounce/, 550);
    const call = await dialNoAnswer({ first_name: 'Bo', email: 'bounce@example.com' });
    const row = await until(
      () => emailRow(call.call_id),
      (r) => r?.state !== 'pending',
    );
    expect(row).toMatchObject({ state: 'failed', attempts: 1, last_error: expect.stringMatching(/^550 /) });
    expect(await callOf(await sessionOf(call.call_id))).toMatchObject({ email_sent: '1', email_ok: '0' });
    expect(sentTo('bounce@example.com')).toHaveLength(0);
  });

  it('queues nothing when the message chosen for the disposition was deleted', async () => {
    const made = await rep.post('/rest/1/content', { display_name: 'Short-lived', subject: 'S', body: 'B' });
    expect((await rep.put('/rest/1/dialsession/settings', { noanswer: made.body.content.message_id })).status).toBe(200);
    expect((await rep.delete(`/rest/1/content/${made.body.content.message_id}`)).status).toBe(204);
    // The settings keep naming it, and saving them with it unchanged still works (the settings screen sends every key).
    const resaved = await rep.put('/rest/1/dialsession/settings', { noanswer: made.body.content.message_id, ringing: 1 });
    expect(resaved.status, resaved.text).toBe(200);
    expect((await rep.put('/rest/1/dialsession/settings', { busy: made.body.content.message_id })).status).toBe(400);
    try {
      const call = await dialNoAnswer({ first_name: 'Gone', email: 'gone@example.com' });
      expect(call).toMatchObject({ email_sent: '0', email_ok: '0' });
      expect(await emailRow(call.call_id)).toBeUndefined();
    } finally {
      await rep.put('/rest/1/dialsession/settings', { noanswer: messageId });
    }
  });

  it('queues nothing for a contact without an e-mail address, nor with the setting off', async () => {
    const noAddress = await dialNoAnswer({ first_name: 'Nobody' });
    expect(noAddress).toMatchObject({ email_sent: '0', email_ok: '0' });
    expect(await emailRow(noAddress.call_id)).toBeUndefined();
    expect((await rep.put('/rest/1/dialsession/settings', { emails: 0 })).status).toBe(200);
    try {
      const off = await dialNoAnswer({ first_name: 'Off', email: 'off@example.com' });
      expect(off).toMatchObject({ email_sent: '0', email_ok: '0' });
      expect(await emailRow(off.call_id)).toBeUndefined();
    } finally {
      await rep.put('/rest/1/dialsession/settings', { emails: 1 });
    }
  });
});

async function sessionOf(callId: string): Promise<string> {
  const row = await server.ctx.store.db.selectFrom('calls').select('session_id').where('id', '=', Number(callId)).executeTakeFirstOrThrow();
  return String(row.session_id);
}

it("sends an e-mail whose server died mid-send once its lease runs out, with the row's Message-ID", async () => {
  const at = nowMs();
  const id = await server.ctx.store.write(async (tx) => {
    await enqueueEmail(tx, {
      call_id: 950_000,
      org_id: team.rep.org_id,
      member_id: team.rep.id,
      message_id: Number(messageId),
      to_address: 'after.crash@example.com',
      from_name: 'Rick Test',
      from_address: 'rick@example.com',
      subject: 'After a crash',
      body: 'Sent again.',
      next_attempt_at_ms: at,
      created_at_ms: at,
    });
    // As a server killed between the mail server's accept and its write leaves it: leased, attempted, still pending.
    const row = await tx
      .updateTable('emails')
      .set({ lease_owner: 'a dead server', lease_until_ms: at + 60_000, attempts: 1 })
      .where('call_id', '=', 950_000)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  setClock(new Date(nowMs() + 2 * 60_000));
  server.ctx.dialer.emails!.nudge();
  const row = await until(
    () => emailRow('950000'),
    (r) => r?.state === 'sent',
  );
  expect(row).toMatchObject({ attempts: 2, lease_owner: null });
  const [got] = sentTo('after.crash@example.com');
  expect(got!.headers['message-id']).toBe(`<ringbook-email-${id}.${team.rep.org_id}@example.com>`);
});

it('sends each e-mail once when two servers deliver from one store', async () => {
  const other = await openStore(server.ctx.config.databaseUrl);
  const second = createEmailDelivery(other, createMailer(mail.url), createLogger('silent'));
  try {
    const before = mail.received.length;
    const addresses = Array.from({ length: 20 }, (_, i) => `twice${i}@example.com`);
    await server.ctx.store.write(async (tx) => {
      for (const [i, to] of addresses.entries()) {
        await enqueueEmail(tx, {
          call_id: 900_000 + i,
          org_id: team.rep.org_id,
          member_id: team.rep.id,
          message_id: Number(messageId),
          to_address: to,
          from_name: 'Rick Test',
          from_address: 'rick@example.com',
          subject: `Once ${i}`,
          body: 'Once only.',
          next_attempt_at_ms: nowMs(),
          created_at_ms: nowMs(),
        });
      }
    });
    second.start();
    second.nudge();
    server.ctx.dialer.emails!.nudge();
    const rows = () =>
      server.ctx.store.db.selectFrom('emails').selectAll().where('call_id', '>=', 900_000).where('call_id', '<', 950_000).execute();
    await until(rows, (list) => list.every((r) => r.state === 'sent'));
    const got = mail.received.slice(before);
    expect(got.map((m) => m.to[0]).sort()).toEqual([...addresses].sort());
    expect(new Set(got.map((m) => m.headers['message-id'])).size).toBe(20);
    expect((await rows()).every((r) => r.attempts === 1)).toBe(true);
  } finally {
    await second.stop();
    await other.close();
  }
});

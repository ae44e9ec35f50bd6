import { afterAll, beforeAll, expect, it } from 'vitest';
import { resetClock, setClock } from '../../lib/clock.js';
import { serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { openStream } from '../../test/sse.js';

/* Without SMTP_URL a deployment sends no e-mail: a disposition that would send one queues nothing, and the call says so. */
let server: TestServer;
let team: Team;

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  ({ server, team } = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02' }));
}, 60_000);
afterAll(async () => {
  resetClock();
  await server?.close();
});

it("queues no e-mail and leaves the call's email_sent at '0'", async () => {
  const rep = server.as(server.tokenOf(team.rep));
  const message = await rep.post('/rest/1/content', { display_name: 'Missed you', subject: 'Hi {first_name}', body: 'Call me back.' });
  await rep.put('/rest/1/dialsession/settings', { emails: 1, noanswer: message.body.content.message_id });
  const contacts = [{ first_name: 'Nell', email: 'nell@example.com', phone: '3124731237' }];
  const id = (await rep.post('/rest/1/dialsession', { contacts })).body.dialsessions.dialsession_id as string;
  const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, {
    authorization: `Bearer ${server.tokenOf(team.rep)}`,
  });
  await rep.post(`/rest/1/dialsession/${id}/start`);
  await stream.waitFor((e) => e.event === 'state' && e.data.call_state === 'Session complete');
  stream.close();
  const [call] = (await rep.get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions.calls;
  expect(call).toMatchObject({ disposition: 'No Answer', message_id: message.body.content.message_id, email_sent: '0', email_ok: '0' });
  expect(await server.ctx.store.db.selectFrom('emails').selectAll().execute()).toEqual([]);
  expect(server.ctx.dialer.emails).toBeUndefined();
});

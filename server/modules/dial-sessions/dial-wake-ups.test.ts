import { afterAll, beforeAll, expect, it } from 'vitest';
import { currentDate, resetClock, setClock } from '../../lib/clock.js';
import { serverWithTeam, type Caller, type TestServer } from '../../test/harness.js';
import { freePort } from '../../test/process.js';
import { openStream, type SseEvent } from '../../test/sse.js';

/*
 * The engine's wake-ups as the process runs them: the composition root (context.ts) gives the dialer runtime what
 * wakes a due session. Nothing listens at CARRIER_URL, so a placed call never hears from the carrier; once its time is
 * up (the clock is moved past it rather than waited for), the next tick ends it as no answer and the session goes on.
 */
let server: TestServer;
let rep: Caller;
let token: string;

beforeAll(async () => {
  // A weekday afternoon in every US zone: within calling hours.
  setClock(new Date('2026-11-23T18:00:00Z'));
  const started = await serverWithTeam({ CARRIER_URL: `http://127.0.0.1:${await freePort()}`, CARRIER_TIME_SCALE: '0.02' });
  server = started.server;
  token = server.tokenOf(started.team.rep);
  rep = started.api(started.team.rep);
});
afterAll(async () => {
  resetClock();
  await server?.close();
});

const stateIs = (position: number, callState: string) => (e: SseEvent) =>
  e.event === 'state' && e.data.position === position && e.data.call_state === callState;

it('ends a call the carrier never reported on as no answer once its time is up, and goes on', async () => {
  const created = await rep.post('/rest/1/dialsession', {
    contacts: [{ first_name: 'Never', last_name: 'Heard', phone: '3124730100', allow_duplicates: 1 }],
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.dialsessions.dialsession_id as string;
  const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, { authorization: `Bearer ${token}` });
  try {
    await rep.post(`/rest/1/dialsession/${id}/start`);
    await stream.waitFor(stateIs(0, 'Ringing'));
    setClock(new Date(currentDate().getTime() + 10 * 60_000));
    await stream.waitFor(stateIs(0, 'No answer'));
    await stream.waitFor((e) => e.event === 'state' && e.data.call_state === 'Session complete');
  } finally {
    stream.close();
  }
  const session = (await rep.get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions;
  expect(session.status).toBe('ended');
  expect(session.calls.map((c: { disposition: string }) => c.disposition)).toEqual(['No Answer']);
});

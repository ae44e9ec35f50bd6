import type { Page } from '@playwright/test';
import { createContact, createMember, expect, signIn, test } from './fixtures';

/*
 * The call, end to end: a rep of its own (one running session per member) dials a contact through the dialer, talks,
 * hangs up and sets a disposition; finds the call on the Calls screen, waits for the transcript (PocketSphinx on the
 * e2e server), plays it, clicks a line and sees the player go there, reads the summary; then filters the list.
 * A number ending in 0 is answered by a person who stays on the line (server/carrier/network.ts); at the e2e time
 * scale (0.05) each real second on the line is 20 seconds of recorded conversation.
 */

type Segment = { speaker_label: 'member' | 'contact'; start: number; end: number; text: string };

async function newRep(page: Page, run: string): Promise<string> {
  await signIn(page, 'vendor');
  const username = `calls${run}`;
  await createMember(page.request, { username, first_name: 'Cara', last_name: `Caller${run}` });
  await page.context().clearCookies();
  await signIn(page, username);
  return username;
}

const slider = (page: Page) => page.getByRole('slider', { name: 'Seek' });
const position = async (page: Page) => Number(await slider(page).inputValue());

test('dial, talk, disposition; the call in the viewer with its transcript and summary; the list filtered', async ({ page }) => {
  // Transcribing a minute of two-channel speech takes PocketSphinx tens of seconds on a busy machine.
  test.setTimeout(240_000);
  const run = Date.now().toString(36);
  await newRep(page, run);
  const name = `Quinn Calls${run}`;
  const busy = `Bo Busy${run}`;
  // Dialed newest first: Quinn answers, then Bo's line is busy (a number ending in 8).
  await createContact(page.request, { first_name: 'Bo', last_name: `Busy${run}`, phone: '312-472-0248' });
  await createContact(page.request, { first_name: 'Quinn', last_name: `Calls${run}`, phone: '312-472-0240' });

  await page.goto('/contacts');
  for (const who of [name, busy])
    await page
      .getByRole('grid')
      .getByRole('checkbox', { name: new RegExp(`Select ${who}`) })
      .check();
  await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Dial' }).click();
  const launcher = page.getByRole('dialog', { name: 'Start a dial session' });
  await launcher.getByRole('radio', { name: 'Preview' }).check();
  await launcher.getByRole('button', { name: 'Start dialing' }).click();
  await expect(page).toHaveURL(/\/dialer\/\d+$/);
  const sessionId = page.url().match(/\/dialer\/(\d+)$/)![1]!;
  const status = page.getByRole('status', { name: 'Call status' });
  await expect(status).toContainText('Ready to call');

  // The Calls screen leads back into the session still open.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calls' }).click();
  await expect(page.getByRole('heading', { name: 'Calls', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No calls yet' })).toBeVisible();
  await page.getByRole('link', { name: `Go back to session ${sessionId}` }).click();
  await expect(page).toHaveURL(new RegExp(`/dialer/${sessionId}$`));

  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(status).toContainText('Connected');
  await page.getByRole('textbox', { name: 'Note', exact: true }).fill('Asked about pricing.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByRole('list', { name: 'Notes history' })).toContainText('Asked about pricing.');
  await expect(page.getByRole('timer', { name: 'Call timer' })).toContainText(/Talk 0:0[2-9]/);
  await page.getByRole('button', { name: 'Hang up' }).click();
  await expect(status).toContainText('Call ended');
  await page.getByRole('button', { name: 'Interested', exact: true }).click();
  await expect(page.getByRole('heading', { name: busy })).toBeVisible();
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(status).toContainText('Session complete');

  // The call from the list, in the viewer.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calls' }).click();
  await expect(page.getByRole('link', { name: `Go back to session ${sessionId}` })).toHaveCount(0);
  await page.getByRole('link', { name: new RegExp(`^${name}\\s*: view call`) }).click();
  await expect(page).toHaveURL(/\/calls\/\d+$/);
  const callId = page.url().match(/\/calls\/(\d+)$/)![1]!;
  await expect(page.getByRole('heading', { name: `Call with ${name}`, level: 1 })).toBeVisible();
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText('Interested');
  await expect(details).toContainText('Asked about pricing.');
  await expect(details.getByRole('link', { name: name })).toHaveAttribute('href', /\/contacts\/\d+$/);
  await expect(details.getByRole('link', { name: `Session ${sessionId}` })).toBeVisible();

  // The transcript comes by itself (the page polls), then the summary.
  const lines = page.getByRole('list', { name: 'Transcript lines' });
  await expect(lines).toBeVisible({ timeout: 180_000 });
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary.getByRole('img', { name: /^Talk time: Cara Caller\w+ \d+ %, Quinn Calls\w+ \d+ %$/ })).toBeVisible();
  const call = (await (await page.request.get(`/rest/1/calls/${callId}?include_transcript=1`)).json()).call.call;
  expect(call.transcript_status).toBe('summarized');
  expect(call.transcript.summary.length).toBeGreaterThan(20);
  await expect(summary).toContainText(call.transcript.summary);
  const transcript = (await (await page.request.get(`/rest/1/transcripts/${call.transcript_id}`)).json()).transcript;
  const segments: Segment[] = transcript.segments;
  expect(segments.length).toBeGreaterThan(2);
  await expect(lines.getByRole('listitem')).toHaveCount(segments.length);

  // Play: the time moves. Pause, then a click on a line seeks there and marks it as the line being played.
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect.poll(() => position(page)).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Pause' }).click();
  const target = segments[2]!;
  const line = lines.getByRole('listitem').nth(2);
  await line.getByRole('button').click();
  await expect.poll(() => position(page)).toBeCloseTo(target.start, 0);
  await expect(line).toHaveAttribute('aria-current', 'true');
  await expect(lines.locator('[aria-current="true"]')).toHaveCount(1);
  // The arrows seek 5 s; space plays and pauses (focus away from any button).
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => position(page)).toBeCloseTo(target.start + 5, 0);
  await page.getByRole('heading', { name: `Call with ${name}` }).click();
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();

  // The list filtered by disposition, then by a word said; filters live in the URL.
  await page.getByRole('link', { name: '← All calls' }).click();
  const row = page.getByRole('link', { name: new RegExp(`^${name}\\s*: view call`) });
  await expect(row).toBeVisible();
  await page.getByRole('combobox', { name: 'Disposition' }).selectOption('Busy');
  await expect(page).toHaveURL(/disposition=Busy/);
  const busyRow = page.getByRole('link', { name: new RegExp(`^${busy}\\s*: view call`) });
  await expect(busyRow).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Disposition' }).selectOption('Interested');
  await expect(row).toBeVisible();
  await expect(busyRow).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/calls$/);

  // A call nobody answered has no recording, and says so.
  await busyRow.click();
  await expect(page.getByRole('region', { name: 'Recording' })).toContainText('This call was not recorded: nobody answered.');
  await expect(page.getByRole('region', { name: 'Transcript' })).toContainText('No recording, so no transcript.');
  await expect(page.getByRole('slider', { name: 'Seek' })).toHaveCount(0);
  await page.goBack();

  const word = segments.flatMap((s) => s.text.split(/\s+/)).find((w) => /^[a-z]{6,}$/i.test(w))!;
  expect(word).toBeTruthy();
  const search = page.getByRole('search', { name: 'Search calls by words said' });
  await search.getByRole('searchbox', { name: 'Words said' }).fill(word);
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`search=${word}`));
  await expect(row).toBeVisible();
  await search.getByRole('searchbox', { name: 'Words said' }).fill('xylophone zeppelin');
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('heading', { name: 'No calls match these filters' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Words said' })).toHaveValue('xylophone zeppelin');

  const session = (await (await page.request.get(`/rest/1/dialsession/${sessionId}`)).json()).dialsessions.dialsessions;
  expect(session.status).toBe('ended');

  // At 390 px neither screen is wider than the phone.
  await page.setViewportSize({ width: 390, height: 844 });
  const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  await page.goto('/calls');
  await expect(row).toBeVisible();
  expect(await pageWidth()).toBeLessThanOrEqual(390);
  await page.goto(`/calls/${callId}`);
  await expect(lines).toBeVisible();
  await expect(page.getByRole('button', { name: 'Play' })).toBeInViewport();
  expect(await pageWidth()).toBeLessThanOrEqual(390);
});

test('a call that does not exist, or is not one to see, is "Call not found"', async ({ page }) => {
  await signIn(page, 'alex');
  await page.goto('/calls/999999999');
  await expect(page.getByRole('heading', { name: 'Call not found' })).toBeVisible();
  await page.getByRole('link', { name: '← All calls' }).click();
  await expect(page).toHaveURL(/\/calls$/);
});

test("a manager narrows the team's calls to one member, and pages through them", async ({ page }) => {
  await signIn(page, 'manager');
  const team = (await (await page.request.get('/rest/1/members', { params: { entire_team: 1, page_size: 100 } })).json()).members.members;
  const alex = team.find((m: { username: string }) => m.username === 'alex');
  const alexName: string = alex.display_name || `${alex.first_name} ${alex.last_name}`;
  const total: number = (await (await page.request.get('/rest/1/calls', { params: { member_id: alex.user_id } })).json()).calls
    .total_results;
  expect(total).toBeGreaterThan(25);

  await page.goto('/calls');
  await page.getByRole('combobox', { name: 'Member' }).selectOption(String(alex.user_id));
  await expect(page).toHaveURL(new RegExp(`member_id=${alex.user_id}`));
  const pages = page.getByRole('navigation', { name: 'Pages of calls' });
  await expect(pages).toContainText(`${total.toLocaleString('en-US')} calls · page 1 of ${Math.ceil(total / 25)}`);
  const sessions = page.getByRole('rowheader', { name: /^Session \d+/ });
  await expect(sessions.first()).toBeVisible();
  for (const header of await sessions.all()) await expect(header).toContainText(`· ${alexName}`);

  await pages.getByRole('button', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(pages).toContainText('page 2 of');
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Member' })).toHaveValue(String(alex.user_id));
  await expect(pages).toContainText('page 2 of');
});

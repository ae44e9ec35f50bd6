import type { Locator, Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures';

/*
 * The usage dashboard over the demo data's two weeks of dial sessions (and whatever other journeys dialed before).
 * The server's clock starts at 2026-11-23T18:00:00Z (playwright.config.ts), so its today is 2026-11-23. Figures on
 * screen are checked against what the API answers the same member for the same days.
 */

type Figures = { sessions: number; calls: number; connected: number; voicemail: number; talktime: number };
type Member = { user_id: string; display_name: string };

async function openUsage(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
  await expect(page).toHaveURL(/\/usage$/);
}

/** What the API answers the signed-in member (the page's own cookie) for these days. */
async function usageOf(page: Page, start: string, end: string): Promise<Map<string, Figures>> {
  const reply = await page.request.get('/rest/1/dialsession/usage', { params: { date_start: start, date_end: end } });
  expect(reply.status()).toBe(200);
  const usage: Record<string, Figures> = (await reply.json()).usage;
  return new Map(Object.entries(usage).filter(([key]) => /^\d+$/.test(key)));
}

async function teamOf(page: Page): Promise<Member[]> {
  const reply = await page.request.get('/rest/1/members', { params: { entire_team: 1, page_size: 100 } });
  return (await reply.json()).members.members;
}

/** The cells after the row header: sessions, calls, connected, connect rate, voicemails, talk time, average. */
const cellsOf = (row: Locator) => row.getByRole('cell');
const rowOf = (table: Locator, name: string) =>
  table.getByRole('row').filter({ has: table.page().getByRole('rowheader', { name, exact: true }) });

async function expectFigures(table: Locator, team: Member[], usage: Map<string, Figures>) {
  for (const member of team) {
    const figures = usage.get(member.user_id)!;
    const cells = cellsOf(rowOf(table, member.display_name));
    await expect(cells.nth(0), member.display_name).toHaveText(figures.sessions.toLocaleString('en-US'));
    await expect(cells.nth(1), member.display_name).toHaveText(figures.calls.toLocaleString('en-US'));
    await expect(cells.nth(2), member.display_name).toHaveText(figures.connected.toLocaleString('en-US'));
    await expect(cells.nth(4), member.display_name).toHaveText(figures.voicemail.toLocaleString('en-US'));
    await expect(cells.nth(5), member.display_name).toHaveText(figures.talktime.toLocaleString('en-US'));
  }
}

async function callsColumn(table: Locator): Promise<number[]> {
  const texts = await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.querySelectorAll('td')[1]?.textContent ?? ''));
  return texts.map((t) => Number(t.replace(/\D/g, '')));
}

test("a manager reads the team's usage: default days, presets, own dates, sorting, the 90-day limit, a session's calls", async ({
  page,
}) => {
  await signIn(page, 'manager');
  await openUsage(page);
  await expect(page.getByRole('heading', { name: 'Team usage', level: 1 })).toBeVisible();

  // The last 7 days up to the server's today.
  await expect(page.getByLabel('Start date')).toHaveValue('2026-11-17');
  await expect(page.getByLabel('End date')).toHaveValue('2026-11-23');
  await expect(page.getByRole('button', { name: 'Last 7 days' })).toHaveAttribute('aria-pressed', 'true');
  const team = await teamOf(page);
  expect(team.map((m) => m.display_name)).toEqual(
    expect.arrayContaining(['Morgan Reyes', 'Alex Turner', 'Blake Okafor', 'Casey Lindqvist']),
  );
  const table = page.getByRole('table', { name: /^Figures per member/ });
  const week = await usageOf(page, '2026-11-17', '2026-11-23');
  await expectFigures(table, team, week);
  const weekCalls = [...week.values()].reduce((n, f) => n + f.calls, 0);
  expect(weekCalls).toBeGreaterThan(0);
  await expect(cellsOf(rowOf(table, 'Total')).nth(1)).toHaveText(weekCalls.toLocaleString('en-US'));
  await expect(page.getByRole('figure', { name: 'Calls and connected calls per member' })).toContainText(
    `${week.get(team.find((m) => m.display_name === 'Alex Turner')!.user_id)!.calls} calls`,
  );

  // A preset, then days of one's own.
  await page.getByRole('button', { name: 'Last 30 days' }).click();
  await expect(page).toHaveURL(/start=2026-10-25&end=2026-11-23/);
  await expect(page.getByLabel('Start date')).toHaveValue('2026-10-25');
  await expectFigures(table, team, await usageOf(page, '2026-10-25', '2026-11-23'));
  await page.getByLabel('Start date').fill('2026-11-09');
  await page.getByLabel('End date').fill('2026-11-13');
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page).toHaveURL(/start=2026-11-09&end=2026-11-13/);
  await expect(table).toHaveAccessibleName(/Nov 9, 2026 – Nov 13, 2026/);
  await expectFigures(table, team, await usageOf(page, '2026-11-09', '2026-11-13'));

  // Sorting by calls, from the keyboard: most first, then fewest first; the totals stay last.
  const callsHeader = table.getByRole('columnheader', { name: 'Calls', exact: true });
  await expect(callsHeader).toHaveAttribute('aria-sort', 'none');
  await callsHeader.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(callsHeader).toHaveAttribute('aria-sort', 'descending');
  const descending = await callsColumn(table);
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  await callsHeader.getByRole('button').click();
  await expect(callsHeader).toHaveAttribute('aria-sort', 'ascending');
  const ascending = await callsColumn(table);
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
  await expect(table.locator('tfoot').getByRole('rowheader')).toHaveText('Total');

  // More than the API's 90 days: the form says so and asks nothing.
  await page.getByLabel('Start date').fill('2026-01-01');
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page.getByText('Choose a range of at most 90 days.')).toBeVisible();
  await expect(page.getByLabel('End date')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/start=2026-11-09&end=2026-11-13/);

  // Days without calls.
  await page.getByLabel('Start date').fill('2026-01-01');
  await page.getByLabel('End date').fill('2026-01-31');
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'No calls in these days' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No dial sessions in these days' })).toBeVisible();

  // A session's calls, as the API keeps them.
  await page.getByRole('button', { name: 'Last 7 days' }).click();
  const sessions = (
    await (
      await page.request.get('/rest/1/dialsession', { params: { date_start: '2026-11-17', date_end: '2026-11-23', page_size: 10 } })
    ).json()
  ).dialsessions.dialsessions;
  const index = sessions.findIndex((s: { call_count: number }) => s.call_count > 0);
  const newest = sessions[index];
  const calls = (await (await page.request.get(`/rest/1/dialsession/${newest.dialsession_id}`)).json()).dialsessions.dialsessions.calls;
  const sessionsRegion = page.getByRole('region', { name: 'Dial sessions' });
  const owner = team.find((m) => m.user_id === newest.member_id)!.display_name;
  const sessionRow = sessionsRegion.getByRole('row').nth(index + 1);
  await expect(sessionRow.getByRole('rowheader')).toHaveText(owner);
  await expect(sessionRow.getByRole('cell').last()).toHaveText(String(calls.length));
  const toggle = sessionRow.getByRole('button', { name: /^Show calls/ });
  await toggle.click();
  await expect(sessionRow.getByRole('button', { name: /^Hide calls/ })).toHaveAttribute('aria-expanded', 'true');
  const callTable = sessionsRegion.getByRole('table', { name: new RegExp(`^Calls of ${owner}'s session`) });
  await expect(callTable.getByRole('row')).toHaveCount(calls.length + 1);
  const first = callTable.getByRole('row').nth(1);
  await expect(first.getByRole('rowheader')).toHaveText(calls[0].contact_name);
  await expect(first.getByRole('cell').nth(1)).toContainText(calls[0].disposition);
});

const USAGE_READ = /\/rest\/1\/dialsession\/usage\?/;

test('a rep sees only its own figures and sessions, and is told when they could not be read', async ({ page }) => {
  await signIn(page, 'blake');
  await page.route(USAGE_READ, (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({
        http_status: 500,
        status: 'error',
        debug_codes: [{ code: 50001, reason: 'The server had a problem; nothing was applied.' }],
      }),
    }),
  );
  await openUsage(page);
  await expect(page.getByRole('heading', { name: 'Your usage', level: 1 })).toBeVisible();
  const failed = page.getByRole('alert').filter({ hasText: 'Usage could not be loaded' });
  await expect(failed).toContainText('The server had a problem');
  await page.unroute(USAGE_READ);
  await failed.getByRole('button', { name: 'Retry' }).click();
  const table = page.getByRole('table', { name: /^Your figures/ });
  await expect(table.locator('tbody').getByRole('row')).toHaveCount(1);
  await expect(table.getByRole('rowheader')).toHaveText(['Blake Okafor']);
  const usage = await usageOf(page, '2026-11-17', '2026-11-23');
  expect([...usage.keys()]).toHaveLength(1);
  await expect(cellsOf(rowOf(table, 'Blake Okafor')).nth(1)).toHaveText(String([...usage.values()][0]!.calls));
  const sessions = page.getByRole('region', { name: 'Your dial sessions' });
  await expect(sessions.getByRole('columnheader', { name: 'Member' })).toHaveCount(0);
  await expect(sessions.getByRole('button', { name: /^Show calls/ }).first()).toBeVisible();
});

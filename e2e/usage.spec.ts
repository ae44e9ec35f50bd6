import type { Locator, Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures';

/*
 * The usage dashboard over the demo data's two weeks of dial sessions (and whatever other journeys dialed before).
 * The server's clock starts at 2026-11-23T18:00:00Z (playwright.config.ts), so its today is 2026-11-23. Figures on
 * screen are checked against what the API answers the same member for the same days.
 */
const WEEK = { date_start: '2026-11-17', date_end: '2026-11-23' };

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

test("a manager reads the team's usage: default days, presets, own dates, sorting, the 90-day limit", async ({ page }) => {
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
  await expect(sessions.getByRole('link', { name: /Nov \d+, 2026/ }).first()).toBeVisible();
  await expect(page.getByRole('img', { name: /^Calls and connected calls per day/ })).toBeVisible();
});

type Day = { date: string; calls: number; connected: number; voicemail: number; talktime_minutes: number };

test('the trend and the outcomes are charts with their figures as tables, the same as the API answers, down to 390 px', async ({
  page,
}) => {
  await signIn(page, 'manager');
  await openUsage(page);
  const days: Day[] = (await (await page.request.get('/rest/1/dialsession/usage/days', { params: WEEK })).json()).usage_days.days;
  const outcomes: { disposition: string; calls: number }[] = (
    await (await page.request.get('/rest/1/dialsession/usage/dispositions', { params: WEEK })).json()
  ).usage_dispositions.dispositions;
  expect(days).toHaveLength(7);
  expect(outcomes.length).toBeGreaterThan(1);

  // The trend: a chart named with what it shows (axes, legend), and a table for screen readers with every day.
  const trend = page.getByRole('figure', { name: 'Calls and connected calls per day' });
  const trendChart = trend.getByRole('img', { name: /^Calls and connected calls per day/ });
  const weekCalls = days.reduce((n, d) => n + d.calls, 0);
  // The first figures of a journey wait on a busy shared machine's server.
  await expect(trendChart).toHaveAccessibleName(new RegExp(`^Calls and connected calls per day\\. ${weekCalls} calls and`), {
    timeout: 30_000,
  });
  await expect(trend.locator('.recharts-legend-wrapper')).toContainText('Calls');
  await expect(trend.locator('.recharts-legend-wrapper')).toContainText('Connected');
  await expect(trend.getByText('Day (UTC)')).toBeVisible();
  const trendTable = trend.getByRole('table', { name: 'Calls and connected calls per day, Nov 17, 2026 – Nov 23, 2026' });
  await expect(trendTable.locator('tbody tr')).toHaveCount(7);
  for (const [i, day] of days.entries()) {
    const row = trendTable.locator('tbody tr').nth(i);
    await expect(row.getByRole('cell').nth(0)).toHaveText(day.calls.toLocaleString('en-US'));
    await expect(row.getByRole('cell').nth(1)).toHaveText(day.connected.toLocaleString('en-US'));
    await expect(row.getByRole('cell').nth(4)).toHaveText(day.talktime_minutes.toLocaleString('en-US'));
  }
  await expect(trendTable.getByRole('rowheader').first()).toHaveText('Tue, Nov 17, 2026');

  // A tooltip from the keyboard: the chart takes the focus and the arrows move along the days.
  await trendChart.focus();
  await page.keyboard.press('ArrowRight');
  await expect(trend.locator('.recharts-tooltip-wrapper')).toContainText(/Nov \d+, 2026/);

  // The outcomes, most first, the calls not dispositioned yet named as such; "Show as table" puts the table in view.
  const outcome = page.getByRole('figure', { name: 'Outcomes by disposition' });
  const outcomeChart = outcome.getByRole('img', { name: /^Outcomes by disposition/ });
  await expect(outcomeChart).toHaveAccessibleName(/^Outcomes by disposition\. /);
  const outcomeTable = outcome.getByRole('table', { name: /^Outcomes by disposition, / });
  await expect(outcomeTable.getByRole('rowheader')).toHaveText(outcomes.map((o) => o.disposition || 'No disposition'));
  await expect(outcomeTable.locator('tbody tr').first().getByRole('cell').first()).toHaveText(outcomes[0]!.calls.toLocaleString('en-US'));
  // Beside the chart the table is visually hidden: its box is one pixel, clipped.
  expect((await outcomeTable.locator('..').boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
  await outcome.getByRole('button', { name: 'Show as table' }).click();
  await expect(outcome.getByRole('button', { name: 'Show as table' })).toHaveAttribute('aria-pressed', 'true');
  await expect(outcomeChart).toHaveCount(0);
  await expect(outcomeTable).toBeVisible();
  await outcome.getByRole('button', { name: 'Show as table' }).click();
  await expect(outcomeChart).toBeVisible();

  // At 390 px the charts fit the screen and the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const chart of [trendChart, outcomeChart]) {
    const box = (await chart.boundingBox())!;
    expect(box.width).toBeGreaterThan(250);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test("a manager drills down from a member to its sessions, a session's calls and a call, and back with the browser", async ({ page }) => {
  await signIn(page, 'manager');
  await openUsage(page);
  const alex = (await teamOf(page)).find((m) => m.display_name === 'Alex Turner')!;
  const range = { ...WEEK, member_id: alex.user_id };

  // A member's row leads to its figures, charts and sessions; the new step's heading takes the focus.
  await page
    .getByRole('table', { name: /^Figures per member/ })
    .getByRole('link', { name: 'Alex Turner', exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`[?&]member=${alex.user_id}(&|$)`));
  const memberHeading = page.getByRole('heading', { name: 'Alex Turner', level: 2, exact: true });
  await expect(memberHeading).toBeFocused();
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb.getByRole('link', { name: 'Team usage' })).toBeVisible();
  await expect(breadcrumb.locator('[aria-current="page"]')).toHaveText('Alex Turner');
  const days: Day[] = (await (await page.request.get('/rest/1/dialsession/usage/days', { params: range })).json()).usage_days.days;
  const alexCalls = days.reduce((n, d) => n + d.calls, 0);
  await expect(page.getByRole('img', { name: /^Calls and connected calls per day/ })).toHaveAccessibleName(
    new RegExp(`\\. ${alexCalls} calls? and`),
  );
  const listed = (await (await page.request.get('/rest/1/dialsession', { params: { ...range, page_size: 10 } })).json()).dialsessions;
  const sessions = page.getByRole('region', { name: "Alex Turner's dial sessions" });
  await expect(sessions.locator('tbody tr')).toHaveCount(listed.dialsessions.length);
  await expect(sessions.getByRole('columnheader', { name: 'Member' })).toHaveCount(0);

  // A session, opened from the keyboard: its calls, each linking to the call viewer.
  const session = listed.dialsessions.find((s: { call_count: number }) => s.call_count > 0);
  const detail = (await (await page.request.get(`/rest/1/dialsession/${session.dialsession_id}`, { params: { page_size: 25 } })).json())
    .dialsessions.dialsessions;
  const sessionLink = sessions.getByRole('link').nth(listed.dialsessions.indexOf(session));
  await sessionLink.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]member=${alex.user_id}&session=${session.dialsession_id}(&|$)`));
  const sessionHeading = page.getByRole('heading', { level: 2, name: /^Session of / });
  await expect(sessionHeading).toBeFocused();
  await expect(breadcrumb.getByRole('link', { name: 'Alex Turner' })).toBeVisible();
  const calls = page.getByRole('table', { name: /^Calls of Alex Turner's session of / });
  await expect(calls.locator('tbody tr')).toHaveCount(Math.min(detail.calls.length, 25));
  const first = detail.calls[0];
  await expect(calls.locator('tbody tr').first().getByRole('rowheader')).toHaveText(first.contact_name);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const viewer = calls.getByRole('link', { name: `View call with ${first.contact_name}` }).first();
  await expect(viewer).toHaveAttribute('href', `/calls/${first.call_id}`);
  await viewer.click();
  await expect(page).toHaveURL(new RegExp(`/calls/${first.call_id}$`));

  // Back, step by step, to where each step was.
  await page.goBack();
  await expect(sessionHeading).toBeVisible();
  await page.goBack();
  await expect(memberHeading).toBeVisible();
  await expect(page).not.toHaveURL(/session=/);
  await page.goBack();
  await expect(page.getByRole('table', { name: /^Figures per member/ })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveCount(0);
});

test('a member outside the team, in the URL, is said so instead of figures', async ({ page }) => {
  await signIn(page, 'blake');
  await page.goto('/usage?member=999999');
  await expect(page.getByRole('heading', { name: 'No calls in these days' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Dial sessions could not be loaded' })).toContainText(
    'member_id 999999 is not a member of your team',
  );
});

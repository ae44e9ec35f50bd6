import { createContact, DEMO_PASSWORD, expect, signIn, test, WRITE } from './fixtures';

test('search finds names in either order, phone digit runs and e-mail domains', async ({ page }) => {
  const u = Date.now().toString(36);
  await signIn(page, 'alex');
  await createContact(page.request, { first_name: 'Ethan', last_name: 'Murphy', email: `ethan@murphy-${u}.test`, phone: '(214) 999-7486' });

  const search = page.getByRole('searchbox', { name: 'Search contacts' });
  const firstRow = page.getByRole('grid').getByRole('row').nth(1);
  for (const [query, param] of [
    ['murphy ethan', 'murphy+ethan'],
    ['999-7486', '999-7486'],
    [`murphy-${u}.test`, `murphy-${u}.test`],
  ] as const) {
    await search.fill(query);
    await expect(page).toHaveURL(new RegExp(`search=${param.replace(/[.+]/g, '\\$&')}`));
    await expect(firstRow).toContainText('Ethan Murphy');
    await expect(firstRow).toContainText('(214) 999-7486');
  }
  await expect(page.getByText('1 contact', { exact: true })).toBeVisible();
});

test('a manager sees owners, filters and sorts by them, and picks custom-field columns', async ({ page }) => {
  const u = Date.now().toString(36);
  await signIn(page, 'alex');
  await createContact(page.request, {
    first_name: 'Custom',
    last_name: `Field${u}`,
    custom_fields: [{ name: `Region ${u}`, type: 1, value: 'North' }],
  });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('Username').fill('manager');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();

  const grid = page.getByRole('grid');
  await expect(grid.getByRole('columnheader', { name: 'Owner' })).toBeVisible();
  const owners = page.getByRole('combobox', { name: 'Filter by owner' });
  // The manager's team: the demo's, and whichever members other journeys created under it.
  await expect(owners.getByRole('option').first()).toHaveText('All owners');
  await expect
    .poll(() => owners.getByRole('option').allInnerTexts())
    .toEqual(expect.arrayContaining(['Alex Turner', 'Blake Okafor', 'Casey Lindqvist', 'Morgan Reyes']));
  await owners.selectOption({ label: 'Alex Turner' });
  await expect(page).toHaveURL(/owner=\d+/);
  await expect(page.getByText('Showing contacts owned by Alex Turner')).toBeVisible();
  const ownerCells = grid.getByRole('row').locator('td:nth-child(9)');
  await expect(ownerCells.first()).toHaveText('Alex Turner');
  expect(new Set(await ownerCells.allInnerTexts())).toEqual(new Set(['Alex Turner']));

  // Both changes in one go, before the router has committed the first: the second builds on the first.
  const sortBy = page.getByRole('combobox', { name: 'Sort by' });
  const handles = [await owners.elementHandle(), await sortBy.elementHandle()] as const;
  await page.evaluate(([owner, sort]) => {
    const choose = (select: HTMLSelectElement, label: string) => {
      select.value = [...select.options].find((o) => o.text === label)!.value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    };
    choose(owner as HTMLSelectElement, 'All owners');
    choose(sort as HTMLSelectElement, 'Owner (Z–A)');
  }, handles);
  await expect(page).toHaveURL(/sort_by=owner&sort_order=DESC/);
  expect(new URL(page.url()).searchParams.get('owner')).toBeNull();
  await expect(page.getByText('Showing contacts owned by Alex Turner')).toBeHidden();
  await expect(grid.getByRole('columnheader', { name: 'Owner' })).toHaveAttribute('aria-sort', 'descending');
  await expect(ownerCells.first()).toHaveText('Morgan Reyes');
  await sortBy.selectOption({ label: 'Last name (A–Z)' });
  await expect(grid.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/sort_by=last_name/);

  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(`Field${u}`);
  await expect(grid.getByRole('row')).toHaveCount(2);
  await page.getByRole('button', { name: 'Columns' }).click();
  await page
    .getByRole('group', { name: 'Custom fields' })
    .getByRole('checkbox', { name: `Region ${u}` })
    .check();
  await expect(grid.getByRole('columnheader', { name: `Region ${u}` })).toBeVisible();
  await expect(grid.getByRole('row').nth(1)).toContainText('North');
});

test('"Not in a folder" filters the grid, and Dial all dials the rows in the order the grid shows them', async ({ page }) => {
  await signIn(page, 'blake');
  const run = Date.now().toString(36);
  const last = `Order${run}`;
  const folderName = `A long folder name a narrow panel cuts ${run}`;
  const made = await page.request.post('/rest/1/folders', { headers: WRITE, data: { name: folderName } });
  expect(made.ok()).toBe(true);
  const folderId = (await made.json()).folders['0'].folder_id;
  for (const [first, phone] of [
    ['Cleo', '312-472-0301'],
    ['Abe', '312-472-0302'],
    ['Bea', '312-472-0303'],
  ])
    await createContact(page.request, { first_name: first, last_name: last, phone });
  await createContact(page.request, { first_name: 'Dot', last_name: last, phone: '312-472-0304', category_id: folderId });

  await page.goto(`/contacts?search=${last}`);
  const rows = page.getByRole('grid').getByRole('row');
  await expect(rows).toHaveCount(5);
  const folders = page.getByRole('navigation', { name: 'Folders' });
  const folderLink = folders.getByRole('link', { name: new RegExp(`^${folderName}, `) });
  await expect(folderLink).toHaveAttribute('title', folderName);
  // At 1,440 px the whole name shows (it wraps); narrower, it is cut and the title holds it.
  const cut = () => folderLink.getByText(folderName, { exact: true }).evaluate((el) => el.scrollWidth > el.clientWidth);
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect.poll(cut).toBe(false);
  await page.setViewportSize({ width: 1024, height: 720 });
  await expect.poll(cut).toBe(true);
  await page.setViewportSize({ width: 1280, height: 720 });
  await folders.getByRole('link', { name: /^Not in a folder, / }).click();
  await expect(page).toHaveURL(/folder=none/);
  await expect(page.getByRole('heading', { level: 1, name: 'Not in a folder' })).toBeVisible();
  await expect(rows).toHaveCount(4);
  await expect(page.getByRole('grid')).not.toContainText('Dot');

  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'First name (A–Z)' });
  await expect(rows.nth(1)).toContainText(`Abe ${last}`);
  await page.getByRole('button', { name: 'Dial all' }).click();
  const launcher = page.getByRole('dialog', { name: 'Start a dial session' });
  await expect(launcher).toContainText('3 contacts not in a folder');
  await launcher.getByRole('radio', { name: 'Preview' }).check();
  await launcher.getByRole('button', { name: 'Start dialing' }).click();
  await expect(page).toHaveURL(/\/dialer\/\d+$/);
  await expect(page.getByRole('heading', { name: `Abe ${last}` })).toBeVisible();
  await expect(page.getByRole('region', { name: /^Queue/ }).getByRole('listitem')).toContainText([
    `Abe ${last}`,
    `Bea ${last}`,
    `Cleo ${last}`,
  ]);
  await page.getByRole('button', { name: 'End session' }).click();
  await page.getByRole('alertdialog', { name: 'End this dial session?' }).getByRole('button', { name: 'End session' }).click();
});

test('the grid is one tab stop with arrow keys between cells; Enter opens the contact; paging keeps focus', async ({ page }) => {
  await signIn(page, 'casey');
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row').nth(2)).toBeVisible();

  await page.getByRole('combobox', { name: 'Sort by' }).focus();
  await page.keyboard.press('Tab');
  const rows = grid.getByRole('row');
  await expect(rows.nth(1).getByRole('link').first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(2).getByRole('link').first()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(rows.nth(2).getByRole('checkbox')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(rows.nth(2).getByRole('checkbox')).toBeChecked();
  await page.keyboard.press('End');
  await expect(rows.nth(2).getByRole('button', { name: /^Edit / })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(rows.nth(0).getByRole('columnheader').last()).toBeFocused();

  // Tab leaves the grid in one step, and Shift+Tab comes back to the same cell.
  await page.keyboard.press('Tab');
  await expect(grid.locator(':focus')).toHaveCount(0);
  await page.keyboard.press('Shift+Tab');
  await expect(rows.nth(0).getByRole('columnheader').last()).toBeFocused();

  // A plain cell (the folder) takes focus itself; E edits, Enter opens the contact's page.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Home');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  const folderCell = rows.nth(2).getByRole('gridcell').nth(4);
  await expect(folderCell).toBeFocused();
  await page.keyboard.press('e');
  const name = (await rows.nth(2).getByRole('link').first().innerText()).trim();
  const editor = page.getByRole('dialog', { name: `Edit ${name}` });
  await expect(editor).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await expect(folderCell).toBeFocused();
  const href = await rows.nth(2).getByRole('link').first().getAttribute('href');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${href}$`));

  await page.goBack();
  const next = page.getByRole('button', { name: 'Next page' });
  await next.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('spinbutton', { name: 'Page' })).toHaveValue('2');
  await expect(next).toBeFocused();
  await expect(page.getByTestId('grid-scroll')).toHaveJSProperty('scrollTop', 0);
  const selected = page.getByRole('region', { name: 'Bulk actions' });
  await expect(selected).toContainText('1 selected');
  await page.getByRole('button', { name: 'Last page' }).click();
  // The pager waits while a page is on its way (its buttons are aria-disabled, so a press then does nothing).
  await expect(page.getByRole('spinbutton', { name: 'Page' })).not.toHaveValue('2');
  await expect(page.getByRole('button', { name: 'First page' })).not.toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('button', { name: 'First page' }).click();
  await expect(page.getByRole('spinbutton', { name: 'Page' })).toHaveValue('1');
  await expect(rows.nth(2).getByRole('checkbox')).toBeChecked();
  await page.getByRole('spinbutton', { name: 'Page' }).fill('3');
  await page.getByRole('spinbutton', { name: 'Page' }).press('Enter');
  await expect(page).toHaveURL(/page=3/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the grid becomes a list of cards to select and open by touch', async ({ page }) => {
    const u = Date.now().toString(36);
    await signIn(page, 'blake');
    const id = await createContact(page.request, {
      first_name: 'Card',
      last_name: `Holder${u}`,
      email: `card.${u}@example.com`,
      phone: '(312) 555-0142',
    });
    await page.reload();

    await expect(page.getByRole('grid')).toHaveCount(0);
    const cards = page.getByRole('list', { name: 'All contacts' });
    const card = cards.getByRole('listitem').filter({ hasText: `Card Holder${u}` });
    await expect(card).toContainText('(312) 555-0142');
    await expect(card).toContainText(`card.${u}@example.com`);
    await expect(card).toContainText('No folder');
    await card.getByRole('checkbox', { name: `Select Card Holder${u}` }).tap();
    await expect(page.getByRole('region', { name: 'Bulk actions' })).toContainText('1 selected');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await card.getByRole('link', { name: `Card Holder${u}` }).tap();
    await expect(page).toHaveURL(new RegExp(`/contacts/${id}$`));
  });
});

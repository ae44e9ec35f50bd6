import type { Page } from '@playwright/test';
import { expect, signIn, test, WRITE } from './fixtures';

/** Creates `count` contacts through the API, ten requests at a time. */
async function createMany(page: Page, count: number, data: (i: number) => Record<string, unknown>) {
  for (let start = 0; start < count; start += 10) {
    const batch = Array.from({ length: Math.min(10, count - start) }, (_, k) =>
      page.request.post('/rest/1/contacts', { headers: WRITE, data: { allow_duplicates: 1, ...data(start + k) } }),
    );
    for (const response of await Promise.all(batch)) expect(response.status()).toBe(201);
  }
}

test('select all 300 contacts of a filtered view and tag them in a bulk job, with progress', async ({ page }) => {
  test.setTimeout(120_000);
  const u = Date.now().toString(36);
  const source = `batch-${u}`;
  const added = `followed-up-${u}`;
  await signIn(page, 'manager');
  await createMany(page, 300, (i) => ({ first_name: `Bulk${i}`, last_name: `Person${u}`, tags: [source] }));

  await page.reload();
  await page.getByRole('combobox', { name: 'Filter by tag' }).selectOption({ label: source });
  await expect(page.getByText('300 contacts', { exact: true })).toBeVisible();
  const grid = page.getByRole('grid');
  await grid.getByRole('checkbox', { name: 'Select all on this page' }).check();
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bar).toContainText('25 selected');
  await bar.getByRole('button', { name: 'Select all 300 matching' }).click();
  await expect(bar).toContainText('All 300 matching contacts selected');

  // The selection holds across pages: every row of page 2 is ticked too.
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByRole('spinbutton', { name: 'Page' })).toHaveValue('2');
  await expect(grid.getByRole('checkbox', { name: 'Select all on this page' })).toBeChecked();

  // Progress is read from the server while the job runs; the first reading waits until the test has seen the bar.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/rest/1/bulkjobs/*', async (route) => {
    await held;
    await route.continue();
  });
  await bar.getByRole('button', { name: 'Add tag' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a tag' });
  await expect(dialog).toContainText('Applies to all 300 matching contacts.');
  await dialog.getByLabel('Tag').fill(added);
  await dialog.getByRole('button', { name: 'Add tag' }).click();

  const job = page.getByRole('region', { name: 'Bulk change' });
  const progress = job.getByRole('progressbar', { name: 'Bulk change progress' });
  await expect(progress).toHaveAttribute('aria-valuemax', '300');
  await expect(job).toContainText(`Adding tag “${added}” to 300 contacts…`);
  release();
  await expect(job).toContainText(`Tag “${added}” added to 300 contacts.`);
  await expect(progress).toHaveCount(0);
  await expect(bar).toHaveCount(0);

  await page.getByRole('combobox', { name: 'Filter by tag' }).selectOption({ label: added });
  await expect(page.getByText('300 contacts', { exact: true })).toBeVisible();
});

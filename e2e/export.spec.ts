import type { Download } from '@playwright/test';
import { createContact, expect, signIn, test } from './fixtures';

/** A downloaded CSV's records, without its byte-order mark (the cells here hold no quotes or line breaks). */
async function recordsOf(download: Download): Promise<string[][]> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return bytes
    .subarray(3)
    .toString('utf8')
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(','));
}

test('export the filtered view, then a selection, as CSV downloads', async ({ page }) => {
  const u = Date.now().toString(36);
  await signIn(page, 'manager');
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push(await createContact(page.request, { first_name: `Export${i}`, last_name: `Person${u}` }));
  await page.reload();

  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(`Person${u}`);
  await expect(page.getByText('3 contacts', { exact: true })).toBeVisible();
  const viewDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const view = await viewDownload;
  expect(view.suggestedFilename()).toMatch(/^ringbook-contacts-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(page.getByRole('status')).toContainText('Export started: 3 contacts');
  const [header, ...rows] = await recordsOf(view);
  expect(header!.slice(0, 3)).toEqual(['ID', 'First name', 'Last name']);
  expect(rows.map((r) => r[0])).toEqual([...ids].reverse());

  const grid = page.getByRole('grid');
  await grid.getByRole('checkbox', { name: `Select Export1 Person${u}` }).check();
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  const selectedDownload = page.waitForEvent('download');
  await bar.getByRole('button', { name: 'Export selected' }).click();
  const selected = await selectedDownload;
  expect(selected.suggestedFilename()).toMatch(/^ringbook-contacts-\d{4}-\d{2}-\d{2}\.csv$/);
  const [, ...picked] = await recordsOf(selected);
  expect(picked.map((r) => r.slice(0, 3))).toEqual([[ids[1], 'Export1', `Person${u}`]]);
  await expect(page.getByRole('status')).toContainText('Exported 1 selected contact to a CSV file.');
});

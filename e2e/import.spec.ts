import type { Download, Page } from '@playwright/test';
import { createContact, expect, signIn, test } from './fixtures';

async function textOf(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Uploads a file through the import page's file input, as the user would pick it. */
async function upload(page: Page, name: string, bytes: Buffer) {
  await page.getByRole('link', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Import contacts' })).toBeVisible();
  await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: bytes });
}

/*
 * A file as a spreadsheet on Windows writes it: semicolons, Windows-1252 (ü and é one byte each), a note with a line
 * break in quotes, a row with one field too many, and a row with the e-mail of a contact already there.
 */
function messyFile(u: string): Buffer {
  const lines = [
    'First name;Last name;E-mail;Mobile;Notes',
    `Hans;Müller;hans.${u}@example.com;(312) 555-0141;"Met at the fair`,
    `asked for a demo"`,
    `Marie;Café;marie.${u}@example.com;(312) 555-0142;`,
    `Too;Many;too.${u}@example.com;(312) 555-0143;a note;one more`,
    `Dana;Existing;dana.${u}@example.com;(312) 555-0144;Second number added`,
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1');
}

test('import a messy CSV file: map, preview, dry run, run, read the refused rows, undo', async ({ page }) => {
  const u = Date.now().toString(36);
  await signIn(page, 'alex');
  await createContact(page.request, { first_name: 'Dana', last_name: 'Existing', email: `dana.${u}@example.com` });
  await page.reload();

  await upload(page, `trade-show-${u}.csv`, messyFile(u));
  await expect(page.getByRole('heading', { level: 1, name: `Import trade-show-${u}.csv` })).toBeVisible();

  // Step 2: the suggestions from the header names are chosen already.
  const steps = page.getByRole('navigation', { name: 'Import steps' });
  await expect(steps.getByRole('listitem').filter({ hasText: 'Map columns' })).toHaveAttribute('aria-current', 'step');
  await expect(page.getByRole('combobox', { name: 'Field for column E-mail' })).toHaveValue('email');
  await expect(page.getByRole('combobox', { name: 'Field for column Mobile' })).toHaveValue('phone');
  await expect(page.getByRole('combobox', { name: 'Phone type for column Mobile' })).toHaveValue('mobile');
  await expect(page.getByRole('combobox', { name: 'Field for column Last name' })).toHaveValue('last_name');
  // The samples are decoded: the file's bytes are Windows-1252.
  await expect(page.getByRole('row', { name: /Last name/ })).toContainText('Müller');

  // Nothing that names a contact: the form says what is missing.
  for (const column of ['First name', 'Last name', 'E-mail', 'Mobile']) {
    await page.getByRole('combobox', { name: `Field for column ${column}` }).selectOption({ label: 'Don’t import this column' });
  }
  await page.getByRole('button', { name: 'Continue to preview' }).click();
  await expect(page.getByRole('alert')).toContainText('Map at least one column to a name, an e-mail or a phone');
  await page.getByRole('combobox', { name: 'Field for column First name' }).selectOption({ label: 'First name' });
  await page.getByRole('combobox', { name: 'Field for column Last name' }).selectOption({ label: 'Last name' });
  await page.getByRole('combobox', { name: 'Field for column E-mail' }).selectOption({ label: 'E-mail' });
  await page.getByRole('combobox', { name: 'Field for column Mobile' }).selectOption({ label: 'Phone' });
  await page.getByRole('combobox', { name: 'Field for column Notes' }).selectOption({ label: 'Notes' });
  await page.getByRole('button', { name: 'Continue to preview' }).click();

  // Step 3: the rows as they will be stored, and what happens to each.
  const preview = page.getByRole('table', { name: 'The first rows as they will be stored' });
  await expect(preview.getByRole('row', { name: /Hans Müller/ })).toContainText('Met at the fair');
  await expect(preview.getByRole('row', { name: /Hans Müller/ })).toContainText('Will be added');
  await expect(preview.getByRole('row', { name: /Marie Café/ })).toContainText('(312) 555-0142 (cell)');
  await expect(preview.getByRole('row', { name: /^3 / })).toContainText(/Refused: .*6 fields; the header has 5/);
  await expect(preview.getByRole('row', { name: /Dana Existing/ })).toContainText('Skipped');

  await page.getByRole('radio', { name: 'Update' }).check();
  await expect(preview.getByRole('row', { name: /Dana Existing/ })).toContainText('Will update the existing contact');

  await page.getByRole('button', { name: 'Dry run' }).click();
  await expect(page.getByLabel('Dry run counts')).toHaveText(
    /Would be created\s*2\s*Would be updated\s*1\s*Would be skipped\s*0\s*Would be refused\s*1/,
  );

  // Steps 4 and 5: run it, then the counts.
  await page.getByRole('button', { name: 'Run import' }).click();
  await expect(page.getByRole('region', { name: 'Import finished' })).toBeVisible();
  await expect(page.getByLabel('Import counts')).toHaveText(/Created\s*2\s*Updated\s*1\s*Skipped\s*0\s*Refused\s*1/);

  const refusedDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download refused rows' }).click();
  const refused = await textOf(await refusedDownload);
  expect(refused).toContain('Reason');
  expect(refused).toContain(`too.${u}@example.com`);
  expect(refused).toMatch(/6 fields; the header has 5/);

  // The contacts are in the grid, their names as written.
  await page.getByRole('link', { name: 'Go to contacts' }).click();
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(`.${u}@example.com`);
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row', { name: /Hans Müller/ })).toBeVisible();
  await expect(grid.getByRole('row', { name: /Marie Café/ })).toBeVisible();
  await expect(page.getByText('3 contacts', { exact: true })).toBeVisible();

  // Back through past imports, and undo it.
  await page.getByRole('link', { name: 'Import', exact: true }).click();
  const history = page.getByRole('region', { name: 'Past imports' });
  const pastImport = history.getByRole('row', { name: new RegExp(`trade-show-${u}`) });
  await expect(pastImport).toContainText('Imported');
  await expect(pastImport.getByRole('cell')).toHaveText([/.+/, 'You', 'Imported', '4 rows', '2', '1', '0', '1']);
  await history.getByRole('link', { name: `trade-show-${u}.csv` }).click();
  await page.getByRole('button', { name: 'Undo import' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Undo this import?' });
  await expect(confirm).toContainText('The 2 contacts it created are removed');
  await confirm.getByRole('button', { name: 'Undo import' }).click();
  await expect(page.getByText(/Import undone: 2 contacts it created removed/)).toBeVisible();

  await page.getByRole('link', { name: 'Go to contacts' }).click();
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(`.${u}@example.com`);
  await expect(page.getByText('1 contact', { exact: true })).toBeVisible();
  await expect(grid.getByRole('row', { name: /Dana Existing/ })).toBeVisible();
  await expect(grid.getByRole('row', { name: /Hans Müller/ })).toHaveCount(0);
});

test('a file with a header and no rows, and an empty one, are refused with a message', async ({ page }) => {
  await signIn(page, 'blake');
  await upload(page, 'header-only.csv', Buffer.from('First name,Last name,E-mail\r\n'));
  await expect(page.getByText('header-only.csv was not imported.')).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('has a header but no rows');
  await page.getByLabel('CSV file').setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
  await expect(page.getByText('empty.csv was not imported.')).toBeVisible();
  await expect(page.getByRole('alert')).toContainText(/empty/i);
  await expect(page.getByRole('region', { name: 'Past imports' })).toContainText('No imports yet');
});

test('the upload shows its progress and can be cancelled; a saved mapping fills in a later file', async ({ page }) => {
  const u = Date.now().toString(36);
  await signIn(page, 'casey');

  // A slow connection: the upload's progress is seen, and cancelling it stores nothing.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
  const rows = Array.from({ length: 8000 }, (_, i) => `Slow,Person${i},slow${i}.${u}@example.com`);
  await upload(page, 'slow.csv', Buffer.from(['First,Last,Email', ...rows].join('\n')));
  const progress = page.getByRole('progressbar', { name: /Uploading slow\.csv/ });
  await expect(progress).toBeVisible();
  await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Cancel upload' }).click();
  await expect(page.getByText('Upload cancelled: nothing was stored.')).toBeVisible();
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  // Map a file by hand and save the mapping; a later file with the same names in another order gets it back.
  await page.getByLabel('CSV file').setInputFiles({
    name: 'first.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`Given,Family,Mail,Memo\nAda,Lovelace,ada.${u}@example.com,hi\n`),
  });
  await page.getByRole('combobox', { name: 'Field for column Given' }).selectOption({ label: 'First name' });
  await page.getByRole('combobox', { name: 'Field for column Family' }).selectOption({ label: 'Last name' });
  await page.getByRole('combobox', { name: 'Field for column Mail' }).selectOption({ label: 'E-mail' });
  await page.getByRole('button', { name: 'Save mapping' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save this mapping' });
  await dialog.getByLabel('Mapping name').fill(`Odd headers ${u}`);
  await dialog.getByRole('button', { name: 'Save mapping' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('link', { name: '← Contacts' }).click();
  await upload(page, 'second.csv', Buffer.from(`Mail,Memo,Family,Given\ngrace.${u}@example.com,x,Hopper,Grace\n`));
  await page.getByRole('combobox', { name: 'Use a saved mapping' }).selectOption({ label: `Odd headers ${u}` });
  await expect(page.getByRole('combobox', { name: 'Field for column Given' })).toHaveValue('first_name');
  await expect(page.getByRole('combobox', { name: 'Field for column Family' })).toHaveValue('last_name');
  await expect(page.getByRole('combobox', { name: 'Field for column Mail' })).toHaveValue('email');
  await page.getByRole('button', { name: 'Continue to preview' }).click();
  await expect(
    page.getByRole('table', { name: 'The first rows as they will be stored' }).getByRole('row', { name: /Grace Hopper/ }),
  ).toContainText(`grace.${u}@example.com`);

  // The saved mapping can be deleted (after a confirmation), and is then no longer offered.
  await page.getByRole('button', { name: 'Back to mapping' }).click();
  await page.getByRole('button', { name: 'Saved mappings…' }).click();
  const saved = page.getByRole('dialog', { name: 'Saved mappings' });
  await saved.getByRole('button', { name: `Delete the mapping “Odd headers ${u}”` }).click();
  const confirm = page.getByRole('alertdialog', { name: `Delete the mapping “Odd headers ${u}”?` });
  await confirm.getByRole('button', { name: 'Delete mapping' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText(`Mapping “Odd headers ${u}” deleted`)).toBeVisible();
  await expect(page.getByRole('option', { name: `Odd headers ${u}` })).toHaveCount(0);
});

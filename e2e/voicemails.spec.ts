import fs from 'node:fs';
import path from 'node:path';
import { encodeWav16 } from '../server/audio/pcm';
import config from '../playwright.config';
import { createMember, expect, signIn, test, WRITE } from './fixtures';

/*
 * The voicemail library: a greeting recorded with Chromium's fake microphone, saved, listed, played and renamed, then
 * dropped on an answering machine in a dial session; a file that is not audio is refused. The member is made by the
 * vendor for this run, so no other journey's session is in its way.
 */

/** Three seconds of a voice-like sound (a gliding tone, syllable-long bursts), looped by Chromium as the microphone. */
function fakeMicrophoneWav(): string {
  const rate = 16000;
  const samples = Float32Array.from({ length: rate * 3 }, (_, i) => {
    const t = i / rate;
    const envelope = Math.max(0, Math.sin(Math.PI * 4 * t)) ** 0.5;
    return 0.4 * envelope * Math.sin(2 * Math.PI * (180 + 40 * Math.sin(2 * Math.PI * t)) * t);
  });
  const file = path.resolve('.tmp/e2e-fake-microphone.wav');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, encodeWav16([samples], rate));
  return file;
}

const FAKE_MICROPHONE = fakeMicrophoneWav();

test.use({
  launchOptions: {
    ...config.use?.launchOptions,
    args: [
      ...(config.use?.launchOptions?.args ?? []),
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${FAKE_MICROPHONE}`,
      '--autoplay-policy=no-user-gesture-required',
    ],
  },
});

test('record a greeting, play and rename it, upload a WAV, drop the greeting on an answering machine; a file that is not audio is refused', async ({
  page,
}) => {
  // Two passwords are hashed (scrypt at OWASP's cost) and a session runs: more than the default minute on a busy machine.
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  await signIn(page, 'vendor');
  const username = `voice${run}`;
  await createMember(page.request, { username, first_name: 'Vic', last_name: `Voice${run}` });
  await page.context().clearCookies();
  await signIn(page, username);

  await page.goto('/settings');
  const library = page.getByRole('list', { name: 'Voicemails' });
  await expect(library.getByRole('listitem').filter({ hasText: 'System' })).toHaveCount(1);
  const before = await library.getByRole('listitem').count();

  // Record with the fake microphone: the timer runs, then stop, listen, name and save.
  await page.getByRole('button', { name: 'Record a greeting' }).click();
  const recorder = page.getByRole('dialog', { name: 'Record a greeting' });
  await recorder.getByRole('button', { name: 'Start recording' }).click();
  await expect(recorder.getByRole('timer', { name: 'Recording time' })).toHaveText('0:02', { timeout: 10_000 });
  await recorder.getByRole('button', { name: 'Stop recording' }).click();
  await expect(recorder.getByLabel('Preview the recording')).toBeVisible();
  const greeting = `Fake mic hello ${run}`;
  await recorder.getByRole('textbox', { name: 'Name' }).fill(greeting);
  await recorder.getByRole('button', { name: 'Save greeting' }).click();
  await expect(recorder).toBeHidden();
  await expect(page.getByRole('status')).toContainText(`Voicemail “${greeting}” saved`);
  const row = library.getByRole('listitem').filter({ hasText: greeting });
  await expect(row).toContainText(`by Vic Voice${run}`);

  // The stored copy plays in the browser.
  const player = row.getByLabel(`Play ${greeting}`);
  await player.evaluate((audio: HTMLAudioElement) => audio.play());
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.currentTime)).toBeGreaterThan(0.3);
  expect(await player.evaluate((audio: HTMLAudioElement) => audio.duration)).toBeGreaterThan(1.5);
  await player.evaluate((audio: HTMLAudioElement) => audio.pause());

  const renamed = `Sorry I missed you ${run}`;
  await row.getByRole('button', { name: `Rename ${greeting}` }).click();
  const rename = page.getByRole('dialog', { name: `Rename the voicemail ${greeting}` });
  await rename.getByRole('textbox', { name: 'Name' }).fill(renamed);
  await rename.getByRole('button', { name: 'Rename voicemail' }).click();
  await expect(rename).toBeHidden();
  await expect(library.getByRole('listitem').filter({ hasText: renamed })).toBeVisible();
  await expect(library.getByRole('listitem').filter({ hasText: greeting })).toHaveCount(0);

  // A file that is not audio: the server's reason is shown, and nothing is added.
  await page.getByRole('button', { name: 'Upload a file' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload a voicemail' });
  await upload
    .getByLabel('Audio file')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Call Dana back on Friday.\n'.repeat(40)) });
  await expect(upload.getByRole('textbox', { name: 'Name' })).toHaveValue('notes');
  await upload.getByRole('button', { name: 'Upload voicemail' }).click();
  await expect(upload.getByRole('alert')).toContainText('not a recording this server can read');
  await upload.getByRole('button', { name: 'Cancel' }).click();
  await expect(library.getByRole('listitem')).toHaveCount(before + 1);

  // A WAV file is taken: named from the file, uploaded, listed with its length.
  await page.getByRole('button', { name: 'Upload a file' }).click();
  await upload
    .getByLabel('Audio file')
    .setInputFiles({ name: `hum-${run}.wav`, mimeType: 'audio/wav', buffer: fs.readFileSync(FAKE_MICROPHONE) });
  await expect(upload.getByRole('textbox', { name: 'Name' })).toHaveValue(`hum-${run}`);
  await upload.getByRole('button', { name: 'Upload voicemail' }).click();
  await expect(upload).toBeHidden();
  await expect(library.getByRole('listitem').filter({ hasText: `hum-${run}` })).toContainText('0:03');
  await expect(library.getByRole('listitem')).toHaveCount(before + 2);

  // A session whose only number reaches an answering machine (a number ending in 5): drop the new greeting.
  const session = await page.request.post('/rest/1/dialsession', {
    headers: WRITE,
    data: {
      contacts: [
        {
          first_name: 'Mack',
          last_name: `Machine${run}`,
          phone: `312474${String(Date.now() % 1000).padStart(3, '0')}5`,
          allow_duplicates: 1,
        },
      ],
      preview_mode: 0,
    },
  });
  expect(session.status()).toBe(201);
  const { dialsession_id: id, redirect_url: redirect } = (await session.json()).dialsessions;
  await page.goto(redirect);
  const status = page.getByRole('status', { name: 'Call status' });
  await expect(status).toContainText('Answering machine');
  const choice = page.getByRole('combobox', { name: 'Voicemail' });
  await choice.selectOption((await choice.locator('option', { hasText: renamed }).getAttribute('value'))!);
  await page.getByRole('button', { name: 'Drop voicemail' }).click();
  // "Voicemail left" is the call's state for an instant: the one-contact session then completes and says the result.
  await expect(status).toContainText('Session complete');
  await expect(status).toContainText('Last: Voicemail');
  const calls = (await (await page.request.get(`/rest/1/dialsession/${id}`)).json()).dialsessions.dialsessions.calls;
  expect(calls).toMatchObject([{ voicemail: '1', voicemail_sent: renamed }]);
});

test.describe('at 390 px, without a usable microphone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('says when the microphone is refused or missing, and lets one try again', async ({ page }) => {
    // The browser's answer to getUserMedia, as a person refusing or a machine without a microphone gives it.
    await page.addInitScript(() => {
      const w = window as unknown as { micError: string };
      w.micError = 'NotAllowedError';
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('The microphone is not available.', w.micError));
    });
    await signIn(page, 'vendor');
    await page.goto('/settings');
    await expect(page.getByRole('list', { name: 'Voicemails' }).getByRole('listitem').first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.getByRole('button', { name: 'Record a greeting' }).click();
    const recorder = page.getByRole('dialog', { name: 'Record a greeting' });
    await recorder.getByRole('button', { name: 'Start recording' }).click();
    await expect(recorder.getByRole('alert')).toContainText('may not use your microphone');
    await page.evaluate(() => ((window as unknown as { micError: string }).micError = 'NotFoundError'));
    await recorder.getByRole('button', { name: 'Try again' }).click();
    await expect(recorder.getByRole('alert')).toContainText('No microphone was found');
    await page.keyboard.press('Escape');
    await expect(recorder).toBeHidden();
  });
});

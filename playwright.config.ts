import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { storeEnv } from './e2e/server-env';

const PORT = Number(process.env.E2E_PORT ?? 3199);
/* Browser downloads fail on our machines: use Debian's Chromium when it is there, Playwright's own elsewhere. */
const debianChromium = '/usr/bin/chromium';
const executablePath = fs.existsSync(debianChromium) ? debianChromium : undefined;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    },
  },
  webServer: {
    // The server as npm start runs it, built first when its sources changed (scripts/server-build.mjs).
    command: 'node scripts/server-build.mjs && node --enable-source-maps build/server/index.mjs',
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    // A first start seeds the demo data: about 2,000 contacts, slower on PostgreSQL (a round trip per statement).
    timeout: 300_000,
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      ...storeEnv,
      DEMO_DATA: '1',
      LOG_LEVEL: 'warn',
      // The dialer's journeys: calls 20 times faster, callbacks to the test's own receiver, and a weekday afternoon
      // in every US zone (Guam is then outside calling hours), whatever the real hour.
      CARRIER_TIME_SCALE: '0.05',
      CALLBACK_ALLOWED_HOSTS: '127.0.0.1',
      CLOCK_START: '2026-11-23T18:00:00Z',
    },
  },
});

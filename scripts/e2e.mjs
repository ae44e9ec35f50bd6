// npm run test:e2e: build the web app when needed, then run the Playwright journeys against a fresh store.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { ensureWebBuild } from './web-build.mjs';

ensureWebBuild();
fs.rmSync('.tmp/e2e', { recursive: true, force: true });
const result = spawnSync(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);

// Builds the web app with Vite when dist/ is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const newest = (dir) => {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return latest;
};

export function ensureWebBuild() {
  const built = 'dist/index.html';
  const sources = Math.max(newest('src'), newest('server/contracts'), newest('public'), fs.statSync('index.html').mtimeMs);
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= sources) return;
  console.log('Building the web app…');
  const result = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

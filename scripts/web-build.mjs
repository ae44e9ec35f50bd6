// Builds the web app with Vite when dist/ is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The newest modification time of a file, or of a folder and everything in it (the builds' sources). */
export const newest = (file) => {
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file, { withFileTypes: true, recursive: true })) {
    latest = Math.max(latest, fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return latest;
};

export function ensureWebBuild() {
  const built = 'dist/index.html';
  const sources = Math.max(newest('src'), newest('server/contracts'), newest('public'), newest('index.html'));
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= sources) return;
  console.log('Building the web app…');
  const result = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

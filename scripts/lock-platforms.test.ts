import fs from 'node:fs';
import { expect, it } from 'vitest';

/* npm ci refuses a lock that misses an optional dependency; `npm run lock:platforms` mends it. */
it('package-lock.json lists every optional dependency, so npm ci accepts it on a clean machine', () => {
  const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as {
    packages: Record<string, { optionalDependencies?: Record<string, string> }>;
  };
  const missing = Object.entries(lock.packages).flatMap(([path, entry]) =>
    Object.keys(entry.optionalDependencies ?? {})
      .filter((name) => !lock.packages[`node_modules/${name}`] && !lock.packages[`${path}/node_modules/${name}`])
      .map((name) => `${path || '(root)'} -> ${name}`),
  );
  expect(missing).toEqual([]);
});

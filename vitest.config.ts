import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
    setupFiles: ['server/test/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    /*
     * The files of a worker share one module graph: each file imported the whole server again (transform, link,
     * evaluate), which cost more than the tests themselves. The SQLite part on this machine: 923 s isolated, 512 s
     * shared (issue 18 §6). A file that changes process-wide state (the clock, TZ, a spy) puts it back when it ends.
     */
    isolate: false,
  },
});

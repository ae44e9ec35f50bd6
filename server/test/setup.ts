import timers from 'node:timers';
import { afterAll, afterEach, vi } from 'vitest';
import { cheapPasswordHashesForTests } from '../auth/passwords.js';

cheapPasswordHashesForTests();

/* A console.error during a test is a failure we did not assert on (epic-stack's rule). */
const errors: unknown[][] = [];
vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
  errors.push(args);
});
afterEach(() => {
  if (errors.length) {
    const seen = errors
      .splice(0)
      .map((a) => a.map(String).join(' '))
      .join('\n');
    throw new Error(`console.error was called:\n${seen}`);
  }
});

/*
 * The files of a worker share its process (vitest.config.ts): a file that leaves fake or wrapped timers behind stalls
 * every later file's waits, far from the cause (seen on a clean clone: a spy on the fake setTimeout, which Vitest put
 * back after the real timers had returned, left the fake installed and five later files timed out). This names the
 * file that did it.
 */
afterAll(() => {
  const left = (['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval'] as const).filter(
    (name) => globalThis[name] !== timers[name],
  );
  if (left.length || vi.isFakeTimers())
    throw new Error(`This file left the process's timers changed (${left.join(', ') || 'fake timers'}): put them back in the file.`);
});

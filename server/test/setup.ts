import { afterEach, vi } from 'vitest';
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

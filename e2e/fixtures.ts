import { test as base, expect } from '@playwright/test';

/*
 * Every journey runs under the server's Content-Security-Policy and fails on any violation Chromium reports, so
 * the policy is known to be one the app works under.
 */
export const test = base.extend<{ cspGuard: void }>({
  cspGuard: [
    async ({ page }, use) => {
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await use();
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

import { type APIRequestContext, type Page, test as base, expect } from '@playwright/test';

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

/* What every journey shares: the demo password, the header cookie writes need, signing in, and contacts made by API. */
export const DEMO_PASSWORD = 'ringbook-demo';
export const WRITE = { 'X-Ringbook-Request': '1' };

export async function signIn(page: Page, username: string) {
  await page.goto('/contacts');
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/contacts/);
}

/** A contact made through the API as the signed-in member (duplicates allowed); answers its id. */
export async function createContact(request: APIRequestContext, data: Record<string, unknown>): Promise<string> {
  const response = await request.post('/rest/1/contacts', { headers: WRITE, data: { allow_duplicates: 1, ...data } });
  expect(response.status()).toBe(201);
  return String((await response.json()).contacts.contacts.contact_user_id);
}

const TOKEN_PATTERN = /bearer_token|rb_[A-Za-z0-9_-]{40,}/;

/**
 * Every data response the browser receives, to prove no bearer token reaches it (members carry one for integrations).
 * The app's own scripts are left out: they may name the field (the token dialog says where integrations read it).
 */
export function recordResponses(page: Page) {
  const bodies: Promise<string>[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/assets/')) return;
    bodies.push(response.text().catch(() => ''));
  });
  return async () => (await Promise.all(bodies)).filter((b) => TOKEN_PATTERN.test(b));
}

/**
 * A member of the vendor's organisation made through the API by whoever `request` is signed in as (the vendor):
 * journeys that dial make a rep of their own, since a member runs one dial session at a time.
 */
export async function createMember(
  request: APIRequestContext,
  member: { username: string; first_name: string; last_name: string; password?: string },
) {
  const created = await request.post('/rest/1/members', {
    headers: WRITE,
    data: {
      password: DEMO_PASSWORD,
      email: `${member.username}@example.com`,
      billing_item_id: 1,
      billing_group_id: 'g',
      subgroup_id: 's',
      ...member,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
}

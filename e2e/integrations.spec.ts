import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type Page } from '@playwright/test';
import { createMember, DEMO_PASSWORD, expect, signIn, test } from './fixtures';

/*
 * Issue 17 §1: the vendor registers an integration; a member opens the integration's authorize link, signs in, allows
 * it on the consent screen and is sent back to the integration (a tiny receiver started here, showing the query); the
 * integration exchanges the code for tokens and calls the API as the member. The member then makes a personal access
 * token, uses it, revokes it, and disconnects the integration: both are refused at once.
 */
let receiver: http.Server;
let callback: string;

test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    // The integration's own page, on another site than the app's: a link to connect it.
    if (url.pathname === '/start')
      return res.end(`<!doctype html><title>Integration</title><a href="${url.searchParams.get('to')}">Connect Ringbook</a>`);
    res.end(`<!doctype html><title>Integration</title><h1>Back at the integration</h1><p>state ${url.searchParams.get('state') ?? ''}</p>`);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  callback = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
});
test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

async function registerIntegration(page: Page, name: string): Promise<{ clientId: string; secret: string }> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations' }).click();
  await expect(page.getByRole('heading', { name: 'Integrations', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Register integration' }).click();
  const form = page.getByRole('dialog', { name: 'Register an integration' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Redirect URIs').fill(callback);
  await form.getByRole('button', { name: 'Register integration' }).click();
  const shown = page.getByRole('dialog', { name: `Client secret of ${name}` });
  const secret = (await shown.getByLabel('Client secret').textContent())!;
  const clientId = (await shown.locator('p code').first().textContent())!;
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
  return { clientId, secret };
}

async function allowAs(browser: Browser, username: string, clientId: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const params = new URLSearchParams({ client_id: clientId, redirect_uri: callback, response_type: 'code', state: 'e2e-state' });
  await page.goto(`/oauth/authorize?${params}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: /^Allow E2E CRM .* to use your Ringbook account\?$/ })).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByRole('heading', { name: 'Back at the integration' })).toBeVisible();
  return page;
}

test('the vendor registers an integration, a member allows it and the integration calls the API; a personal token is made, used and revoked', async ({
  page,
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'vendor');
  const run = Date.now().toString(36);
  const username = `oauth${run}`;
  await createMember(page.request, { username, first_name: 'Ola', last_name: `Auth${run}` });
  const name = `E2E CRM ${run}`;
  const { clientId, secret } = await registerIntegration(page, name);

  const member = await allowAs(browser, username, clientId);
  const back = new URL(member.url());
  expect(back.searchParams.get('state')).toBe('e2e-state');
  const code = back.searchParams.get('code')!;

  const integration = await playwright.request.newContext({ baseURL: new URL(page.url()).origin });
  const exchanged = await integration.post('/oauth/accesstoken', {
    form: { grant_type: 'authorization_code', client_id: clientId, client_secret: secret, code, redirect_uri: callback },
  });
  expect(exchanged.status(), await exchanged.text()).toBe(200);
  const { access_token: accessToken, token_type: tokenType } = await exchanged.json();
  expect(tokenType).toBe('bearer');
  const me = async (token: string) => integration.get('/rest/1/members/me', { headers: { authorization: `Bearer ${token}` } });
  expect((await (await me(accessToken)).json()).members.members.username).toBe(username);

  // The member's settings: the connected integration, and a personal access token shown once, used, revoked.
  await member.goto('/settings');
  const connected = member.getByRole('list', { name: 'Connected integrations' });
  await expect(connected).toContainText(name);
  await member.getByLabel('Token name').fill('E2E script');
  await member.getByRole('button', { name: 'Create token' }).click();
  const shown = member.getByRole('dialog', { name: 'Token E2E script' });
  const personal = (await shown.getByLabel('Personal access token').textContent())!;
  await shown.getByRole('button', { name: 'Done' }).click();
  expect((await me(personal)).status()).toBe(200);
  await expect(member.getByRole('row', { name: /E2E script/ })).toContainText(/\d/);
  await member.getByRole('button', { name: 'Revoke E2E script' }).click();
  await member.getByRole('alertdialog').getByRole('button', { name: 'Revoke token' }).click();
  await expect(member.getByRole('row', { name: /E2E script/ })).toHaveCount(0);
  expect((await me(personal)).status()).toBe(401);

  await member.getByRole('button', { name: `Disconnect ${name}` }).click();
  await member.getByRole('alertdialog').getByRole('button', { name: 'Disconnect' }).click();
  await expect(member.getByText('No integration is connected to your account.')).toBeVisible();
  expect((await me(accessToken)).status()).toBe(401);

  // Connecting again from the integration's own site (localhost is another site than 127.0.0.1): the member, signed in
  // already, goes straight to the consent screen (its SameSite=Strict cookie still reaches the app's own requests).
  const authorize = `${new URL(page.url()).origin}/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: callback, response_type: 'code', state: 'again' })}`;
  await member.goto(`${callback.replace('127.0.0.1', 'localhost').replace('/callback', '/start')}?to=${encodeURIComponent(authorize)}`);
  await member.getByRole('link', { name: 'Connect Ringbook' }).click();
  await member.getByRole('button', { name: 'Allow' }).click();
  await expect(member.getByRole('heading', { name: 'Back at the integration' })).toBeVisible();
  expect(new URL(member.url()).searchParams.get('state')).toBe('again');
  await integration.dispose();
});

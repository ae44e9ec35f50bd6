/*
 * Extensions for the settings screens that hand out access: the vendor's integrations (OAuth clients), the ones a
 * member connected, and personal access tokens. Records as zod, each checked against its type (see records.ts).
 */
import { z } from 'zod';
import {
  type AccessTokenRecord,
  type ConnectionRecord,
  createIntegrationBody,
  createTokenBody,
  type IntegrationRecord,
  integrationIdParam,
  listTokensQuery,
  tokenIdParam,
  updateIntegrationBody,
} from '../oauth.js';
import { operations } from './operation.js';
import type { Same } from './records.js';

const s = z.string();
const shownOnce = 'Only in the answer that made it (or, for a secret, rotated it): shown once, stored hashed.';

export const integrationItem = z.object({
  integration_id: s,
  name: s,
  client_id: s.describe('What the integration sends as client_id.'),
  redirect_uris: z.array(s).describe('Matched character for character.'),
  created_at: s,
  client_secret: s.optional().describe(shownOnce),
});

export const connectionItem = z.object({ integration_id: s, name: s, connected_at: s, last_used_at: s.nullable() });

export const accessTokenItem = z.object({
  token_id: s,
  name: s,
  user_id: s.describe('The member the token acts as.'),
  member_name: s,
  created_at: s,
  last_used_at: s.nullable().describe('Written at most once a minute.'),
  token: s.optional().describe(shownOnce),
});

export const accessTypeChecks: [
  Same<z.output<typeof integrationItem>, IntegrationRecord>,
  Same<z.output<typeof connectionItem>, ConnectionRecord>,
  Same<z.output<typeof accessTokenItem>, AccessTokenRecord>,
] = [true, true, true];

const integrations = 'The integrations screen on Settings; the vendor’s only (403 otherwise).';
const integration = { status: 200, nested: 'integrations', inner: 'integrations', item: integrationItem, paging: false } as const;

export const integrationOperations = operations([
  {
    method: 'get',
    route: '/integrations',
    tag: 'Integrations',
    summary: 'The organisation’s integrations',
    extension: integrations,
    answer: { status: 200, list: 'integrations', item: integrationItem },
  },
  {
    method: 'post',
    route: '/integrations',
    tag: 'Integrations',
    summary: 'Register an integration',
    description: 'The answer holds `client_secret`, shown this once.',
    extension: integrations,
    body: createIntegrationBody,
    answer: { ...integration, status: 201 },
  },
  {
    method: 'put',
    route: '/integrations/:integration_id',
    tag: 'Integrations',
    summary: 'Rename an integration or change its redirect URIs',
    extension: integrations,
    params: integrationIdParam,
    body: updateIntegrationBody,
    answer: integration,
  },
  {
    method: 'post',
    route: '/integrations/:integration_id/secret',
    tag: 'Integrations',
    summary: 'Rotate an integration’s secret',
    description: 'The old secret is refused at once; tokens already issued keep working.',
    extension: integrations,
    params: integrationIdParam,
    answer: integration,
  },
  {
    method: 'delete',
    route: '/integrations/:integration_id',
    tag: 'Integrations',
    summary: 'Delete an integration',
    description: 'Every token it holds is revoked.',
    extension: integrations,
    params: integrationIdParam,
    answer: { status: 204 },
  },
  {
    method: 'get',
    route: '/connections',
    tag: 'Integrations',
    summary: 'The integrations you connected',
    extension: 'The connected integrations on Settings.',
    answer: { status: 200, list: 'connections', item: connectionItem },
  },
  {
    method: 'delete',
    route: '/connections/:integration_id',
    tag: 'Integrations',
    summary: 'Disconnect an integration',
    description: 'Revokes every grant you gave it; 404 when there is none.',
    extension: 'The connected integrations on Settings.',
    params: integrationIdParam,
    answer: { status: 204 },
  },
]);

const tokens = 'Personal access tokens on Settings.';

export const tokenOperations = operations([
  {
    method: 'get',
    route: '/tokens',
    tag: 'Access tokens',
    summary: 'Your personal access tokens',
    extension: tokens,
    query: listTokensQuery.extend({
      entire_team: listTokensQuery.shape.entire_team.describe('The vendor’s: every member’s tokens in the organisation (1 or 0).'),
    }),
    answer: { status: 200, list: 'tokens', item: accessTokenItem },
  },
  {
    method: 'post',
    route: '/tokens',
    tag: 'Access tokens',
    summary: 'Create a personal access token',
    description: 'The answer holds `token`, shown this once; send it as `Authorization: Bearer <token>`.',
    extension: tokens,
    body: createTokenBody,
    answer: { status: 201, nested: 'tokens', inner: 'tokens', item: accessTokenItem, paging: false },
  },
  {
    method: 'delete',
    route: '/tokens/:token_id',
    tag: 'Access tokens',
    summary: 'Revoke a personal access token',
    description: 'Its member’s, or any member’s for the vendor; refused from the next request on.',
    extension: tokens,
    params: tokenIdParam,
    answer: { status: 204 },
  },
]);

import type { z } from 'zod';
import { type AuthContext, requireVendor } from '../../auth/access.js';
import { redirectUrisOf } from '../../auth/oauth-authorize.service.js';
import { liveGrantIds, revokeGrants } from '../../auth/oauth.repository.js';
import { randomSecret, sha256 } from '../../auth/tokens.js';
import type { createIntegrationBody, IntegrationRecord, updateIntegrationBody, ConnectionRecord } from '../../contracts/oauth.js';
import type { Store } from '../../db/database.js';
import type { ClientRow } from '../../auth/oauth.repository.js';
import { notFound } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import * as repo from './integrations.repository.js';

export type IntegrationsDeps = { store: Store };

/*
 * The vendor registers the organisation's integrations (OAuth clients): a client_id to give the integration's makers,
 * a secret shown once (only its SHA-256 is kept) and replaced on demand, the exact addresses it may send members back
 * to. Deleting one revokes every token it holds. Members see the integrations they allowed and disconnect them.
 */

export const toIntegrationRecord = (client: ClientRow, secret?: string): IntegrationRecord => ({
  integration_id: String(client.id),
  name: client.name,
  client_id: client.client_id,
  redirect_uris: redirectUrisOf(client),
  created_at: client.created_at,
  ...(secret === undefined ? {} : { client_secret: secret }),
});

export async function listIntegrations(ctx: IntegrationsDeps, auth: AuthContext): Promise<IntegrationRecord[]> {
  requireVendor(auth, 'manage integrations');
  return (await repo.listClients(ctx.store.db, auth.member.org_id)).map((c) => toIntegrationRecord(c));
}

async function ownClient(ctx: IntegrationsDeps, auth: AuthContext, id: number): Promise<ClientRow> {
  requireVendor(auth, 'manage integrations');
  const client = await repo.findClient(ctx.store.db, auth.member.org_id, id);
  if (!client) throw notFound(`There is no integration ${id} in your organisation.`);
  return client;
}

export async function createIntegration(ctx: IntegrationsDeps, auth: AuthContext, body: z.output<typeof createIntegrationBody>) {
  requireVendor(auth, 'manage integrations');
  const secret = randomSecret('rbs');
  const at = now();
  const client = await ctx.store.write((tx) =>
    repo.insertClient(tx, {
      org_id: auth.member.org_id,
      name: body.name,
      client_id: randomSecret('rbi').slice(0, 28),
      secret_hash: sha256(secret),
      redirect_uris: JSON.stringify([...new Set(body.redirect_uris)]),
      created_at: at,
      updated_at: at,
    }),
  );
  return toIntegrationRecord(client, secret);
}

export async function updateIntegration(
  ctx: IntegrationsDeps,
  auth: AuthContext,
  id: number,
  body: z.output<typeof updateIntegrationBody>,
) {
  await ownClient(ctx, auth, id);
  const changes = {
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(body.redirect_uris === undefined ? {} : { redirect_uris: JSON.stringify([...new Set(body.redirect_uris)]) }),
  };
  return toIntegrationRecord(await ctx.store.write((tx) => repo.updateClient(tx, id, { ...changes, updated_at: now() })));
}

/** A new secret, shown once; the old one is refused from now on (tokens already issued keep working). */
export async function rotateSecret(ctx: IntegrationsDeps, auth: AuthContext, id: number) {
  await ownClient(ctx, auth, id);
  const secret = randomSecret('rbs');
  const client = await ctx.store.write((tx) => repo.updateClient(tx, id, { secret_hash: sha256(secret), updated_at: now() }));
  return toIntegrationRecord(client, secret);
}

/** Deletes an integration: its codes, grants and tokens stop working at once. */
export async function deleteIntegration(ctx: IntegrationsDeps, auth: AuthContext, id: number) {
  await ownClient(ctx, auth, id);
  await ctx.store.write(async (tx) => {
    const at = now();
    await revokeGrants(tx, await liveGrantIds(tx, id), at);
    await repo.updateClient(tx, id, { deleted_at: at, updated_at: at });
  });
}

export async function listConnections(ctx: IntegrationsDeps, auth: AuthContext): Promise<ConnectionRecord[]> {
  return (await repo.connectionsOf(ctx.store.db, auth.member.id)).map((row) => ({
    integration_id: String(row.client_id),
    name: row.name,
    connected_at: row.connected_at,
    last_used_at: row.last_used_at,
  }));
}

/** The member disconnects an integration: every grant it gave it ends, with their tokens. */
export async function disconnect(ctx: IntegrationsDeps, auth: AuthContext, id: number) {
  const revoked = await ctx.store.write(async (tx) => {
    const grants = await liveGrantIds(tx, id, auth.member.id);
    await revokeGrants(tx, grants, now());
    return grants.length;
  });
  if (!revoked) throw notFound(`You have not connected integration ${id}.`);
}

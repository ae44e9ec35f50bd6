import { type AuthContext, scopeIncludesMember } from '../../auth/access.js';
import type { ImportMappingBody, ImportMappingRecord } from '../../contracts/imports.js';
import { notFound } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import type { ImportsDeps } from './imports.service.js';
import * as repo from './imports.repository.js';

/* Saved column mappings: a member's, reused by the team's next imports of the same kind of file. */

const mappingRecord = (m: { id: number; name: string; mapping: string; created_at: string }): ImportMappingRecord => ({
  id: m.id,
  name: m.name,
  mapping: JSON.parse(m.mapping) as ImportMappingRecord['mapping'],
  created_at: m.created_at,
});

export async function listMappings(ctx: ImportsDeps, auth: AuthContext) {
  return (await repo.listMappings(ctx.store.db, auth.scope)).map(mappingRecord);
}

export async function saveMapping(ctx: ImportsDeps, auth: AuthContext, body: ImportMappingBody) {
  const row = await ctx.store.write((tx) =>
    repo.insertMapping(tx, {
      org_id: auth.scope.orgId,
      member_id: auth.member.id,
      name: body.name,
      mapping: JSON.stringify(body.mapping),
      created_at: now(),
    }),
  );
  return mappingRecord(row);
}

export async function deleteMapping(ctx: ImportsDeps, auth: AuthContext, id: number) {
  await ctx.store.write(async (tx) => {
    const found = await repo.findMapping(tx, id);
    if (!found || !scopeIncludesMember(auth.scope, { id: found.member_id, org_id: found.org_id }))
      throw notFound(`There is no saved mapping ${id}.`);
    await repo.deleteMapping(tx, id);
  });
}

import type { Kysely } from 'kysely';
import { tableWithId } from './dialect.js';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * OAuth 2.0 and named personal access tokens (issue 17). An integration (client) belongs to an organisation; a member's
 * consent gives a short-lived code, redeemed once for a grant: the family of access and refresh tokens issued from that
 * code, revoked as one. Secrets, codes and tokens are kept as their SHA-256 only. Access tokens stay in access_tokens
 * (kind 'oauth', or 'named' for the tokens members make themselves), so every bearer check reads one table.
 */
export async function up(db: Db): Promise<void> {
  await tableWithId(db, 'oauth_clients')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('oauth_clients_org').on('oauth_clients').columns(['org_id', 'id']).execute();

  await tableWithId(db, 'oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('client_id', 'integer', (c) => c.notNull().references('oauth_clients.id'))
    .addColumn('member_id', 'integer', (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await tableWithId(db, 'oauth_grants')
    .addColumn('client_id', 'integer', (c) => c.notNull().references('oauth_clients.id'))
    .addColumn('member_id', 'integer', (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('code_id', 'integer', (c) => c.notNull().unique().references('oauth_codes.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('oauth_grants_member').on('oauth_grants').columns(['member_id', 'client_id']).execute();
  await db.schema.createIndex('oauth_grants_client').on('oauth_grants').column('client_id').execute();

  await tableWithId(db, 'oauth_refresh_tokens')
    .addColumn('grant_id', 'integer', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('oauth_refresh_tokens_grant').on('oauth_refresh_tokens').column('grant_id').execute();

  await db.schema.alterTable('access_tokens').addColumn('grant_id', 'integer').execute();
  await db.schema.alterTable('access_tokens').addColumn('name', 'text').execute();
  await db.schema.alterTable('access_tokens').addColumn('last_used_at', 'text').execute();
  await db.schema.createIndex('access_tokens_grant').on('access_tokens').column('grant_id').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('access_tokens_grant').execute();
  for (const column of ['last_used_at', 'name', 'grant_id']) await db.schema.alterTable('access_tokens').dropColumn(column).execute();
  for (const table of ['oauth_refresh_tokens', 'oauth_grants', 'oauth_codes', 'oauth_clients']) await db.schema.dropTable(table).execute();
}

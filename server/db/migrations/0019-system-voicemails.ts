import type { Kysely } from 'kysely';
import { starterVoicemail } from '../../audio/starter-voicemail.js';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * Voicemails the system gives an organisation (the starter greeting) are marked `system`: only the vendor changes
 * them, and a member removed later does not make its own recordings look like them. Every organisation that
 * exists gets the starter greeting, as new ones do at creation (members.service.ts createVendor).
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('voicemails')
    .addColumn('system', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const orgs = await db.selectFrom('organisations').select('id').execute();
  const starter = starterVoicemail();
  const at = new Date().toISOString().slice(0, 19).replace('T', ' ');
  for (const org of orgs) {
    await db
      .insertInto('voicemails')
      .values({
        org_id: org.id,
        member_id: null,
        system: 1,
        name: starter.name,
        content_type: starter.content_type,
        audio: starter.audio,
        duration_ms: starter.duration_ms,
        created_at: at,
      })
      .execute();
  }
}

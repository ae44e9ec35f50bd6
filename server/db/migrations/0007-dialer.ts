import crypto from 'node:crypto';
import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import { bytesType, tableWithId } from './dialect.js';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/** The same integer identity column on SQLite (rowid alias, never reused) and PostgreSQL (identity). */
const table = tableWithId;
const text = (t: CreateTableBuilder<any, any>, name: string) => t.addColumn(name, 'text', (c) => c.notNull().defaultTo(''));
const flag = (t: CreateTableBuilder<any, any>, name: string) => t.addColumn(name, 'integer', (c) => c.notNull().defaultTo(0));
const index = (db: Db, name: string, on: string, columns: string[]) => db.schema.createIndex(name).on(on).columns(columns).execute();

/**
 * The power dialer: dial sessions with their queue of contacts and their calls, the events the dialer screen
 * follows, one-time sign-in keys, the callback outbox, dial settings per member, and the libraries a session uses
 * (messages, voicemail recordings, disposition sets). Each organisation gets its callback signing secret.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('organisations').addColumn('callback_secret', 'text').execute();
  await db.schema.alterTable('organisations').addColumn('callback_secret_previous', 'text').execute();
  await db.schema.alterTable('organisations').addColumn('callback_secret_rotated_at', 'text').execute();
  for (const org of await db.selectFrom('organisations').select('id').execute()) {
    await db.updateTable('organisations').set({ callback_secret: newSecret() }).where('id', '=', org.id).execute();
  }
  await createLibraries(db);
  await createSessions(db);
  await createCalls(db);
  await createOutbox(db);
}

const newSecret = () => `whsec_${crypto.randomBytes(32).toString('base64')}`;

async function createLibraries(db: Db) {
  await db.schema
    .createTable('dial_settings')
    .addColumn('member_id', 'integer', (c) => c.primaryKey().references('members.id').onDelete('cascade'))
    .addColumn('values', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  let messages = table(db, 'messages').addColumn('org_id', 'integer', (c) => c.references('organisations.id'));
  for (const name of ['type', 'display_name', 'description', 'body']) messages = text(messages, name);
  await flag(messages, 'display_order')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'messages_org_type', 'messages', ['org_id', 'type', 'display_order']);

  await table(db, 'voicemails')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('member_id', 'integer', (c) => c.references('members.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('audio', bytesType(db), (c) => c.notNull())
    .addColumn('duration_ms', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'voicemails_org', 'voicemails', ['org_id', 'id']);

  await flag(
    flag(
      text(
        table(db, 'disposition_sets').addColumn('org_id', 'integer', (c) => c.references('organisations.id')),
        'name',
      ).addColumn('kind', 'text', (c) => c.notNull()),
      'enabled',
    ),
    'display_order',
  ).execute();
  await flag(
    flag(
      text(
        text(
          text(
            table(db, 'dispositions').addColumn('set_id', 'integer', (c) =>
              c.notNull().references('disposition_sets.id').onDelete('cascade'),
            ),
            'label',
          ),
          'status_key',
        ),
        'shortcut',
      ),
      'connected',
    ),
    'display_order',
  ).execute();
  await index(db, 'dispositions_set', 'dispositions', ['set_id', 'display_order']);
  await seedLibraries(db);
}

async function createSessions(db: Db) {
  let sessions = table(db, 'dial_sessions')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('member_id', 'integer', (c) => c.notNull().references('members.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('contact_count', 'integer', (c) => c.notNull());
  for (const name of ['preview_mode', 'send_skips']) sessions = flag(sessions, name);
  for (const name of ['dialing_set_id', 'answer_set_id', 'preset_id', 'wake_at_ms', 'pending_done'])
    sessions = sessions.addColumn(name, name.endsWith('_ms') ? 'bigint' : 'integer');
  for (const name of [
    'custom_data',
    'callerid',
    'idempotency_key',
    'creation_errors',
    'started_at',
    'ended_at',
    'connected_at',
    'disconnected_at',
  ]) {
    sessions = sessions.addColumn(name, 'text');
  }
  await sessions
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'dial_sessions_member', 'dial_sessions', ['member_id', 'created_at']);
  await index(db, 'dial_sessions_org', 'dial_sessions', ['org_id', 'created_at']);
  await index(db, 'dial_sessions_request', 'dial_sessions', ['member_id', 'request_hash', 'created_at']);
  await db.schema
    .createIndex('dial_sessions_idempotency')
    .unique()
    .on('dial_sessions')
    .columns(['member_id', 'idempotency_key'])
    .where('idempotency_key', 'is not', null)
    .execute();
  await db.schema.createIndex('dial_sessions_wake').on('dial_sessions').column('wake_at_ms').where('wake_at_ms', 'is not', null).execute();

  await db.schema
    .createTable('dial_session_callbacks')
    .addColumn('session_id', 'integer', (c) => c.notNull().references('dial_sessions.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'dial_session_callbacks_session', 'dial_session_callbacks', ['session_id', 'type']);

  await db.schema
    .createTable('dial_session_contacts')
    .addColumn('session_id', 'integer', (c) => c.notNull().references('dial_sessions.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('contact_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('skip_reason', 'text')
    .addColumn('call_id', 'integer')
    .addColumn('result', 'text')
    .addPrimaryKeyConstraint('dial_session_contacts_pk', ['session_id', 'position'])
    .execute();

  await db.schema
    .createTable('sso_keys')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('member_id', 'integer', (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('session_id', 'integer', (c) => c.notNull().references('dial_sessions.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await table(db, 'dial_events')
    .addColumn('session_id', 'integer', (c) => c.notNull().references('dial_sessions.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'dial_events_session', 'dial_events', ['session_id', 'id']);
}

async function createCalls(db: Db) {
  let calls = table(db, 'calls')
    .addColumn('session_id', 'integer', (c) => c.notNull().references('dial_sessions.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('member_id', 'integer', (c) => c.notNull())
    .addColumn('contact_id', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull());
  for (const name of ['connected_at', 'ended_at', 'voicemail_sent', 'message_id', 'disposition_key']) calls = calls.addColumn(name, 'text');
  for (const name of ['phone', 'hangup_status', 'disposition']) calls = text(calls, name);
  calls = calls.addColumn('notes', 'text', (c) => c.notNull().defaultTo('[]'));
  for (const name of ['connected', 'live', 'machine', 'voicemail', 'email_sent', 'email_ok', 'duration', 'talk_seconds'])
    calls = flag(calls, name);
  await calls.execute();
  await index(db, 'calls_session', 'calls', ['session_id', 'position']);
  await index(db, 'calls_member_started', 'calls', ['member_id', 'started_at']);
}

async function createOutbox(db: Db) {
  await table(db, 'outbox')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('session_id', 'integer')
    .addColumn('ordering_key', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until_ms', 'bigint')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at_ms', 'bigint')
    .execute();
  // Only pending rows are ever looked for: partial indexes keep delivered ones out of the way.
  await db.schema
    .createIndex('outbox_due')
    .on('outbox')
    .columns(['next_attempt_at_ms', 'id'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('outbox_order')
    .on('outbox')
    .columns(['ordering_key', 'id'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  await index(db, 'outbox_session', 'outbox', ['session_id', 'id']);
}

/** The shared libraries every organisation starts with: system messages and the two default disposition sets. */
async function seedLibraries(db: Db) {
  const at = new Date().toISOString().slice(0, 19).replace('T', ' ');
  const messages: [string, string, string, string][] = [
    [
      'onetouch',
      'Sorry I missed you',
      'After a call that found nobody in',
      'Hi {first_name}, sorry I missed you just now. When is a good time to talk?',
    ],
    [
      'onetouch',
      'Thanks for your time',
      'After a good conversation',
      'Hi {first_name}, thank you for your time today. As promised, here is the information we discussed.',
    ],
    [
      'onetouch',
      'Following up',
      'A gentle follow-up',
      'Hi {first_name}, following up on our last conversation. Do you have a few minutes this week?',
    ],
    [
      'onetouch',
      'Voicemail follow-up',
      'After leaving a voicemail',
      'Hi {first_name}, I just left you a voicemail. Feel free to reply here instead.',
    ],
    ['onetouch', 'Sorry, wrong number', 'When the number reached someone else', 'Apologies for the call: we will update our records.'],
    [
      'script',
      'Discovery call',
      'Open, qualify, agree next steps',
      'Introduce yourself. Ask what prompted their interest. Confirm budget, authority, need and timing. Agree a next step.',
    ],
    [
      'script',
      'Renewal call',
      'For customers close to renewal',
      'Thank them for their business. Ask how things are going. Present the renewal options.',
    ],
  ];
  await db
    .insertInto('messages')
    .values(
      messages.map(([type, name, description, body], i) => ({
        org_id: null,
        type,
        display_name: name,
        description,
        body,
        display_order: i + 1,
        created_at: at,
      })),
    )
    .execute();
  const dialing = await insertSet(db, 'Dialing', 'dialing', 1);
  const answer = await insertSet(db, 'Live Answer', 'answer', 2);
  const rows: [number, string, string, string, number][] = [
    [dialing, 'No Answer', 'noanswer', '1', 0],
    [dialing, 'Busy', 'busy', '2', 0],
    [dialing, 'Bad Phone', 'badphone', '3', 0],
    [dialing, 'Fax', 'fax', '4', 0],
    [dialing, 'Voicemail', 'voicemail', '5', 0],
    [answer, 'Interested', 'interested', '6', 1],
    [answer, 'Not Interested', 'notinterested', '7', 1],
    [answer, 'Wrong Person', 'wrongperson', '8', 1],
    [answer, 'Call Back', 'callback', '9', 1],
  ];
  await db
    .insertInto('dispositions')
    .values(
      rows.map(([setId, label, key, shortcut, connected], i) => ({
        set_id: setId,
        label,
        status_key: key,
        shortcut,
        connected,
        display_order: i + 1,
      })),
    )
    .execute();
}

async function insertSet(db: Db, name: string, kind: string, order: number): Promise<number> {
  const row = await db
    .insertInto('disposition_sets')
    .values({ org_id: null, name, kind, enabled: 1, display_order: order })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id as number;
}

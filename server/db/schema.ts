import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Timestamps are stored as UTC text 'YYYY-MM-DD HH:MM:SS' so they sort and compare the same on every dialect. */
type Timestamp = string;
type Id = Generated<number>;
type Flag = ColumnType<number, number | undefined, number>;
/** Text columns that default to '' when an insert leaves them out. */
type Text = ColumnType<string, string | undefined, string>;

export type OrganisationsTable = {
  id: Id;
  name: string;
  /** Counts the writes to what contact records show from outside the contact (record-cache.ts). */
  catalog_version: Flag;
  /** Standard Webhooks secret callbacks are signed with; the previous one signs too for a day after a rotation. */
  callback_secret: string | null;
  callback_secret_previous: string | null;
  callback_secret_rotated_at: Timestamp | null;
  /** Whether calls are recorded (migration 0014), and how long recordings and transcripts are kept. */
  record_calls: Flag;
  recording_retention_days: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
};

export type MemberRole = 'vendor' | 'manager' | 'member';

export type MembersTable = {
  id: Id;
  org_id: number;
  parent_id: number | null;
  role: MemberRole;
  username: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  billing_item_id: string;
  billing_group_id: string;
  subgroup_id: string;
  subscription_status: string;
  token_generation: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Set when the member was removed (migration 0012): it keeps its history and loses every way in. */
  removed_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
};

/**
 * Bearer tokens by kind: 'personal', the one derived per member and generation (auth/tokens.ts); 'named', those a
 * member makes on its settings (name, last used); 'oauth', issued to an integration under a grant (migration 0024).
 */
export type TokenKind = 'personal' | 'named' | 'oauth';

export type AccessTokensTable = {
  id: Id;
  member_id: number;
  token_hash: string;
  kind: TokenKind;
  created_at: Timestamp;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  grant_id: number | null;
  name: string | null;
  /** Written at most once a minute per token (auth/tokens.ts), not on every request. */
  last_used_at: Timestamp | null;
};

/** An integration an organisation's vendor registered: its secret's SHA-256 and its exact redirect URIs (a JSON list). */
export type OauthClientsTable = {
  id: Id;
  org_id: number;
  name: string;
  client_id: string;
  secret_hash: string;
  redirect_uris: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
};

/** An authorization code (its SHA-256), given at consent, redeemed once. */
export type OauthCodesTable = {
  id: Id;
  code_hash: string;
  client_id: number;
  member_id: number;
  redirect_uri: string;
  /** PKCE's S256 challenge, when the client sent one. */
  code_challenge: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
};

/** The tokens issued from one code: revoked as one (disconnect, a code or refresh token used twice). */
export type OauthGrantsTable = {
  id: Id;
  client_id: number;
  member_id: number;
  code_id: number;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
};

export type OauthRefreshTokensTable = {
  id: Id;
  grant_id: number;
  token_hash: string;
  created_at: Timestamp;
  /** Set when it was exchanged for the next one: presenting it again revokes the grant. */
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
};

export type SessionsTable = {
  id_hash: string;
  member_id: number;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
};

/** Sign-in attempts counted per key (an account, an address, the pair) in a window (login-throttle.ts). */
export type SignInAttemptsTable = {
  key: string;
  attempts: number;
  window_started_at: Timestamp;
};

export type FoldersTable = {
  id: Id;
  org_id: number;
  parent_id: number | null;
  name: string;
  description: Text;
  created_by: number;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type ContactsTable = {
  id: Id;
  org_id: number;
  owner_id: number;
  folder_id: number | null;
  source_id: number | null;
  first_name: Text;
  last_name: Text;
  /** Denormalised primary e-mail (as entered) and phone (digits) for listing and search. */
  email: Text;
  phone: Text;
  original_ip: Text;
  unique_id: Text;
  ad_code: Text;
  language: Text;
  region: Text;
  time_zone: Text;
  location_name: Text;
  latitude: Text;
  longitude: Text;
  raw_zip: Text;
  raw_phone: Text;
  last_login: Timestamp | null;
  total_logins: Flag;
  points: Flag;
  do_not_call: Flag;
  call_result: string | null;
  gender: Text;
  date_of_birth: string | null;
  site_id: Text;
  archived: Flag;
  trashed: Flag;
  removed: Flag;
  viewed: Flag;
  rating: Flag;
  contacted_at: Timestamp | null;
  consent_date: string | null;
  lead_id: Text;
  token: Text;
  return_lead_token: Text;
  order_number: Text;
  lead_vendor_product_name: Text;
  total_calls: Flag;
  last_call_time: Timestamp | null;
  /** Bits of the sparse detail tables that may hold rows for this contact (DETAIL_KINDS in contact-writes.ts). */
  detail_kinds: Flag;
  /** Counts the writes to the contact's row and its own detail rows (record-cache.ts). */
  version: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
  trashed_at: Timestamp | null;
};

export type ContactPhonesTable = {
  id: Id;
  contact_id: number;
  phone_number: string;
  type: number;
  label: Text;
  is_primary: Flag;
};

export type ContactEmailsTable = {
  id: Id;
  contact_id: number;
  email_address: string;
  /** Lower-cased address for exact, case-insensitive lookups and duplicate checks. */
  email_lc: string;
  is_primary: Flag;
  status: Text;
};

export type ContactAddressesTable = {
  id: Id;
  contact_id: number;
  address: Text;
  address_2: Text;
  city: Text;
  state: Text;
  state_other: Text;
  zip: Text;
  country: Text;
  type: Text;
  is_primary: Flag;
};

export type ContactNamesTable = { id: Id; contact_id: number; first_name: string; last_name: string };
export type ContactAnswersTable = { id: Id; contact_id: number; question: string; answer: string };
export type ContactSocialAccountsTable = { id: Id; contact_id: number; type: number; account: string };
export type ContactCrmLinksTable = { id: Id; contact_id: number; crm_id: string; crm_name: string };

export type ContactNotesTable = {
  id: Id;
  contact_id: number;
  author_id: number | null;
  body: string;
  created_at: Timestamp;
};

export type ContactSearchTermsTable = { org_id: number; term: string; contact_id: number };
/** The FTS5 trigram index of contacts' names, e-mail addresses and phone digits (rowid = contact id; contentless). */
/** The trigram index: keyed by `rowid` (FTS5's) on SQLite, by `contact_id` on PostgreSQL (contacts/search/). */
/** SQLite: an FTS5 table by rowid. PostgreSQL: rows by contact_id, with the contact's owner (migration 0023). */
export type ContactSearchTable = { rowid: number; contact_id?: number; owner_id?: number; names: string; emails: string; phones: string };
/** The word index (contact-words.ts): a contact's tokens behind its owner's mark, while it is neither trashed nor archived. */
export type ContactWordsTable = { rowid: number; words: string };

export type TagsTable = { id: Id; org_id: number; title: string; title_lc: string; created_at: Timestamp };
export type ContactTagsTable = { contact_id: number; tag_id: number };

export type CustomFieldsTable = {
  id: Id;
  org_id: number;
  display_name: string;
  name_lc: string;
  type_id: number;
  display_order: number;
  created_at: Timestamp;
};
export type CustomFieldOptionsTable = { id: Id; custom_field_id: number; label: string };
export type ContactCustomValuesTable = { contact_id: number; custom_field_id: number; value: string | null };

export type ContactActivitiesTable = {
  id: Id;
  contact_id: number;
  member_id: number | null;
  activity_type: number;
  activity: string;
  created_at: Timestamp;
};

export type ContactAuditTable = {
  id: Id;
  contact_id: number;
  member_id: number | null;
  action: string;
  data_type: string;
  old_value: string;
  new_value: string;
  created_at: Timestamp;
};

/** Contacts per owner, folder (0: none) and state; see migrations/0002-contact-counts.ts. */
export type ContactCountsTable = {
  org_id: number;
  owner_id: number;
  folder_key: number;
  trashed: number;
  archived: number;
  /** A partition's count may be spread over rows of a few stripes (migration 0022): readers sum them. */
  stripe: Generated<number>;
  n: number;
};

/** A member's dial settings as one JSON object (contracts/dial-settings.ts), read and written whole. */
export type DialSettingsTable = { member_id: number; values: string; updated_at: Timestamp };

/** The message library: org_id null for the system's shared messages. */
export type MessagesTable = {
  id: Id;
  org_id: number | null;
  type: string;
  display_name: Text;
  description: Text;
  body: Text;
  display_order: Flag;
  created_at: Timestamp;
  /** Who wrote it (migration 0025): that member changes it; null for the system's and the organisation's older ones. */
  member_id: ColumnType<number | null, number | null | undefined, number | null>;
  subject: Text;
};

export type VoicemailsTable = {
  id: Id;
  org_id: number;
  member_id: number | null;
  name: string;
  content_type: string;
  audio: Buffer;
  duration_ms: number;
  created_at: Timestamp;
  /** Given by the system (the starter greeting): only the vendor changes it. */
  system: Flag;
};

export type DispositionSetsTable = {
  id: Id;
  org_id: number | null;
  name: Text;
  kind: 'dialing' | 'answer';
  enabled: Flag;
  display_order: Flag;
};
export type DispositionsTable = {
  id: Id;
  set_id: number;
  label: Text;
  status_key: Text;
  shortcut: Text;
  connected: Flag;
  display_order: Flag;
};

export type DialSessionStatus = 'ready' | 'active' | 'ended';

export type DialSessionsTable = {
  id: Id;
  org_id: number;
  member_id: number;
  status: DialSessionStatus;
  /** The engine's phase for the current contact (dialer/engine.ts). */
  phase: string;
  /** The current queue position; -1 before the session starts. */
  position: number;
  contact_count: number;
  preview_mode: Flag;
  send_skips: Flag;
  dialing_set_id: number | null;
  answer_set_id: number | null;
  preset_id: number | null;
  /** When the engine wants to be woken (ms since the epoch): a lost carrier event times out here. */
  wake_at_ms: number | null;
  /** The position whose api_calldone waits for the next contact's api_contact_displayed. */
  pending_done: number | null;
  custom_data: string | null;
  callerid: string | null;
  idempotency_key: string | null;
  /** The `errors` its creation answered (JSON), so that a repeated request is answered the same. */
  creation_errors: string | null;
  request_hash: string;
  started_at: Timestamp | null;
  ended_at: Timestamp | null;
  connected_at: Timestamp | null;
  disconnected_at: Timestamp | null;
  created_at: Timestamp;
};

export type DialSessionCallbacksTable = { session_id: number; type: string; url: string };

export type QueueStatus = 'pending' | 'current' | 'done' | 'skipped';
export type DialSessionContactsTable = {
  session_id: number;
  position: number;
  contact_id: number;
  status: QueueStatus;
  skip_reason: string | null;
  call_id: number | null;
  result: string | null;
};

export type SsoKeysTable = { key_hash: string; member_id: number; session_id: number; expires_at: Timestamp; used_at: Timestamp | null };

export type DialEventsTable = { id: Id; session_id: number; type: string; data: string; created_at: Timestamp };

export type CallsTable = {
  id: Id;
  session_id: number;
  org_id: number;
  member_id: number;
  contact_id: number;
  position: number;
  phone: Text;
  started_at: Timestamp;
  connected_at: Timestamp | null;
  ended_at: Timestamp | null;
  /** A person answered. */
  connected: Flag;
  /** Dispositioned as a live conversation (the disposition's `connected` flag). */
  live: Flag;
  /** An answering machine answered. */
  machine: Flag;
  /** A voicemail was left: dropped from the library, or dispositioned as Voicemail. */
  voicemail: Flag;
  voicemail_sent: string | null;
  email_sent: Flag;
  email_ok: Flag;
  hangup_status: Text;
  message_id: string | null;
  /** The notes the rep wrote during the call, as a JSON array of strings. */
  notes: ColumnType<string, string | undefined, string>;
  disposition: Text;
  disposition_key: string | null;
  /** Seconds from dialing to the end of the call. */
  duration: Flag;
  /** Seconds a person was on the line. */
  talk_seconds: Flag;
};

/** A member's usage figures over the calls it dialed on one UTC day (modules/dial-sessions/calls.repository.ts). */
export type UsageDaysTable = {
  org_id: number;
  member_id: number;
  day: string;
  calls: number;
  connected: number;
  voicemail: number;
  emails: number;
  talk_seconds: number;
};
/** Which sessions had a call of the member on the day: usage counts distinct sessions over a range of days. */
export type UsageDaySessionsTable = { org_id: number; member_id: number; day: string; session_id: number };
/** Calls of the member on the day per disposition label ('' before a disposition): the usage screen's outcomes. */
export type UsageDispositionsTable = { org_id: number; member_id: number; day: string; disposition: string; calls: number };

export type OutboxState = 'pending' | 'delivered' | 'failed';
export type OutboxTable = {
  id: Id;
  org_id: number;
  session_id: number | null;
  /** Rows with the same key are delivered one after another, in id order (a session's callbacks to one URL). */
  ordering_key: string;
  type: string;
  url: string;
  body: string;
  state: OutboxState;
  attempts: Flag;
  created_at_ms: number;
  next_attempt_at_ms: number;
  lease_owner: string | null;
  lease_until_ms: number | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at_ms: number | null;
};

export type EmailState = 'pending' | 'sent' | 'failed';
/** A disposition e-mail to send (server/mail/): merged when queued, delivered by a leased job in any process. */
export type EmailsTable = {
  id: Id;
  call_id: number;
  org_id: number;
  member_id: number;
  message_id: number;
  to_address: string;
  from_name: string;
  from_address: string;
  subject: string;
  body: string;
  state: EmailState;
  attempts: Flag;
  next_attempt_at_ms: number;
  lease_owner: string | null;
  lease_until_ms: number | null;
  last_error: string | null;
  created_at_ms: number;
  sent_at_ms: number | null;
};

export type BulkJobStatus = 'queued' | 'running' | 'done' | 'failed';
export type BulkJobsTable = {
  id: Id;
  org_id: number;
  member_id: number;
  action: string;
  /** The action's values as JSON (the tag, folder or member). */
  params: string;
  /** What it works on, as JSON: `{ ids }` or `{ filter }` (a contacts list's filters). */
  selection: string;
  status: BulkJobStatus;
  total: number;
  processed: Flag;
  changed: Flag;
  /** Filter selections: the lowest contact id done so far (the list is worked through newest first). */
  cursor: number | null;
  error: string | null;
  /** Chunks in a row that failed on an unexpected error (retried after a pause; the job fails at MAX_FAILURES). */
  failures: Flag;
  lease_owner: string | null;
  lease_until_ms: number | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
};

/** A call's recording: announced by the carrier, fetched into the recording store by a leased job (recordings.service). */
/** expected: the carrier records an answered call and has not yet said the file is ready (migration 0020). */
export type RecordingState = 'expected' | 'announced' | 'stored' | 'failed' | 'deleted';
export type RecordingsTable = {
  id: Id;
  call_id: number;
  org_id: number;
  state: RecordingState;
  /** Where the carrier serves it until fetched. */
  source_url: string;
  /** Its key in the recording store, once stored. */
  storage_key: string | null;
  content_type: string;
  bytes: Flag;
  duration_ms: Flag;
  attempts: Flag;
  next_attempt_at_ms: number;
  lease_owner: string | null;
  lease_until_ms: number | null;
  error: string | null;
  created_at: Timestamp;
  stored_at: Timestamp | null;
};

/** The contract names 'completed' and 'summarized'; the rest are ours (docs/api.md, transcripts). */
export type TranscriptStatus = 'queued' | 'processing' | 'completed' | 'summarized' | 'failed' | 'unavailable' | 'deleted';
export type TranscriptsTable = {
  id: Id;
  call_id: number;
  org_id: number;
  status: TranscriptStatus;
  reason: string | null;
  engine: string | null;
  /** The segments as JSON: [{ speaker_label, start, end, text, words }], seconds. */
  segments: string | null;
  /** Every word said, for search by words said. */
  text: Text;
  talk_member_ms: Flag;
  talk_contact_ms: Flag;
  duration_ms: Flag;
  summary: string | null;
  attempts: Flag;
  next_attempt_at_ms: number;
  lease_owner: string | null;
  lease_until_ms: number | null;
  created_at: Timestamp;
  completed_at: Timestamp | null;
};

/** A periodic pass shared by every server (db/passes.ts): when the next is due, and the lease of the one passing. */
export type PassesTable = {
  name: string;
  due_at_ms: number;
  lease_owner: string | null;
  lease_until_ms: number | null;
};

/** A CSV import (migration 0026): the file as staged, the run's mapping, counts and lease; its rows in import_rows. */
export type ImportsTable = {
  id: Id;
  org_id: number;
  member_id: number;
  filename: string;
  byte_size: number;
  encoding: string;
  delimiter: string;
  /** The header's fields, JSON. */
  header: string;
  /** Per column, the first non-empty values, JSON. */
  samples: string;
  row_count: number;
  /** 'staging' while the upload streams in (never shown; a file refused midway is deleted). */
  status: 'staging' | 'uploaded' | 'queued' | 'running' | 'done' | 'failed' | 'undoing' | 'undone';
  dry_run: Flag;
  /** The last run's mapping and duplicate rule, JSON. */
  mapping: string | null;
  duplicates: string | null;
  created: Flag;
  updated: Flag;
  skipped: Flag;
  refused: Flag;
  /** The run's cursor: rows 1..rows_done have their outcome (undo: rows undone so far, counting down is not needed). */
  rows_done: Flag;
  not_restored: Flag;
  error: string | null;
  failures: Flag;
  lease_owner: string | null;
  lease_until_ms: number | null;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  undone_at: Timestamp | null;
};

export type ImportRowsTable = {
  import_id: number;
  row_no: number;
  /** The row's fields as decoded, JSON array of strings. */
  fields: string;
  outcome: 'created' | 'updated' | 'skipped' | 'refused' | null;
  contact_id: number | null;
  reason: string | null;
  /** What the row added or filled on an existing contact (JSON), for undo; for an undo, what it left (JSON). */
  changes: string | null;
};

export type ImportMappingsTable = {
  id: Id;
  org_id: number;
  member_id: number;
  name: string;
  mapping: string;
  created_at: Timestamp;
};

export type Database = {
  organisations: OrganisationsTable;
  members: MembersTable;
  access_tokens: AccessTokensTable;
  oauth_clients: OauthClientsTable;
  oauth_codes: OauthCodesTable;
  oauth_grants: OauthGrantsTable;
  oauth_refresh_tokens: OauthRefreshTokensTable;
  sessions: SessionsTable;
  sign_in_attempts: SignInAttemptsTable;
  folders: FoldersTable;
  contacts: ContactsTable;
  contact_counts: ContactCountsTable;
  contact_phones: ContactPhonesTable;
  contact_emails: ContactEmailsTable;
  contact_addresses: ContactAddressesTable;
  contact_names: ContactNamesTable;
  contact_answers: ContactAnswersTable;
  contact_social_accounts: ContactSocialAccountsTable;
  contact_crm_links: ContactCrmLinksTable;
  contact_notes: ContactNotesTable;
  contact_search_terms: ContactSearchTermsTable;
  contact_search: ContactSearchTable;
  contact_words: ContactWordsTable;
  tags: TagsTable;
  contact_tags: ContactTagsTable;
  custom_fields: CustomFieldsTable;
  custom_field_options: CustomFieldOptionsTable;
  contact_custom_values: ContactCustomValuesTable;
  contact_activities: ContactActivitiesTable;
  contact_audit: ContactAuditTable;
  dial_settings: DialSettingsTable;
  messages: MessagesTable;
  voicemails: VoicemailsTable;
  disposition_sets: DispositionSetsTable;
  dispositions: DispositionsTable;
  dial_sessions: DialSessionsTable;
  dial_session_callbacks: DialSessionCallbacksTable;
  dial_session_contacts: DialSessionContactsTable;
  sso_keys: SsoKeysTable;
  dial_events: DialEventsTable;
  calls: CallsTable;
  usage_days: UsageDaysTable;
  usage_day_sessions: UsageDaySessionsTable;
  usage_dispositions: UsageDispositionsTable;
  outbox: OutboxTable;
  emails: EmailsTable;
  bulk_jobs: BulkJobsTable;
  imports: ImportsTable;
  import_rows: ImportRowsTable;
  import_mappings: ImportMappingsTable;
  recordings: RecordingsTable;
  transcripts: TranscriptsTable;
  passes: PassesTable;
};

export type Member = Selectable<MembersTable>;
export type NewMember = Insertable<MembersTable>;
export type MemberUpdate = Updateable<MembersTable>;
export type Contact = Selectable<ContactsTable>;
export type NewContact = Insertable<ContactsTable>;
export type ContactUpdate = Updateable<ContactsTable>;
export type Folder = Selectable<FoldersTable>;
export type DialSession = Selectable<DialSessionsTable>;
export type Call = Selectable<CallsTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type EmailRow = Selectable<EmailsTable>;
export type Disposition = Selectable<DispositionsTable>;
export type BulkJob = Selectable<BulkJobsTable>;
export type Recording = Selectable<RecordingsTable>;
export type Transcript = Selectable<TranscriptsTable>;

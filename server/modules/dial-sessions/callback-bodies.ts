import type { ContactRecord } from '../../contracts/contact-records.js';
import type { Call, DialSession, Member } from '../../db/schema.js';
import { timestampOrZero } from '../../lib/time.js';

/*
 * The bodies of the callbacks integrations receive, exactly in the contract's and compat-notes' shapes: receivers
 * that ignore headers see nothing of ours. Built from the contact's record as the API shows it.
 */

type Person = Pick<Member, 'id' | 'first_name' | 'last_name' | 'username' | 'email'>;
/** A contact that left the rep's reach: its callbacks name it and the number called, and show nothing of it as it is now. */
export type WithheldContact = { withheld: true; contact_user_id: string; lead_id: string };
export type CallbackParties = { contact: ContactRecord | WithheldContact; agent: Person; owner: Person | undefined };

const person = (m: Person | undefined) =>
  m ? { user_id: m.id, first_name: m.first_name, last_name: m.last_name, username: m.username, email: m.email } : null;

/** custom_data as given at creation; `[]` when none was given, as the real service sends. */
const customData = (session: DialSession) => (session.custom_data === null ? [] : JSON.parse(session.custom_data));

export function contactDisplayedBody(contact: ContactRecord) {
  return {
    endpoint: 'api_contact_displayed',
    contact_user_id: Number(contact.contact_user_id),
    lead_id: contact.lead_id,
    external_id: contact.external_crm_data[0]?.crm_id ?? contact.unique_id,
    external_crm: contact.external_crm_data,
  };
}

export function callBeginBody(session: DialSession, call: Call, contact: ContactRecord) {
  return { lead_id: contact.lead_id, custom_data: customData(session), ds_id: session.id, call_id: String(call.id) };
}

type Outcome =
  /** `recordingUrl`: where the call's recording is fetched, when it is recorded (it may be stored a moment later). */
  { kind: 'call'; call: Call; notes: string[]; recordingUrl: string | null } | { kind: 'skip'; reason: string; at: string };

/** api_calldone, for a call that ended, or for a contact skipped without a call ("Skipped - <reason>"). */
export function callDoneBody(session: DialSession, outcome: Outcome, parties: CallbackParties) {
  const call = outcome.kind === 'call' ? outcome.call : null;
  const skipped = outcome.kind === 'skip' ? outcome : null;
  const { contact } = parties;
  return {
    status: skipped ? `Skipped - ${skipped.reason}` : call!.disposition,
    duration: call?.duration ?? 0,
    start_time: call ? call.started_at : skipped!.at,
    end_time: call ? timestampOrZero(call.ended_at) : skipped!.at,
    call_id: call ? String(call.id) : '',
    ds_id: session.id,
    connected: call?.connected ? '1' : '0',
    recording_url: outcome.kind === 'call' ? outcome.recordingUrl : null,
    contact: 'withheld' in contact ? withheldContact(contact, call) : contactOf(contact, call),
    custom_data: customData(session),
    custom_fields:
      'withheld' in contact || !contact.custom_fields.length
        ? false
        : Object.fromEntries(contact.custom_fields.map((f) => [f.name, f.value])),
    call_notes: skipped
      ? [`Skipped - ${skipped.reason}: ${SKIP_MESSAGES[skipped.reason] ?? 'the dialer passed over this contact.'}`]
      : outcome.kind === 'call'
        ? outcome.notes
        : [],
    agent: person(parties.agent),
    owner: person(parties.owner),
  };
}

function contactOf(contact: ContactRecord, call: Call | null) {
  return {
    user_id: Number(contact.contact_user_id),
    lead_id: contact.lead_id,
    phone: call?.phone ?? contact.primary_phone.raw_phone,
    first_name: contact.first_name,
    last_name: contact.last_name,
    phones: (contact.phones ?? []).map((p) => ({ number: p.phone_number, phone_type: p.type_name, phone_label: p.label })),
    addresses:
      contact.primary_address.is_primary === '1'
        ? [
            {
              address: contact.primary_address.address,
              address_2: contact.primary_address.address_2,
              city: contact.primary_address.city,
              state: contact.primary_address.state,
              zip: contact.primary_address.zip,
            },
          ]
        : [],
    notes: contact.notes.notes,
  };
}

/** The same keys, so receivers parse it as always, with nothing of a contact its rep may no longer see. */
function withheldContact(contact: WithheldContact, call: Call | null) {
  return {
    user_id: Number(contact.contact_user_id),
    lead_id: contact.lead_id,
    phone: call?.phone ?? '',
    first_name: '',
    last_name: '',
    phones: [],
    addresses: [],
    notes: '',
  };
}

/** The full skip message a skipped contact's callback carries in its notes. */
export const SKIP_MESSAGES: Record<string, string> = {
  DNC: 'the contact is marked do not call.',
  'Calling Hours': "it was outside the account's calling hours in the contact's local time.",
  'Invalid Number': 'the contact has no valid North American phone number.',
  Manual: 'the rep skipped the contact.',
};

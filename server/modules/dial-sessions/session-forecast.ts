import type { AuthContext } from '../../auth/access.js';
import { phoneDigits } from '../../contracts/contacts.js';
import { CONTACT_LIMIT, type CreateDialSessionBody, existingContactEntry } from '../../contracts/dial-sessions.js';
import type { DialSettings } from '../../contracts/dial-settings.js';
import type { Db } from '../../db/database.js';
import { contactZones, type SkipFacts, type SkipReason, skipReason } from '../../dialer/skip-rules.js';
import { currentDate } from '../../lib/clock.js';
import { withoutNulls } from '../../lib/validate.js';
import { findVisibleContacts } from '../contacts/contacts.repository.js';
import { filteredContactIds } from './session-contacts.js';

export type Forecast = {
  total: number;
  to_dial: number;
  skipped: Partial<Record<SkipReason, number>>;
  skipped_count: number;
  contact_limit: number;
};

/** How many of these contacts the skip rules would pass over if they came up now, and why. */
export function forecast(facts: SkipFacts[], settings: DialSettings, at = currentDate()): Forecast {
  const skipped: Partial<Record<SkipReason, number>> = {};
  let count = 0;
  for (const f of facts) {
    const reason = skipReason(f, { min: settings.calltime_min, max: settings.calltime_max }, at);
    if (!reason) continue;
    skipped[reason] = (skipped[reason] ?? 0) + 1;
    count++;
  }
  return { total: facts.length, to_dial: facts.length - count, skipped, skipped_count: count, contact_limit: CONTACT_LIMIT };
}

const factsOfRow = (c: { do_not_call: number; phone: string; time_zone: string }): SkipFacts => ({
  doNotCall: !!c.do_not_call,
  phone: c.phone,
  zones: contactZones({ phone: c.phone, timeZone: c.time_zone }),
});

/** The facts of stored contacts, in the order of the ids (read in chunks: a session holds up to 5,000). */
export async function storedFacts(db: Db, auth: AuthContext, ids: number[]): Promise<SkipFacts[]> {
  const rows = new Map<number, SkipFacts>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const c of await findVisibleContacts(db, auth.scope, ids.slice(i, i + 500))) rows.set(c.id, factsOfRow(c));
  }
  return ids.flatMap((id) => rows.get(id) ?? []);
}

/**
 * The skip forecast of a launch before it happens (extension): for the entries of a creation body, from their own
 * fields (new contacts) or the store (contact_user_id), and for contact_filter, from the store.
 */
export async function forecastBody(db: Db, auth: AuthContext, body: CreateDialSessionBody, settings: DialSettings): Promise<Forecast> {
  const named: number[] = [];
  const given: SkipFacts[] = [];
  for (const raw of body.contacts ?? []) {
    const existing = existingContactEntry.safeParse(withoutNulls(raw));
    if (existing.success) named.push(existing.data.contact_user_id);
    else given.push(factsOfEntry(raw));
  }
  const filtered = body.contact_filter ? await filteredContactIds(db, auth, body.contact_filter, named.length + given.length) : [];
  return forecast([...given, ...(await storedFacts(db, auth, [...named, ...filtered]))], settings);
}

function factsOfEntry(raw: unknown): SkipFacts {
  const entry = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const phone = phoneDigits(String(entry.phone ?? ''));
  const dnc = ['1', 'true', 'yes', 'on'].includes(String(entry.do_not_call ?? '').toLowerCase());
  return { doNotCall: dnc, phone, zones: contactZones({ phone, timeZone: String(entry.time_zone ?? '') }) };
}

import { describe, expect, it } from 'vitest';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { conflictRows } from './conflict-review';
import { emptyContactValues, type ContactFormValues } from './contact-form-schema';
import { displayValue, sameValue } from './field-changes';

/** Only what the comparison reads of a record. */
function record(
  fields: Partial<{ first_name: string; last_name: string; email: string; phone: string; city: string; notes: string }>,
): ContactRecord {
  return {
    contact_user_id: '7',
    first_name: fields.first_name ?? '',
    last_name: fields.last_name ?? '',
    category_id: '0',
    rating: '0',
    consent_date: '0000-00-00',
    primary_email: { email_address: fields.email ?? '' },
    primary_phone: { phone: fields.phone ?? '', type: '1' },
    phones: null,
    primary_address: { address: '', address_2: '', city: fields.city ?? '', state: '', zip: '', country: '' },
    notes: { notes: fields.notes ?? '' },
  } as unknown as ContactRecord;
}

describe('sameValue', () => {
  it.each([
    ['email', 'Dana@Example.com', 'dana@example.com', true],
    ['phone', '(415) 555-0101', '14155550101', true],
    ['phone', '415-555-0101', '415-555-0102', false],
    ['first_name', ' Dana ', 'Dana', true],
    ['first_name', 'Dana', 'dana', false],
  ] as const)('%s: %s vs %s is %s', (field, a, b, same) => {
    expect(sameValue(field, a, b)).toBe(same);
  });
});

describe('displayValue', () => {
  it.each([
    ['phone', '4155550101', '(415) 555-0101'],
    ['rating', '1', '1 star'],
    ['rating', '4', '4 stars'],
    ['phone_type', '3', 'Cell'],
    ['city', '', '—'],
  ] as const)('%s %j reads %j', (field, value, shown) => {
    expect(displayValue(field, value, [])).toBe(shown);
  });
});

describe('conflictRows', () => {
  const base = record({ first_name: 'Morgan', last_name: 'Shared', city: 'Austin' });
  const typed = (changes: Partial<ContactFormValues>): ContactFormValues => ({
    ...emptyContactValues,
    first_name: 'Morgan',
    last_name: 'Shared',
    city: 'Austin',
    ...changes,
  });

  it('shows what they changed, what the user changed, and flags a field both changed differently', () => {
    const current = { record: record({ first_name: 'Morgan', last_name: 'Sharp', city: 'Boston' }), etag: '"7.3"' };
    const rows = conflictRows(
      { base, current, typed: typed({ first_name: 'Morgana', city: 'Dallas' }), dirty: { first_name: true, city: true } },
      [],
    );
    expect(rows.map((r) => [r.field, r.cells, Boolean(r.clash)])).toEqual([
      ['first_name', ['Morgan', 'Morgan', 'Morgana'], false],
      ['last_name', ['Shared', 'Sharp', 'Not changed by you'], false],
      ['city', ['Austin', 'Boston', 'Dallas'], true],
    ]);
  });

  it('lists a note the user adds and one someone else added', () => {
    const current = {
      record: record({ first_name: 'Morgan', last_name: 'Shared', city: 'Austin', notes: '2026-11-23 10:00:00 - Alex: Called.\n\nolder' }),
      etag: null,
    };
    const rows = conflictRows({ base, current, typed: typed({ notes: 'Prefers e-mail.' }), dirty: { notes: true } }, []);
    expect(rows).toEqual([
      { field: 'notes', label: 'Notes', cells: ['—', 'Added: 2026-11-23 10:00:00 - Alex: Called.', 'Adds: Prefers e-mail.'] },
    ]);
  });

  it('is empty when nobody changed anything that shows', () => {
    expect(conflictRows({ base, current: { record: base, etag: null }, typed: typed({}), dirty: {} }, [])).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { duplicateUpdateOf } from './duplicate-merge';

const contact = (phones: string[], emails: string[]) =>
  ({
    phones: phones.length
      ? phones.map((n, i) => ({ id: i + 1, type: 1, type_name: 'HOME', phone_number: n, phone: n, label: '', is_primary: i === 0 }))
      : null,
    emails: emails.map((e, i) => ({ id: i + 1, email_address: e, is_primary: i === 0 })),
  }) as unknown as ContactRecord;

describe('duplicateUpdateOf', () => {
  it('adds a new phone beside the existing one instead of replacing it', () => {
    const update = duplicateUpdateOf(contact(['3125550100'], []), { first_name: 'Ann', phone: '(312) 555-0144', phone_type: '2' });
    expect(update.body).toEqual({ first_name: 'Ann', additional_phone: [{ number: '(312) 555-0144', phone_type: '2' }] });
    expect(update.phone).toBe('adds');
  });

  it('leaves out a phone the contact already has, however it is written', () => {
    const update = duplicateUpdateOf(contact(['3125550144'], []), { phone: '1-312-555-0144', phone_type: '3', last_name: 'Lee' });
    expect(update.body).toEqual({ last_name: 'Lee' });
    expect(update.phone).toBeUndefined();
  });

  it('sets the phone of a contact that has none', () => {
    expect(duplicateUpdateOf(contact([], []), { phone: '3125550144', phone_type: '3' }).body).toEqual({
      phone: '3125550144',
      phone_type: '3',
    });
  });

  it('adds a new e-mail address beside the existing one (after the update), and skips one it has in any case', () => {
    const update = duplicateUpdateOf(contact([], ['ann@example.com']), { email: 'ann@work.example', allow_duplicates: 1 });
    expect(update).toEqual({ body: {}, addEmail: 'ann@work.example', email: 'adds' });
    expect(duplicateUpdateOf(contact([], ['Ann@Example.com']), { email: 'ann@example.com' })).toEqual({ body: {} });
    expect(duplicateUpdateOf(contact([], []), { email: 'ann@example.com' }).body).toEqual({ email: 'ann@example.com' });
  });
});

import { describe, expect, it } from 'vitest';
import { createMessageBody, type MergeField, mergeFields, unknownMergeFields } from './content.js';

const VALUES: Record<MergeField, string> = {
  first_name: 'Nora',
  last_name: 'Quinn',
  email: 'nora@example.com',
  phone: '3125550144',
  member_first_name: 'Rick',
  member_last_name: 'Test',
  member_email: 'rick@example.com',
  member_phone: '',
};

describe('merge fields', () => {
  it.each([
    ['Hi {first_name} {last_name}', 'Hi Nora Quinn'],
    ['{ first_name }, call {member_first_name} on {member_phone}.', 'Nora, call Rick on .'],
    ['No fields at all', 'No fields at all'],
    ['{first_name}{first_name}', 'NoraNora'],
  ])('merges %j', (text, merged) => {
    expect(unknownMergeFields(text)).toEqual([]);
    expect(mergeFields(text, VALUES)).toBe(merged);
  });

  it.each([
    ['Hi {firstname}', ['firstname']],
    ['{company} and {company} and {}', ['company', '']],
    ['{constructor} {toString}', ['constructor', 'toString']],
  ])('finds the unknown fields of %j, each once', (text, unknown) => {
    expect(unknownMergeFields(text)).toEqual(unknown);
  });

  it('refuses a message naming an unknown field, and names the known ones', () => {
    const result = createMessageBody.safeParse({ display_name: 'X', subject: 'S', body: 'Hi {firstname}' });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({
      path: ['body'],
      message: expect.stringMatching(/\{firstname\}.*known: \{first_name\}/),
    });
  });

  it('reads null as not given and name as display_name', () => {
    expect(createMessageBody.parse({ name: 'N', subject: 'S', body: 'B', description: null })).toEqual({
      display_name: 'N',
      subject: 'S',
      body: 'B',
      description: '',
    });
  });
});

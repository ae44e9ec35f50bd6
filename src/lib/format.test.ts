import { describe, expect, it } from 'vitest';
import { spokenPhone } from '../features/contact-page/audit-format';
import { addressLines, formatFieldValue, noteEntries, phoneTypeWord } from './format';

describe('the words and formats every screen shares', () => {
  it('says custom values as people read them: a checkbox Yes/No, a date in the app format, the rest as stored', () => {
    expect(formatFieldValue(2, '1')).toBe('Yes');
    expect(formatFieldValue('2', '0')).toBe('No');
    expect(formatFieldValue(3, '2026-03-04')).not.toContain('2026-03-04');
    expect(formatFieldValue(3, '2026-03-04')).toMatch(/2026/);
    expect(formatFieldValue(1, 'Acme')).toBe('Acme');
    expect(formatFieldValue(1, '')).toBe('—');
  });

  it('reads the notes history into entries with their date and author, and keeps text that has neither', () => {
    expect(noteEntries('2026-11-20 15:00:00 - Alex Turner: Call back\n\nloose text')).toEqual([
      { when: '2026-11-20 15:00:00', author: 'Alex Turner', text: 'Call back', raw: '2026-11-20 15:00:00 - Alex Turner: Call back' },
      { when: '', author: '', text: 'loose text', raw: 'loose text' },
    ]);
    expect(noteEntries(undefined)).toEqual([]);
  });

  it('lays an address out as lines and says phone types and audited phones in words', () => {
    const address = { address: '1 Main St', address_2: '', city: 'Springfield', state: 'IL', zip: '62701', country: 'US' };
    expect(addressLines(address)).toEqual(['1 Main St', 'Springfield, IL 62701', 'US']);
    expect(phoneTypeWord('WORK')).toBe('work');
    expect(phoneTypeWord('CELL', true)).toBe('Cell');
    expect(spokenPhone('3125550144 WORK "desk"')).toBe('(312) 555-0144 (work, desk)');
    expect(spokenPhone('3125550144')).toBe('(312) 555-0144');
  });
});

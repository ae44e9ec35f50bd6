import { describe, expect, it } from 'vitest';
import { listBody, listBytes, pageMeta } from './envelope.js';

describe('listBody', () => {
  const meta = pageMeta({ page: 2, page_size: 25 }, 51);
  const whole = (key: string, items: unknown[], extra: Record<string, unknown> = {}) =>
    JSON.stringify({ http_status: 200, status: 'success', [key]: { [key]: items, ...meta, ...extra } });

  it('writes the same text as serializing the whole envelope at once', () => {
    const items = [
      { id: '1', name: 'Zoë "Z" O\'Neil', nested: { list: [1, null, 'x'] } },
      { id: '2', notes: 'line\nbreak' },
    ];
    expect(
      listBody(
        'contacts',
        items.map((i) => JSON.stringify(i)),
        meta,
        { member_user_id: '7' },
      ),
    ).toBe(whole('contacts', items, { member_user_id: '7' }));
  });

  it('writes an empty list and keys that need escaping', () => {
    expect(listBody('contacts', [], meta)).toBe(whole('contacts', []));
    expect(listBody('a"b', ['1'], meta)).toBe(whole('a"b', [1]));
  });

  it('writes the same bytes from kept records (UTF-8 bytes) as from their text', () => {
    const items = [JSON.stringify({ name: 'Zoë 😀 Ünal' }), JSON.stringify({ notes: 'a\u2028b' })];
    const extra = { member_user_id: '7' };
    const text = listBody('contacts', items, meta, extra);
    expect(
      listBytes(
        'contacts',
        items.map((i) => Buffer.from(i)),
        meta,
        extra,
      ).equals(Buffer.from(text)),
    ).toBe(true);
    expect(listBytes('contacts', items, meta, extra).toString()).toBe(text);
    expect(listBytes('contacts', [], meta).toString()).toBe(listBody('contacts', [], meta));
  });
});

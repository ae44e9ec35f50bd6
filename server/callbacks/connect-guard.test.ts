import type dns from 'node:dns';
import { describe, expect, it } from 'vitest';
import { type Lookup, publicOnlyLookup, RefusedAddress } from './connect-guard.js';

/* A name's answers as a resolver gives them (no external DNS in tests): what the connection's lookup then answers. */
const resolverAnswering =
  (addresses: string[]): Lookup =>
  (_hostname, options, callback) => {
    const all = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (options.all) callback(null, all);
    else callback(null, all[0]!.address, all[0]!.family);
  };

function lookUp(
  addresses: string[],
  all: boolean,
): Promise<{ error: NodeJS.ErrnoException | null; address: string | dns.LookupAddress[] }> {
  return new Promise((resolve) =>
    publicOnlyLookup(resolverAnswering(addresses))('hooks.example.com', { all }, (error, address) => resolve({ error, address })),
  );
}

describe('publicOnlyLookup', () => {
  it.each([
    [['::a9fe:a9fe']],
    [['::7f00:1']],
    [['64:ff9b::a9fe:a9fe']],
    [['2002:a00:1::1']],
    [['fec0::1']],
    [['::ffff:a9fe:a9fe']],
    [['169.254.169.254']],
    [['93.184.216.34', '10.0.0.1']],
  ])('refuses a name that resolves to %j, given one answer or all', async (addresses) => {
    const inside = addresses.at(-1)!;
    for (const all of [true, false]) {
      const { error } = await lookUp(all ? addresses : [inside], all);
      expect(error).toBeInstanceOf(RefusedAddress);
      expect((error as RefusedAddress).address).toBe(inside);
    }
  });

  it('answers public addresses as the resolver gave them', async () => {
    expect(await lookUp(['93.184.216.34', '2606:4700:4700::1111'], true)).toEqual({
      error: null,
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:4700:4700::1111', family: 6 },
      ],
    });
    expect(await lookUp(['93.184.216.34'], false)).toEqual({ error: null, address: '93.184.216.34' });
  });
});

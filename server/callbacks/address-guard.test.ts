import { describe, expect, it } from 'vitest';
import { checkCallbackUrl, describeUrl, isAllowedHost, isPublicAddress } from './address-guard.js';

/* No external DNS here: public hosts are IP literals; names are ones the machine resolves itself or never can. */
const none = { allowedHosts: [] };

describe('checkCallbackUrl', () => {
  it.each([
    ['ftp://93.184.216.34/hook', 'must be an http or https URL'],
    ['javascript:alert(1)', 'must be an http or https URL'],
    ['file:///etc/passwd', 'must be an http or https URL'],
    ['not a url', 'is not a valid URL'],
    ['https://user:pass@93.184.216.34/hook', 'must not contain a user name or password'],
    ['https://token@93.184.216.34/hook', 'must not contain a user name or password'],
    ['http://127.0.0.1/hook', 'points to a private or local address (127.0.0.1)'],
    ['http://127.1/hook', 'points to a private or local address (127.0.0.1)'],
    ['http://0x7f000001/hook', 'points to a private or local address (127.0.0.1)'],
    ['http://localhost:3000/hook', 'points to a private or local address (127.0.0.1)'],
    ['http://10.1.2.3/hook', 'points to a private or local address (10.1.2.3)'],
    ['http://172.16.0.9/hook', 'points to a private or local address (172.16.0.9)'],
    ['http://192.168.1.1/hook', 'points to a private or local address (192.168.1.1)'],
    ['http://169.254.169.254/latest/meta-data', 'points to a private or local address (169.254.169.254)'],
    ['http://[::1]/hook', 'points to a private or local address (::1)'],
    ['http://[::ffff:10.0.0.1]/hook', 'points to a private or local address (::ffff:a00:1)'],
    ['http://[::ffff:127.0.0.1]:8080/hook', 'points to a private or local address (::ffff:7f00:1)'],
    ['http://[fd00::5]/hook', 'points to a private or local address (fd00::5)'],
    ['http://[fe80::1]/hook', 'points to a private or local address (fe80::1)'],
    ['http://[64:ff9b::a00:1]/hook', 'points to a private or local address (64:ff9b::a00:1)'],
    ['http://0.0.0.0/hook', 'points to a private or local address (0.0.0.0)'],
    // IPv4 inside IPv6: compatible (::a.b.c.d), mapped, translated, NAT64, 6to4, Teredo, ISATAP; then site-local, multicast.
    ['http://[::a9fe:a9fe]/', 'points to a private or local address (::a9fe:a9fe)'],
    ['http://[::127.0.0.1]/hook', 'points to a private or local address (::7f00:1)'],
    ['http://[::10.0.0.1]/hook', 'points to a private or local address (::a00:1)'],
    ['http://[::169.254.169.254]/latest/meta-data', 'points to a private or local address (::a9fe:a9fe)'],
    ['http://[0:0:0:0:0:0:7f00:1]/hook', 'points to a private or local address (::7f00:1)'],
    ['http://[::8.8.8.8]/hook', 'points to a private or local address (::808:808)'],
    ['http://[::ffff:169.254.169.254]/hook', 'points to a private or local address (::ffff:a9fe:a9fe)'],
    ['http://[::ffff:0:10.0.0.1]/hook', 'points to a private or local address (::ffff:0:a00:1)'],
    ['http://[64:ff9b::169.254.169.254]/hook', 'points to a private or local address (64:ff9b::a9fe:a9fe)'],
    ['http://[64:ff9b:1::a00:1]/hook', 'points to a private or local address (64:ff9b:1::a00:1)'],
    ['http://[2002:a9fe:a9fe::1]/hook', 'points to a private or local address (2002:a9fe:a9fe::1)'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', 'points to a private or local address (2001:0:4136:e378:8000:63bf:3fff:fdd2)'],
    ['http://[2606:4700::5efe:169.254.169.254]/hook', 'points to a private or local address (2606:4700::5efe:a9fe:a9fe)'],
    ['http://[2606:4700::200:5efe:10.0.0.1]/hook', 'points to a private or local address (2606:4700::200:5efe:a00:1)'],
    ['http://[fec0::1]/hook', 'points to a private or local address (fec0::1)'],
    ['http://[ff05::1:3]/hook', 'points to a private or local address (ff05::1:3)'],
    ['http://[100::1]/hook', 'points to a private or local address (100::1)'],
    ['http://[::]/hook', 'points to a private or local address (::)'],
    ['http://100.64.0.1/hook', 'points to a private or local address (100.64.0.1)'],
    ['http://224.0.0.1/hook', 'points to a private or local address (224.0.0.1)'],
    ['http://255.255.255.255/hook', 'points to a private or local address (255.255.255.255)'],
    ['http://nonexistent.invalid/hook', 'has a host name that does not resolve (nonexistent.invalid)'],
  ])('refuses %s', async (url, reason) => {
    expect(await checkCallbackUrl(url, none)).toEqual({ ok: false, reason });
  });

  it('refuses a URL longer than 2000 characters', async () => {
    const url = `https://93.184.216.34/${'a'.repeat(1978)}`;
    expect(await checkCallbackUrl(url, none)).toEqual({ ok: true });
    expect(await checkCallbackUrl(`${url}a`, none)).toEqual({ ok: false, reason: 'must be at most 2000 characters long' });
  });

  it.each([
    ['https://93.184.216.34/hook?token=s3cret'],
    ['http://93.184.216.34:8080/hook'],
    ['https://[2606:4700:4700::1111]/hook'],
    ['https://[::ffff:93.184.216.34]/hook'],
    ['https://[2606:4700::5efe:93.184.216.34]/hook'],
  ])('accepts %s', async (url) => {
    expect(await checkCallbackUrl(url, none)).toEqual({ ok: true });
  });

  it.each<[string, string[]]>([
    ['http://127.0.0.1:4000/hook', ['127.0.0.1']],
    ['http://localhost:4000/hook', ['LocalHost']],
    ['http://[::1]:4000/hook', ['::1']],
    ['http://[::1]:4000/hook', ['[::1]']],
    ['http://receiver.invalid/hook', ['receiver.invalid']],
  ])('lets an allowed host skip the address check: %s with %j', async (url, allowedHosts) => {
    expect(await checkCallbackUrl(url, { allowedHosts })).toEqual({ ok: true });
  });

  it('still wants http(s) from an allowed host', async () => {
    expect(await checkCallbackUrl('ftp://127.0.0.1/hook', { allowedHosts: ['127.0.0.1'] })).toEqual({
      ok: false,
      reason: 'must be an http or https URL',
    });
    expect(await checkCallbackUrl('http://a:b@127.0.0.1/hook', { allowedHosts: ['127.0.0.1'] })).toEqual({
      ok: false,
      reason: 'must not contain a user name or password',
    });
  });

  it('exempts only the hosts named, not their neighbours', async () => {
    expect(await checkCallbackUrl('http://127.0.0.2/hook', { allowedHosts: ['127.0.0.1'] })).toMatchObject({ ok: false });
  });
});

describe('isPublicAddress', () => {
  it.each([
    ['93.184.216.34', true],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['::ffff:8.8.8.8', true],
    ['127.0.0.1', false],
    ['10.0.0.5', false],
    ['172.31.255.255', false],
    ['192.168.0.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['192.0.2.1', false],
    ['240.0.0.1', false],
    ['::1', false],
    ['::', false],
    ['fc00::1', false],
    ['fe80::1%eth0', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['2001:db8::1', false],
    ['::127.0.0.1', false],
    ['::a9fe:a9fe', false],
    ['::8.8.8.8', false],
    ['::ffff:0:8.8.8.8', false],
    ['64:ff9b::8.8.8.8', false],
    ['64:ff9b:1::a00:1', false],
    ['2002:808:808::1', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['2606:4700::5efe:a9fe:a9fe', false],
    ['2606:4700::5efe:5db8:d822', true],
    ['fec0::1', false],
    ['5f00::1', false],
    ['127.1', false],
    ['example.com', false],
    ['', false],
  ])('%s -> %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});

describe('describeUrl', () => {
  it.each([
    ['https://hooks.example.com/in/abc?token=s3cret', 'https://hooks.example.com'],
    ['http://93.184.216.34:8080/hook#frag', 'http://93.184.216.34:8080'],
    ['https://user:pass@example.com/x', 'https://example.com'],
    ['http://[::1]:4000/x?y=z', 'http://[::1]:4000'],
    ['HTTPS://Example.COM:443/x', 'https://example.com'],
    ['javascript:alert(1)', 'javascript:'],
    ['no url at all /secret', '(not a URL)'],
  ])('%s -> %s', (url, expected) => {
    expect(describeUrl(url)).toBe(expected);
  });
});

describe('isAllowedHost', () => {
  it.each<[string, string[], boolean]>([
    ['127.0.0.1', ['127.0.0.1'], true],
    ['receiver.test', [' Receiver.TEST '], true],
    ['[::1]', ['::1'], true],
    ['127.0.0.1', [], false],
    ['127.0.0.10', ['127.0.0.1'], false],
  ])('%s in %j -> %s', (host, allowed, expected) => {
    expect(isAllowedHost(host, allowed)).toBe(expected);
  });
});

import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** CALLBACK_ALLOWED_HOSTS: names or IPs that skip the address check (development and tests), without port. */
export type GuardOptions = { allowedHosts: string[] };
export type UrlCheck = { ok: true } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2000;
const OK: UrlCheck = { ok: true };
const refuse = (reason: string): UrlCheck => ({ ok: false, reason });

/** Every public IPv6 address is in the global unicast space (RFC 4291); ::/8, 64:ff9b::/96, fec0::/10... are not. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Whether an address is one a callback may reach. IPv4: only ipaddr's 'unicast' (not loopback, private, link-local
 * with the cloud metadata address, carrier-grade NAT, reserved...). IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged by the
 * IPv4 inside. Other IPv6: global unicast space and 'unicast' to ipaddr, which leaves out every form that carries an
 * IPv4 address to a gateway (IPv4-compatible ::a.b.c.d, NAT64, 6to4, Teredo), and an ISATAP identifier must carry a
 * public IPv4 address.
 */
export function isPublicAddress(ip: string): boolean {
  const address = parseAddress(ip);
  if (!address) return false;
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST) && !hidesInsideIpv4(v6);
}

/**
 * IPv6 text is first written out by the URL parser (hexadecimal, no dotted tail): ipaddr.js reads the
 * IPv4-compatible `::127.0.0.1` as if it were `::ffff:127.0.0.1`. A zone (fe80::1%eth0) is not a URL host: refused.
 */
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const family = net.isIP(ip);
  if (family === 4) return ipaddr.IPv4.parse(ip);
  if (family !== 6) return undefined;
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${ip}]/`).hostname.slice(1, -1));
  } catch {
    return undefined;
  }
}

/** An ISATAP interface identifier (RFC 5214: [02]00:5efe, then an IPv4 address) whose IPv4 address is not public. */
function hidesInsideIpv4(address: ipaddr.IPv6): boolean {
  const [, , , , high, low, a, b] = address.parts as number[];
  if ((high! & 0xfcff) !== 0 || low !== 0x5efe) return false;
  return new ipaddr.IPv4([a! >> 8, a! & 0xff, b! >> 8, b! & 0xff]).range() !== 'unicast';
}

/** What may be logged about a callback URL: receivers put secrets in the path and the query. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.host ? `${parsed.protocol}//${parsed.host}` : parsed.protocol;
  } catch {
    return '(not a URL)';
  }
}

/** The URL parser gives IPv6 hosts in brackets; allowed hosts are written either way, in any case. */
const bareHost = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');

export function isAllowedHost(hostname: string, allowedHosts: string[]): boolean {
  const host = bareHost(hostname);
  return allowedHosts.some((allowed) => bareHost(allowed) === host);
}

/** The checks that need no network: length, scheme, credentials. The sender repeats them before each POST. */
export function parseCallbackUrl(url: string): { ok: true; url: URL } | { ok: false; reason: string } {
  if (url.length > MAX_URL_LENGTH) return { ok: false, reason: `must be at most ${MAX_URL_LENGTH} characters long` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'is not a valid URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: 'must be an http or https URL' };
  // Node would send user:pass@ as an Authorization header to whoever answers.
  if (parsed.username || parsed.password) return { ok: false, reason: 'must not contain a user name or password' };
  if (!parsed.hostname) return { ok: false, reason: 'must name a host' };
  return { ok: true, url: parsed };
}

/**
 * Whether a callback URL may be stored: http(s), and every address its host stands for is public. The sender
 * checks the address again when it connects, as a name may resolve differently by then (DNS rebinding).
 */
export async function checkCallbackUrl(url: string, options: GuardOptions): Promise<UrlCheck> {
  const parsed = parseCallbackUrl(url);
  if (!parsed.ok) return parsed;
  const host = bareHost(parsed.url.hostname);
  if (isAllowedHost(host, options.allowedHosts)) return OK;
  if (net.isIP(host) !== 0) return isPublicAddress(host) ? OK : refuse(`points to a private or local address (${host})`);
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    return refuse(`has a host name that does not resolve (${host})`);
  }
  if (addresses.length === 0) return refuse(`has a host name that does not resolve (${host})`);
  const inside = addresses.find(({ address }) => !isPublicAddress(address));
  return inside ? refuse(`points to a private or local address (${inside.address})`) : OK;
}

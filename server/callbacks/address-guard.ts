import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** CALLBACK_ALLOWED_HOSTS: names or IPs that skip the address check (development and tests), without port. */
export type GuardOptions = { allowedHosts: string[] };
export type UrlCheck = { ok: true } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2000;
const OK: UrlCheck = { ok: true };
const refuse = (reason: string): UrlCheck => ({ ok: false, reason });

/**
 * Only 'unicast' is public: loopback, private, link-local (the cloud metadata address), carrier-grade NAT,
 * unique-local, reserved, NAT64 and the rest can all lead back into our own network.
 * ipaddr.process unwraps IPv4-mapped IPv6 (::ffff:10.0.0.1), so the IPv4 inside is what gets judged.
 */
export function isPublicAddress(ip: string): boolean {
  return ipaddr.isValid(ip) && ipaddr.process(ip).range() === 'unicast';
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

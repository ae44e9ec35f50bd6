import dns from 'node:dns';
import net, { type TcpNetConnectOpts } from 'node:net';
import type { Duplex } from 'node:stream';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { isPublicAddress } from './address-guard.js';

/** What a connection to an address that is not public fails with; the sender reports the address. */
export class RefusedAddress extends Error {
  readonly code = 'ERR_REFUSED_ADDRESS';
  constructor(readonly address: string) {
    super(`Connecting to ${address} is refused: it is a private or local address.`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;
export type Lookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => void;
type ConnectionListener = (error: Error | null, socket: Duplex) => void;

/** `resolve` (dns.lookup unless given) answering only public addresses: a name with any other among its answers is refused. */
export function publicOnlyLookup(resolve: Lookup = dns.lookup as Lookup): Lookup {
  return (hostname, options, callback) =>
    resolve(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const answers = typeof address === 'string' ? [address] : address.map((a) => a.address);
      const inside = answers.find((a) => !isPublicAddress(a));
      if (inside === undefined) callback(null, address, family);
      else callback(new RefusedAddress(inside), address, family);
    });
}

/**
 * Our judgement (isPublicAddress) at every connection, before request-filtering-agent's own: an IP host is judged
 * before connecting (Node looks no IP up), a name's every answer as it resolves. The library alone judges by
 * ipaddr.js's ranges, which call IPv4-compatible addresses (::a9fe:a9fe, the metadata address) public.
 */
function guarded(
  options: TcpNetConnectOpts,
  listener: ConnectionListener | undefined,
  connect: (o: TcpNetConnectOpts, l?: ConnectionListener) => Duplex,
) {
  if (options.host && net.isIP(options.host) && !isPublicAddress(options.host)) {
    const error = new RefusedAddress(options.host);
    const socket = new net.Socket();
    if (listener) listener(error, socket);
    else socket.destroy(error);
    return socket;
  }
  return connect({ ...options, lookup: publicOnlyLookup(options.lookup as Lookup | undefined) as net.LookupFunction }, listener);
}

export class GuardedHttpAgent extends RequestFilteringHttpAgent {
  override createConnection(options: TcpNetConnectOpts, listener?: ConnectionListener) {
    return guarded(options, listener, (o, l) => super.createConnection(o, l));
  }
}

export class GuardedHttpsAgent extends RequestFilteringHttpsAgent {
  override createConnection(options: TcpNetConnectOpts, listener?: ConnectionListener) {
    return guarded(options, listener, (o, l) => super.createConnection(o, l));
  }
}

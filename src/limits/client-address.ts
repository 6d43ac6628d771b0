/**
 * The client's address, which every per-address limit is keyed on. Proxy headers are believed only when
 * TRUST_PROXY names how many reverse-proxy hops sit in front of the server, with Express' `trust proxy = <hops>`
 * semantics: walk X-Forwarded-For from the right, one entry per trusted hop. The walk is `proxy-addr`'s, the
 * library Express computes `req.ip` with, so the two cannot drift apart.
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import proxyaddr from 'proxy-addr';

/** Express' compiled form of `trust proxy = <hops>`: the first `hops` addresses from the socket inwards are proxies. */
function trustHops(hops: number): (address: string, index: number) => boolean {
  return (_address, index) => index < hops;
}

export function clientAddress(req: IncomingMessage, trustedHops: number): string {
  const socketAddress = normalizeAddress(req.socket?.remoteAddress) ?? 'unknown';
  if (trustedHops <= 0 || !req.socket?.remoteAddress) return socketAddress;
  return normalizeAddress(proxyaddr(req, trustHops(trustedHops))) ?? socketAddress;
}

/** One spelling per client: an IPv4 client on a dual-stack socket appears as ::ffff:a.b.c.d. */
export function normalizeAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/** The headers Colyseus' `AuthContext.ip` believes, first one wins: x-real-ip, x-forwarded-for, x-client-ip. */
const ADDRESS_HEADER = 'x-real-ip';

/**
 * Makes Colyseus' `AuthContext.ip` (read from X-Real-IP / X-Forwarded-For / X-Client-IP, whoever sent them)
 * the address computed above, for matchmaking requests and WebSocket upgrades alike, so rooms can key limits on
 * it. Installs listeners that run before every other 'request'/'upgrade' listener: call it after the server is
 * listening (Colyseus prepends its own request listener while it starts listening).
 */
export function installClientAddressHeaders(server: HttpServer, trustedHops: number): void {
  const stamp = (req: IncomingMessage) => {
    req.headers[ADDRESS_HEADER] = clientAddress(req, trustedHops);
    delete req.headers['x-client-ip'];
  };
  server.prependListener('request', stamp);
  server.prependListener('upgrade', stamp);
}

/** The address Express computed (`req.ip`, same TRUST_PROXY rules), spelled like clientAddress(). */
export function requestAddress(req: { ip?: string; socket: { remoteAddress?: string } }): string {
  return normalizeAddress(req.ip ?? req.socket.remoteAddress) ?? 'unknown';
}

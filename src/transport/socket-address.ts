/**
 * The client address of a WebSocket upgrade, which the per-address limits are keyed on: proxy headers believed
 * only as TRUST_PROXY says (src/limits/client-address.ts), and the address another server process relayed a /ws
 * socket for only when it carries a valid signature (src/cluster/ws-relay.ts).
 */
import type { IncomingMessage } from 'node:http';
import { relayedAddress } from '../cluster/ws-relay.ts';
import { gameContext } from '../context.ts';
import { clientAddress } from '../limits/client-address.ts';

export function clientAddressOf(req: IncomingMessage): string {
  const { trustProxy, jwtSecret } = gameContext().config;
  return relayedAddress(req, jwtSecret) ?? clientAddress(req, trustProxy);
}

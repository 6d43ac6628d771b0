/**
 * The upstream socket of a /ws hand-over (docs/scaling.md): the process a JSON client connected to opens a
 * WebSocket to the process running the world the client enters (src/transport/world-handover.ts copies the frames).
 * That process sees the client's own address through a header signed with the shared JWT_SECRET (an unsigned or
 * forged one is ignored), so its per-address limits still apply to the client and not to the relaying process.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { UNSENDABLE_CLOSE_CODES, WS_CLOSE } from '../close-codes.ts';

export const RELAYED_ADDRESS_HEADER = 'x-game-relayed-for';
export const RELAY_SIGNATURE_HEADER = 'x-game-relay-signature';

/** The signature vouching that a request or socket was relayed for `address` (HMAC-SHA256 with the secret). */
export function relaySignature(secret: string, address: string): string {
  return createHmac('sha256', secret).update(`relayed-for:${address}`).digest('base64url');
}

/** The client address a relaying process vouched for, when its signature checks out. */
export function relayedAddress(request: IncomingMessage, secret: string | undefined): string | undefined {
  const address = request.headers[RELAYED_ADDRESS_HEADER];
  const signature = request.headers[RELAY_SIGNATURE_HEADER];
  if (!secret || typeof address !== 'string' || typeof signature !== 'string' || address.length > 64) return undefined;
  const expected = Buffer.from(relaySignature(secret, address));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? address : undefined;
}

/** Close codes a peer may not send itself (1005/1006/1015) become a normal close. */
export function sendableCode(code: number): number {
  return UNSENDABLE_CLOSE_CODES.has(code) ? WS_CLOSE.NORMAL : code;
}

export interface UpstreamOptions {
  /** host:port of the process running the world. */
  internalAddress: string;
  clientAddress: string;
  secret: string | undefined;
  /** The client's access token: the upstream authenticates the socket at its upgrade. */
  token: string;
  origin: string | undefined;
}

/** Opens the relayed socket: signed client address, the client's bearer token and Origin. */
export function openUpstream(options: UpstreamOptions): WebSocket {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token}` };
  if (options.secret) {
    headers[RELAYED_ADDRESS_HEADER] = options.clientAddress;
    headers[RELAY_SIGNATURE_HEADER] = relaySignature(options.secret, options.clientAddress);
  }
  return new WebSocket(`ws://${options.internalAddress}/ws`, { headers, origin: options.origin, perMessageDeflate: false });
}

/**
 * Relays a /ws JSON socket accepted by this process to the process that hosts the world room, frame for frame,
 * so a JSON client can connect to any process (docs/scaling.md). The hosting process sees the client's own
 * address through a header signed with the shared JWT_SECRET (an unsigned or forged one is ignored), so its
 * per-address limits still apply to the client and not to the relaying process.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { UNSENDABLE_CLOSE_CODES, WS_CLOSE } from '../close-codes.ts';

export const RELAYED_ADDRESS_HEADER = 'x-game-relayed-for';
export const RELAY_SIGNATURE_HEADER = 'x-game-relay-signature';
/** Frames a client may send before the upstream connection is open. */
const MAX_PENDING_FRAMES = 32;

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
function sendableCode(code: number): number {
  return UNSENDABLE_CLOSE_CODES.has(code) ? WS_CLOSE.NORMAL : code;
}

export interface RelayOptions {
  /** host:port of the hosting process. */
  internalAddress: string;
  clientAddress: string;
  secret: string | undefined;
  /** Headers of the client's upgrade worth passing on (Authorization, Origin). */
  request: IncomingMessage;
  /** The hosting process could not be reached at all. */
  onUnreachable(): void;
}

export function relayToWorldProcess(client: WebSocket, options: RelayOptions): void {
  const headers: Record<string, string> = {};
  const { authorization, origin } = options.request.headers;
  if (authorization) headers.authorization = authorization;
  if (options.secret) {
    headers[RELAYED_ADDRESS_HEADER] = options.clientAddress;
    headers[RELAY_SIGNATURE_HEADER] = relaySignature(options.secret, options.clientAddress);
  }
  const upstream = new WebSocket(`ws://${options.internalAddress}/ws`, { headers, origin, perMessageDeflate: false });
  const pending: Array<{ data: WebSocket.RawData; isBinary: boolean }> = [];
  let opened = false;

  client.on('message', (data, isBinary) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
    else if (pending.length < MAX_PENDING_FRAMES) pending.push({ data, isBinary });
    else client.close(WS_CLOSE.POLICY_VIOLATION, 'too many messages before the connection was ready');
  });
  client.on('close', (code, reason) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.close(sendableCode(code), reason);
    else upstream.terminate();
  });
  client.on('error', () => client.terminate());

  upstream.on('open', () => {
    opened = true;
    for (const frame of pending.splice(0)) upstream.send(frame.data, { binary: frame.isBinary });
  });
  upstream.on('message', (data, isBinary) => {
    if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
  });
  upstream.on('close', (code, reason) => {
    if (client.readyState === WebSocket.OPEN) client.close(sendableCode(code), reason);
  });
  upstream.on('unexpected-response', (_request, response) => {
    // The hosting process refused the upgrade itself (401 for a bad bearer token, 403 for the origin).
    const code = response.statusCode === 401 ? WS_CLOSE.AUTH_FAILED : WS_CLOSE.POLICY_VIOLATION;
    client.close(code, response.statusCode === 401 ? 'authentication failed' : 'refused');
    upstream.terminate();
  });
  upstream.on('error', () => {
    if (!opened) {
      options.onUnreachable();
      if (client.readyState === WebSocket.OPEN) client.close(WS_CLOSE.SERVICE_RESTART, 'the world moved; reconnect');
    }
  });
}

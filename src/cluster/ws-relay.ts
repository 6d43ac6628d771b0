/**
 * The upstream socket of a /ws hand-over (docs/scaling.md): the process a JSON client connected to opens a
 * WebSocket to the process running the world the client enters (src/transport/world-handover.ts copies the frames).
 * That process sees the client's own address through a header signed with the shared JWT_SECRET (an unsigned or
 * forged one is ignored), so its per-address limits still apply to the client and not to the relaying process.
 *
 * The socket also carries a hand-over ticket (`x-game-handover`), signed with the same secret: the client's
 * address, the account, the entry process' connection, the process it is for, a nonce and a short expiry. The
 * upstream takes a socket for relayed only with a ticket that is for it, fresh, of the token's account, and not
 * presented before (`HandoverTickets`); any other ticket refuses the upgrade. A captured hand-over cannot be replayed.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { UNSENDABLE_CLOSE_CODES, WS_CLOSE } from '../close-codes.ts';

export const RELAYED_ADDRESS_HEADER = 'x-game-relayed-for';
export const RELAY_SIGNATURE_HEADER = 'x-game-relay-signature';
export const HANDOVER_TICKET_HEADER = 'x-game-handover';
/** How long a hand-over ticket may be presented: the upstream socket opens right after it is signed. */
export const HANDOVER_TICKET_TTL_MS = 15_000;

/** What a hand-over socket is for (docs/scaling.md "/ws hand-over"). */
export interface HandoverTicket {
  /** The client's address. */
  address: string;
  /** The account whose token the socket presents. */
  accountId: string;
  /** The entry process' connection that opened it. */
  connection: string;
  /** The process id it is for. */
  to: string;
  /** Until when it may be presented (ms since the Unix epoch). */
  expiresAt: number;
  nonce: string;
  /** It carries an approved hop's entry, already counted (rooms/entry/entry-limit.ts). */
  admitted: boolean;
}

function mac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A ticket's header value: the payload and its signature. */
export function signHandoverTicket(secret: string, ticket: HandoverTicket): string {
  const payload = Buffer.from(JSON.stringify(ticket)).toString('base64url');
  return `${payload}.${mac(secret, `handover:${payload}`)}`;
}

/**
 * The upstream's side: believes a ticket once, if signed with the secret, for this process, and fresh. Nonces are
 * remembered until their ticket expires.
 */
export class HandoverTickets {
  private readonly secret: string;
  private readonly processId: () => string;
  private readonly now: () => number;
  private readonly seen = new Map<string, number>();

  constructor(secret: string, processId: () => string, now: () => number = Date.now) {
    this.secret = secret;
    this.processId = processId;
    this.now = now;
  }

  /** The ticket, or undefined when it is forged, altered, for another process, expired or presented before. */
  verify(header: string): HandoverTicket | undefined {
    const [payload, signature, ...rest] = header.split('.');
    if (!payload || !signature || rest.length > 0 || header.length > 2_048) return undefined;
    if (!sameText(signature, mac(this.secret, `handover:${payload}`))) return undefined;
    let ticket: HandoverTicket;
    try {
      ticket = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as HandoverTicket;
    } catch {
      return undefined;
    }
    const now = this.now();
    if (ticket.to !== this.processId() || typeof ticket.expiresAt !== 'number' || ticket.expiresAt < now || ticket.expiresAt > now + HANDOVER_TICKET_TTL_MS * 2) return undefined;
    for (const [nonce, expiresAt] of this.seen) if (expiresAt < now) this.seen.delete(nonce);
    if (typeof ticket.nonce !== 'string' || this.seen.has(ticket.nonce)) return undefined;
    this.seen.set(ticket.nonce, ticket.expiresAt);
    return ticket;
  }
}

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
  /** What the hand-over ticket binds the socket to (signed when a secret is set). */
  ticket?: { accountId: string; connection: string; to: string; admitted: boolean };
}

/** Opens the relayed socket: signed client address and hand-over ticket, the client's bearer token and Origin. */
export function openUpstream(options: UpstreamOptions): WebSocket {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token}` };
  if (options.secret) {
    headers[RELAYED_ADDRESS_HEADER] = options.clientAddress;
    headers[RELAY_SIGNATURE_HEADER] = relaySignature(options.secret, options.clientAddress);
    if (options.ticket) {
      headers[HANDOVER_TICKET_HEADER] = signHandoverTicket(options.secret, {
        address: options.clientAddress, ...options.ticket, expiresAt: Date.now() + HANDOVER_TICKET_TTL_MS, nonce: randomUUID(),
      });
    }
  }
  return new WebSocket(`ws://${options.internalAddress}/ws`, { headers, origin: options.origin, perMessageDeflate: false });
}

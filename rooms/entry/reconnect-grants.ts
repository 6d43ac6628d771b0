/**
 * One-time authorisations to take a held reconnection seat. Every reconnection is authorised before its socket
 * presents the seat, by a step that verified the account's token just before: the SDK's `client.reconnect(token)`
 * first calls `POST /matchmake/reconnect/<roomId>`, which a browser CAN send with `Authorization: Bearer` (it cannot
 * on a WebSocket) — that step verifies the token (rooms/entry/sdk-entry.ts) and asks the room, through
 * `matchMaker.remoteRoomCall` so it runs on the room's own process, to record a grant for the seat
 * (`WorldRoom.authorizeReconnection`); a /ws connection re-checks its identity and asks the room the same
 * (rooms/entry/seats.ts). The socket that then presents the seat (session id + reconnection token) within
 * GRANT_TTL_MS may take it once (`WorldRoom.hasReservedSeat`, world-seats.ts); without a grant it may not.
 *
 * The grants live in the room: the socket of a seat always reaches the room's process (the SDK follows the seat
 * reservation's `publicAddress`, docs/scaling.md), so nothing needs sharing through the presence.
 */

/** How long a grant waits for its socket: the SDK opens it right after the HTTP answer. */
export const GRANT_TTL_MS = 10_000;

/** The room method the matchmaking route calls (by name, possibly on another process). */
export const AUTHORIZE_RECONNECTION = 'authorizeReconnection';

/**
 * What the room answers: never a thrown error (across processes it would arrive as a timeout). `forbidden`: another
 * account's seat; `not-owned`: a token bound to another character.
 */
export type ReconnectionVerdict = 'granted' | 'expired' | 'forbidden' | 'not-owned';

interface Grant<T> {
  sessionId: string;
  /** Who was authorised (the verified identity that will act for the resumed session). */
  holder: T;
  expiresAt: number;
}

export class ReconnectGrants<T = string> {
  /** By reconnection token. At most one per held seat (a seat has one token). */
  private readonly grants = new Map<string, Grant<T>>();

  private readonly now: () => number;
  private readonly ttlMs: number;

  constructor(now: () => number = Date.now, ttlMs = GRANT_TTL_MS) {
    this.now = now;
    this.ttlMs = ttlMs;
  }

  /** Records (or renews) the grant for the seat `sessionId` held under `reconnectionToken`. */
  grant(sessionId: string, reconnectionToken: string, holder: T): void {
    this.grants.set(reconnectionToken, { sessionId, holder, expiresAt: this.now() + this.ttlMs });
  }

  /**
   * Removes the seat's grant and returns whom it was given to, when it was for this session and is still fresh;
   * `undefined` otherwise. Whatever the answer, the grant is gone: it serves one socket at most.
   */
  take(sessionId: string, reconnectionToken: string): T | undefined {
    const grant = this.grants.get(reconnectionToken);
    if (!grant) return undefined;
    this.grants.delete(reconnectionToken);
    return grant.sessionId === sessionId && this.now() <= grant.expiresAt ? grant.holder : undefined;
  }

  /** The seat ended (taken, or its grace period over): its grant goes too. */
  forget(reconnectionToken: string): void {
    this.grants.delete(reconnectionToken);
  }

  get size(): number {
    return this.grants.size;
  }
}

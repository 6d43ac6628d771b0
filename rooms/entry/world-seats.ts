/**
 * A world's seats held for dropped connections (docs/protocol.md "Reconnection"): which reconnection token holds
 * which session's seat, the one-time grants that authorise the socket resuming it (reconnect-grants.ts), and who
 * resumed it. Colyseus holds the seat itself (`allowReconnection`, whose promise this keeps to give a seat up early);
 * the room's public hooks — `checkReconnectionToken`, `hasReservedSeat`, `onReconnect` — ask this.
 *
 * Colyseus checks nothing about who takes a held seat: the reconnection token alone would do, from any socket. Here
 * a socket may take a seat only with a fresh grant, given by `authorize` to an identity verified just before (the
 * SDK's reconnect request, or a /ws connection's re-checked identity) and of the seat's account and character.
 */
import { ErrorCode, type AuthContext, type Client, type Room } from '@colyseus/core';
import { authenticateColyseusClient } from '../../src/auth/colyseus.ts';
import type { Identity } from '../../src/auth/tokens.ts';
import { JoinRefusal, joinRefusal, refuseJoin } from '../game-error.ts';
import { recheckJoiningIdentity, resumeRefusal } from './joining-rights.ts';
import { ReconnectGrants, type ReconnectionVerdict } from './reconnect-grants.ts';

/** What Colyseus' `allowReconnection` returns: a promise of the seat that can be given up (its `reject`). */
export type HeldSeat = ReturnType<Room['allowReconnection']>;

/** The player a held seat belongs to. */
export interface SeatOwner {
  accountId: string;
  characterId: string;
}

/** A reconnection token that holds no seat: unknown, already used, or past the grace period. */
export function invalidReconnectionToken(): JoinRefusal {
  return new JoinRefusal('INVALID_RECONNECTION_TOKEN', 'The reconnection token is unknown, used or expired', ErrorCode.MATCHMAKE_EXPIRED);
}

export class WorldSeats {
  /** By reconnection token: the session whose seat it holds, and Colyseus' promise of that seat. */
  private readonly waiting = new Map<string, { sessionId: string; seat: HeldSeat }>();
  private readonly grants = new ReconnectGrants<Identity>();
  /** The identity admitted to resume each seat (admitSocket), handed to the session by onReconnect. */
  private readonly resumers = new Map<string, Identity>();

  /** onDrop: the seat Colyseus now holds for `client` (the promise settles when it is taken or given up). */
  held(client: Client, seat: HeldSeat, onSettled: () => void): void {
    const token = client.reconnectionToken;
    this.waiting.set(token, { sessionId: client.sessionId, seat });
    seat.then(() => undefined, () => undefined).finally(() => {
      if (this.waiting.get(token)?.sessionId === client.sessionId) this.waiting.delete(token);
      this.grants.forget(token);
      onSettled();
    });
  }

  /** The session whose seat `reconnectionToken` holds now, if any (never a live client's). */
  sessionOf(reconnectionToken: string): string | undefined {
    return this.waiting.get(reconnectionToken)?.sessionId;
  }

  /**
   * Authorises the next socket presenting this seat, for `identity` (verified by the caller just now), when the seat
   * is held (`held`: Colyseus still reserves it) and belongs to the identity's account and character.
   */
  authorize(sessionId: string, reconnectionToken: string, identity: Identity, owner: SeatOwner | undefined, held: boolean): ReconnectionVerdict {
    if (this.sessionOf(reconnectionToken) !== sessionId || !held || !owner) return 'expired';
    const refusal = resumeRefusal(owner, identity);
    if (refusal) return refusal;
    this.grants.grant(sessionId, reconnectionToken, identity);
    return 'granted';
  }

  /**
   * An SDK room socket presents the seat (resuming-socket.ts), before Colyseus sees it. It uses up any grant. Without
   * credentials of its own it needs that grant (the HTTP step of `client.reconnect` verified the account a moment
   * ago: a browser cannot send headers on a WebSocket); with them (Node SDK, native clients: the SDK's automatic
   * reconnection) they are checked now — the seat's account, the token's rights, the seat's character. Admitted, it
   * gets a fresh grant for the seat; refused, the seat stays held for its owner. A socket presenting no held seat is
   * left to Colyseus, which refuses it.
   */
  async admitResumingSocket(sessionId: string, reconnectionToken: string, context: AuthContext, owner: SeatOwner | undefined, held: () => boolean): Promise<void> {
    // No seat held under that token: Colyseus refuses the socket itself ("seat reservation expired").
    if (!owner || this.sessionOf(reconnectionToken) !== sessionId || !held()) return;
    const granted = this.grants.take(sessionId, reconnectionToken);
    let identity: Identity;
    if (granted !== undefined && !context.headers?.has('authorization')) {
      identity = granted;
    } else {
      const presented = await authenticateColyseusClient(context).catch(refuseJoin);
      if (presented.accountId !== owner.accountId) throw joinRefusal('FORBIDDEN', 'That session belongs to another account');
      identity = await recheckJoiningIdentity(presented);
      if (resumeRefusal(owner, identity) === 'not-owned') throw joinRefusal('CHARACTER_NOT_OWNED', 'This token is bound to another character');
    }
    // The verification awaited: the grace period may have run out meanwhile.
    if (!held()) throw invalidReconnectionToken();
    this.grants.grant(sessionId, reconnectionToken, identity);
  }

  /** A socket takes the seat (Colyseus' hasReservedSeat): only with a fresh grant, which it uses up. Records who resumes it. */
  admitSocket(sessionId: string, reconnectionToken: string): boolean {
    if (this.sessionOf(reconnectionToken) !== sessionId) return false;
    const holder = this.grants.take(sessionId, reconnectionToken);
    if (holder === undefined) return false;
    this.resumers.set(sessionId, holder);
    return true;
  }

  /** The identity that resumed the session's seat (once). */
  takeResumer(sessionId: string): Identity | undefined {
    const resumer = this.resumers.get(sessionId);
    this.resumers.delete(sessionId);
    return resumer;
  }

  /** Gives up the seat held for `client` now: the player leaves at once (its rights ended while it was away). */
  release(client: Client): void {
    this.waiting.get(client.reconnectionToken)?.seat.reject(false);
  }

  forget(sessionId: string): void {
    this.resumers.delete(sessionId);
  }
}

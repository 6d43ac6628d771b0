/**
 * The SDK's way into a world, through the matchmaking routes (`POST /matchmake/:method/world`, answered by
 * src/http/matchmaker-errors.ts): the same world choice as a /ws entry (world-choice.ts), and reconnection through
 * the same authorisation step (world-seats.ts) — the bearer token of the seat's account, verified now, lets the room
 * socket that follows take the seat once.
 */
import { ErrorCode, matchMaker, ServerError, type AuthContext } from '@colyseus/core';
import { authenticateColyseusClient } from '../../src/auth/colyseus.ts';
import { GameError } from '../../src/game/refusal.ts';
import { AUTHORIZE_RECONNECTION, type ReconnectionVerdict } from './reconnect-grants.ts';
import { requestedWorld, reserveWorldSeat, WORLD_ROOM } from './world-choice.ts';
import { sdkGate } from './admission-gate.ts';

interface SeatReservation {
  roomId: string;
  sessionId: string;
}

/** Whether the matchmaking call is an entry into a world (join or joinOrCreate of the `world` room type). */
export function isWorldEntry(method: string, target: string): boolean {
  return target === WORLD_ROOM && (method === 'join' || method === 'joinOrCreate');
}

/**
 * An SDK entry: the world the client asks for, or the one the matchmaker picks — once the admission gate lets it
 * through (admission-gate.ts: refused `WORLD_BUSY`/`WORLD_FULL`, or `QUEUED` with a ticket when it asked to queue).
 */
export async function enterWorld(options: Record<string, unknown>, auth: AuthContext): Promise<SeatReservation> {
  const pass = await sdkGate({ world: requestedWorld(options), queue: options.queue, queueTicket: options.queueTicket });
  try {
    const reservation = await reserveWorldSeat(pass.world === undefined ? options : { ...options, world: pass.world }, auth);
    pass.done(true);
    return reservation;
  } catch (error) {
    pass.done(false);
    throw error;
  }
}

/**
 * `reconnect`, for the caller's own seat only: the bearer token is verified like the socket's (valid, not revoked,
 * the account's rights), the seat is looked up, and the room (on whichever process hosts it) checks that the seat is
 * the account's (and the token's character's, for a character-bound token) and authorises the socket that follows.
 */
export async function reconnectOwnSeat(target: string, options: { reconnectionToken: string }, auth: AuthContext): Promise<SeatReservation> {
  const identity = await authenticateColyseusClient(auth);
  const reservation = (await matchMaker.reconnect(target, options)) as SeatReservation;
  const verdict = (await matchMaker.remoteRoomCall(
    reservation.roomId, AUTHORIZE_RECONNECTION, [reservation.sessionId, options.reconnectionToken, identity],
  )) as ReconnectionVerdict | undefined;
  if (verdict === 'forbidden' || verdict === 'not-owned') throw new GameError('FORBIDDEN', 'That session belongs to another account');
  // The grace period ran out in between (or the room holds no seats of this kind).
  if (verdict !== 'granted') throw new ServerError(ErrorCode.MATCHMAKE_EXPIRED, 'reconnection token invalid or expired');
  return reservation;
}

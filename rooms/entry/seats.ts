/**
 * A /ws connection's seats in rooms of this process, taken through Colyseus' public matchmaker and transport API:
 * a seat in a world (chosen by world-choice.ts), the seat a world holds for a dropped connection of the same account
 * (reconnection), and a seat in a room a room linked the connection to (a trade room). SDK sockets take theirs
 * through Colyseus' own transport; both end in the same room hooks.
 */
import { connectClientToRoom, matchMaker, type Client } from '@colyseus/core';
import type { Identity } from '../../src/auth/tokens.ts';
import { GameError } from '../../src/game/refusal.ts';
import { recheckJoiningIdentity } from './joining-rights.ts';
import type { UpdateEncoding } from '../world/update-frames.ts';
import type { ReconnectionVerdict } from './reconnect-grants.ts';
import type { ConnectionClient, MembershipTransport } from './membership-port.ts';
import { reserveWorldSeat } from './world-choice.ts';

/** A JSON client never decodes the room's schema: Colyseus need not build (or send) its reflection handshake. */
const JSON_JOIN = { skipHandshake: true } as const;

/** What membership needs of a room it holds a seat in. */
export interface RoutableRoom {
  roomId: string;
  /** A world room's number (docs/worlds.md). */
  worldNumber?: number;
  handles(type: string): boolean;
  dispatch(client: Client, type: string, data: unknown): void | Promise<void>;
  /** World rooms: why a consented leave of this client is refused now (LEAVE_IN_COMBAT), if it is. */
  leaveRefusal?(client: Client): GameError | undefined;
  /** World rooms: authorises the next socket presenting this held seat (WorldRoom.authorizeReconnection). */
  authorizeReconnection?(sessionId: string, reconnectionToken: string, identity: Identity): ReconnectionVerdict;
  /** World rooms: whether a reconnection token is that of a client connected now. */
  isConnectedWith?(reconnectionToken: string): boolean;
}

export interface Seat {
  room: RoutableRoom;
  client: ConnectionClient;
}

function localRoom(roomId: string): RoutableRoom | undefined {
  return matchMaker.getLocalRoomById(roomId) as unknown as RoutableRoom | undefined;
}

function invalidReconnection(message = 'The reconnection token is unknown, used or expired'): GameError {
  return new GameError('INVALID_RECONNECTION_TOKEN', message);
}

/** A seat in the world `entry` names (or the one the matchmaker picks), here. */
export async function takeWorldSeat(transport: MembershipTransport, entry: Record<string, unknown>, updates: UpdateEncoding, marks?: Record<symbol, unknown>): Promise<Seat> {
  const reservation = await reserveWorldSeat(entry, transport.authContext(marks));
  const room = localRoom(reservation.roomId)!;
  const client = transport.roomClient(reservation.sessionId, updates);
  await connectClientToRoom(room as never, client, transport.authContext(marks), JSON_JOIN);
  return { room, client };
}

/**
 * Takes the seat a world holds for a dropped connection of this account. The identity is checked again first (it
 * was verified at `authenticate`, maybe long ago); the room decides whose seat it is and authorises this socket once
 * (the same step an SDK reconnection goes through, src/http/matchmaker-errors.ts). Refusals without a code of their
 * own — Colyseus' "room disposed", "expired", "seat reservation expired" — all mean the token holds no seat.
 */
export async function resumeWorldSeat(transport: MembershipTransport, token: string, identity: Identity, updates: UpdateEncoding): Promise<Seat> {
  const [roomId, secret, ...rest] = token.split(':');
  if (!roomId || !secret || rest.length > 0) throw invalidReconnection('The reconnection token is malformed');
  try {
    const reservation = await matchMaker.reconnect(roomId, { reconnectionToken: secret });
    const room = localRoom(roomId);
    if (!room?.authorizeReconnection) throw invalidReconnection();
    const verdict = room.authorizeReconnection(reservation.sessionId, secret, await recheckJoiningIdentity(identity));
    if (verdict === 'forbidden') throw new GameError('FORBIDDEN', 'That session belongs to another account');
    if (verdict === 'not-owned') throw new GameError('CHARACTER_NOT_OWNED', 'This token is bound to another character');
    if (verdict !== 'granted') throw invalidReconnection();
    const client = transport.roomClient(reservation.sessionId, updates);
    await connectClientToRoom(room as never, client, transport.authContext(), { ...JSON_JOIN, reconnectionToken: secret });
    return { room, client };
  } catch (error) {
    if (transport.toCodedError(error).code !== 'JOIN_FAILED') throw error;
    if (localRoom(roomId)?.isConnectedWith?.(secret)) {
      // The token of a session that is still connected: it is not taken over (docs/protocol.md).
      throw new GameError('ALREADY_ONLINE', 'That character is connected; a reconnection token only serves a dropped connection');
    }
    throw invalidReconnection();
  }
}

/** A seat in another room of this process a room linked the connection to (a trade room); undefined when it is gone. */
export async function takeLinkedSeat(transport: MembershipTransport, roomId: string, keep: (seat: Seat) => void): Promise<void> {
  const room = localRoom(roomId);
  if (!room) return;
  const reservation = await matchMaker.joinById(roomId, {}, transport.authContext());
  const client = transport.roomClient(reservation.sessionId);
  // Kept before the join completes: the room talks to the client during it.
  keep({ room, client });
  await connectClientToRoom(room as never, client, transport.authContext(), JSON_JOIN);
}

/**
 * An SDK room socket presenting a held seat (`?sessionId=…&reconnectionToken=…`: the socket after
 * `client.reconnect`'s HTTP step, or the SDK's automatic socket-only reconnection) is admitted here, before
 * Colyseus sees it: the transport calls `admitResumingSocket` from its upgrade listener and, on a refusal, answers
 * the socket with it as Colyseus would (src/transport/game-transport.ts). Admitted, the socket carries a one-time
 * grant that the world's `hasReservedSeat` takes (world-seats.ts).
 */
import { matchMaker, type AuthContext } from '@colyseus/core';

/** A room socket's seat, as the ws transport reads it from the upgrade URL. */
export interface ResumingSocket {
  roomId: string;
  sessionId: string;
  reconnectionToken: string;
}

/** What a room that admits resuming sockets offers (the world room). */
interface ResumableRoom {
  admitResumingSocket(sessionId: string, reconnectionToken: string, context: AuthContext): Promise<void>;
}

/** The held seat a room socket's upgrade URL presents, if it presents one (`/<processId>/<roomId>?sessionId&reconnectionToken`). */
export function resumingSocketOf(url: string | undefined): ResumingSocket | undefined {
  const parsed = new URL(`ws://server${url ?? '/'}`);
  const roomId = /\/[a-zA-Z0-9_-]+\/([a-zA-Z0-9_-]+)$/.exec(parsed.pathname)?.[1];
  const sessionId = parsed.searchParams.get('sessionId');
  const reconnectionToken = parsed.searchParams.get('reconnectionToken');
  if (!roomId || !sessionId || !reconnectionToken) return undefined;
  return { roomId, sessionId, reconnectionToken };
}

/** Admits the socket to its room's held seat, or throws the room's join refusal. Rooms that hold no seats decide alone. */
export async function admitResumingSocket(socket: ResumingSocket, context: AuthContext): Promise<void> {
  const room = matchMaker.getLocalRoomById(socket.roomId) as unknown as Partial<ResumableRoom> | undefined;
  if (typeof room?.admitResumingSocket !== 'function') return;
  await room.admitResumingSocket(socket.sessionId, socket.reconnectionToken, context);
}

/**
 * Scale-out: which process answers a REST request that reads the live world (src/http/world-api-forwarder.ts):
 * `GET /api/v1/world?world=N` goes to world N's process; anything else to the process of the world the caller's
 * character is in (character_worlds names its room; the room listing its process). Undefined (answered wherever the
 * request arrived): no bearer token, a token that does not verify, or a caller in no world.
 */
import { matchMaker } from '@colyseus/core';
import type { Request } from 'express';
import type { Database } from '../db/database.ts';
import { worldRoomOfAccount } from '../db/worlds.ts';
import { findWorld } from '../../rooms/entry/world-choice.ts';
import { bearerToken } from '../auth/middleware.ts';

/** The request's bearer token as the /api gate reads it; undefined when absent or malformed (the gate refuses those). */
function bearerOf(header: string | undefined): string | undefined {
  try {
    return bearerToken(header);
  } catch {
    return undefined;
  }
}

export interface Caller {
  accountId: string;
  characterId?: string;
}

export function worldProcessOfRequest(db: Database, identify: (token: string) => Promise<Caller>) {
  return async (req: Request): Promise<string | undefined> => {
    const named = req.path.toLowerCase() === '/api/v1/world' ? Number(req.query.world) : Number.NaN;
    if (Number.isInteger(named) && named > 0) return (await findWorld(named))?.processId;
    const token = bearerOf(req.headers.authorization);
    if (!token) return undefined;
    const caller = await identify(token).catch(() => undefined);
    if (!caller) return undefined;
    const roomId = await worldRoomOfAccount(db, caller.accountId, caller.characterId);
    if (!roomId) return undefined;
    const [room] = await matchMaker.query({ roomId });
    return room?.processId;
  };
}

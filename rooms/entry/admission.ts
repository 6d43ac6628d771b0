/**
 * Who may take a seat in a world, and with which character (the world room's `onAuth`, run on the matchmaking
 * request for SDK and /ws entries alike): the identity (re-checked for a /ws socket, verified for an SDK request),
 * the entry limit (not for an entry an approved hop already counted), the combat rule, the wait for the character's
 * last leave to be saved, the character (loaded, or created on entry), its binding to the token, and that it is not
 * in a world already on this process (the database's claim decides across processes, in onJoin).
 */
import type { AuthContext } from '@colyseus/core';
import { authenticateColyseusClient } from '../../src/auth/colyseus.ts';
import type { Identity } from '../../src/auth/tokens.ts';
import { VERIFIED_IDENTITY } from '../../src/auth/verified-identity.ts';
import { gameContext } from '../../src/context.ts';
import type { Character } from '../../src/db/entities/index.ts';
import { createCharacterOnEntry, loadOwnedCharacter } from '../../src/db/player-sessions.ts';
import { GameError } from '../../src/game/refusal.ts';
import { isDatabaseUnreachable } from '../../src/db/unreachable.ts';
import { joinRefusal } from '../game-error.ts';
import { isUpdateEncoding, UPDATE_ENCODINGS } from '../world/update-frames.ts';
import { assertNotLingering } from './combat-leave.ts';
import { admitWorldEntry, PREADMITTED_ENTRY } from './entry-limit.ts';
import { recheckJoiningIdentity } from './joining-rights.ts';

/** A join's auth context: the /ws adapter's verified identity and server-only marks (symbols: no client sets them). */
export type EntryAuthContext = AuthContext & { [VERIFIED_IDENTITY]?: Identity; [PREADMITTED_ENTRY]?: boolean };

export interface WorldJoinOptions {
  characterId?: unknown;
  createCharacter?: unknown;
  /** SDK clients: `json` or `compact` for `world:update` room messages instead of schema sync (sdk-updates.ts). */
  updates?: unknown;
}

/** What an admitted entry brings to the room's onJoin. */
export interface WorldAuth {
  identity: Identity;
  character: Character;
  /** The client's address (for attempt limits such as the admin code). */
  address: string | undefined;
}

export async function admitEntry(options: WorldJoinOptions, context: EntryAuthContext): Promise<WorldAuth> {
  const verified = context[VERIFIED_IDENTITY];
  // A socket's identity was verified once, at authenticate: entering (again) re-checks its rights.
  const identity = verified ? await recheckJoiningIdentity(verified) : await authenticateColyseusClient(context);
  const { db, data, online, leaving } = gameContext();
  try {
    if (options.updates !== undefined && !isUpdateEncoding(options.updates)) {
      throw new GameError('INVALID_REQUEST', `"updates" must be one of ${UPDATE_ENCODINGS.join(', ')}`);
    }
    assertNotLingering(options.characterId);
    if (context[PREADMITTED_ENTRY] !== true) await admitWorldEntry(identity.accountId);
    if (typeof options.characterId === 'string') await leaving.get(options.characterId)?.catch(() => {});
    let character: Character;
    if (options.createCharacter !== undefined) {
      character = await createCharacterOnEntry(db.em, data!, identity.accountId, options.createCharacter);
    } else if (typeof options.characterId === 'string' && options.characterId.length <= 64) {
      character = await loadOwnedCharacter(db.em, identity.accountId, options.characterId);
    } else {
      throw new GameError('INVALID_REQUEST', 'Join with { characterId } or { createCharacter: { name, templateId? } }');
    }
    if (identity.characterId !== undefined && identity.characterId !== character.id) {
      throw new GameError('CHARACTER_NOT_OWNED', 'This token is bound to another character');
    }
    if (online.has(character.id)) throw new GameError('ALREADY_ONLINE', 'That character is already in the world');
    return { identity, character, address: context.ip };
  } catch (error) {
    if (error instanceof GameError) throw joinRefusal(error.code, error.message, error.details);
    if (isDatabaseUnreachable(error)) throw joinRefusal('WORLD_UNAVAILABLE', 'The world cannot reach its database right now; try again shortly', { retryAfterSeconds: 5 });
    throw error;
  }
}

/**
 * What the world reads and writes about a character's time in it: the character it enters with (owned by the
 * account, or created through the one creation path), the account's ignore list, the `player_sessions` rows, and
 * the saved positions. Positions are safe to lose; items are never saved here (the item transaction writes them).
 */
import { randomUUID } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { GameError } from '../game/refusal.ts';
import type { GameData } from '../manifests/game-data.ts';
import { createCharacter as createCharacterRow } from './character-creation.ts';
import { Character, IgnoreEntry, PlayerSession } from './entities/index.ts';
import { assertWorldFence, type WorldFence } from './worlds.ts';

export async function loadOwnedCharacter(em: SqlEntityManager, accountId: string, characterId: string): Promise<Character> {
  const character = await em.fork().findOne(Character, characterId);
  if (!character) throw new GameError('CHARACTER_NOT_FOUND', 'No such character');
  if (character.accountId !== accountId) throw new GameError('CHARACTER_NOT_OWNED', 'That character belongs to another account');
  return character;
}

/** Creates the character a world join asks for (`createCharacter` option) through the one creation path. */
export async function createCharacterOnEntry(em: SqlEntityManager, data: GameData, accountId: string, request: unknown): Promise<Character> {
  const { name, templateId } = (request ?? {}) as { name?: unknown; templateId?: unknown };
  if (templateId !== undefined && typeof templateId !== 'string') throw new GameError('INVALID_REQUEST', 'templateId must be a string');
  return createCharacterRow(em, data, { accountId, name, templateId });
}

/** A character entering again within this many seconds of leaving continues its last session row. */
export const SESSION_RESUME_SECONDS = 60;

/**
 * Opens the session row of an entry. Churn collapses: when the character's last session ended less than
 * SESSION_RESUME_SECONDS ago, that row is reopened (its playtime keeps adding up) instead of a new one written,
 * so entering and leaving in a loop cannot grow the table by a row per entry. Only a plain leave (logout or a
 * dropped connection) is resumed: a kick, an ended session or a shutdown keeps its row as the record of it.
 */
export async function startSession(em: SqlEntityManager, fence: WorldFence, characterId: string, accountId: string): Promise<string> {
  return em.fork().transactional(async (tx) => {
    await assertWorldFence(tx, fence, [characterId]);
    await tx.nativeUpdate(Character, { id: characterId }, { lastLoginAt: new Date() });
    const [resumed] = await tx.execute<Array<{ id: string }>>(
      `update player_sessions set ended_at = null, reason = null
        where id = (select id from (select id, reason, ended_at from player_sessions where character_id = ?
                                    order by started_at desc limit 1) last
                     where reason in ('logout', 'disconnected') and ended_at > now() - make_interval(secs => ?))
        returning id`, [characterId, SESSION_RESUME_SECONDS]);
    if (resumed) return resumed.id;
    const id = randomUUID();
    tx.create(PlayerSession, { id, characterId, accountId });
    return id;
  });
}

export interface SessionEnd {
  sessionRowId: string;
  characterId: string;
  reason: string;
  joinedAt: number;
  position: { x: number; z: number } | undefined;
}

/** Writes the final position and closes the session row in one transaction, fenced by the world's lease. */
export async function endSession(em: SqlEntityManager, fence: WorldFence, end: SessionEnd, tileSize: number): Promise<void> {
  await em.fork().transactional(async (tx) => {
    await assertWorldFence(tx, fence, [end.characterId]);
    if (end.position) {
      await tx.nativeUpdate(Character, { id: end.characterId }, {
        positionX: end.position.x * tileSize, positionZ: end.position.z * tileSize,
      });
    }
    // Adds to the playtime: a resumed row (startSession) already holds the earlier spans'.
    await tx.execute('update player_sessions set ended_at = now(), reason = ?, playtime_seconds = playtime_seconds + ? where id = ?',
      [end.reason, Math.round((Date.now() - end.joinedAt) / 1000), end.sessionRowId]);
  });
}

/**
 * Saves the positions of many characters in one statement, fenced by the world's lease: only characters the world
 * holds a claim on are written.
 */
export async function savePositions(em: SqlEntityManager, fence: WorldFence, rows: Array<{ id: string; x: number; z: number }>, tileSize: number): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map(() => '(?, ?::double precision, ?::double precision)').join(', ');
  const params = rows.flatMap((r) => [r.id, r.x * tileSize, r.z * tileSize]);
  await em.fork().transactional(async (tx) => {
    await assertWorldFence(tx, fence);
    await tx.execute(
      `update characters as c set position_x = v.x, position_z = v.z from (values ${values}) as v(id, x, z)
       where c.id = v.id and exists (select 1 from character_worlds cw where cw.character_id = c.id and cw.world = ? and cw.epoch = ?)`,
      [...params, fence.world, fence.epoch],
    );
  });
}

/** Characters whose chat the account ignores. */
export async function loadIgnores(em: SqlEntityManager, accountId: string): Promise<Set<string>> {
  const rows = await em.fork().find(IgnoreEntry, { accountId }, { fields: ['ignoredCharacterId'] });
  return new Set(rows.map((r) => r.ignoredCharacterId));
}

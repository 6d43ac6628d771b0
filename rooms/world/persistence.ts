/**
 * What the world reads and writes about characters: loading a character for a join (ownership checked),
 * creating one, the session rows, and saving positions. Positions are safe to lose; items are never saved here.
 */
import { randomUUID } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { Character, PlayerSession, IgnoreEntry } from '../../src/db/entities/index.ts';
import { CharacterCreationRefused, createCharacter as createCharacterRow } from '../../src/db/character-creation.ts';
import type { GameData } from '../../src/manifests/game-data.ts';
import { GameError } from '../game-error.ts';

export async function loadOwnedCharacter(em: SqlEntityManager, accountId: string, characterId: string): Promise<Character> {
  const character = await em.fork().findOne(Character, characterId);
  if (!character) throw new GameError('CHARACTER_NOT_FOUND', 'No such character');
  if (character.accountId !== accountId) throw new GameError('CHARACTER_NOT_OWNED', 'That character belongs to another account');
  return character;
}

/** Creates a character through the one creation path (name rule, account limit, optional starting kit). */
export async function createCharacter(em: SqlEntityManager, data: GameData, accountId: string, request: unknown): Promise<Character> {
  const { name, templateId } = (request ?? {}) as { name?: unknown; templateId?: unknown };
  if (templateId !== undefined && typeof templateId !== 'string') throw new GameError('INVALID_REQUEST', 'templateId must be a string');
  try {
    return await createCharacterRow(em, data, { accountId, name, templateId });
  } catch (error) {
    if (error instanceof CharacterCreationRefused) throw new GameError(error.code, error.message);
    throw error;
  }
}

export async function startSession(em: SqlEntityManager, characterId: string, accountId: string): Promise<string> {
  const fork = em.fork();
  const id = randomUUID();
  fork.create(PlayerSession, { id, characterId, accountId });
  await fork.nativeUpdate(Character, { id: characterId }, { lastLoginAt: new Date() });
  await fork.flush();
  return id;
}

export interface SessionEnd {
  sessionRowId: string;
  characterId: string;
  reason: string;
  joinedAt: number;
  position: { x: number; z: number } | undefined;
}

/** Writes the final position and closes the session row in one transaction. */
export async function endSession(em: SqlEntityManager, end: SessionEnd, tileSize: number): Promise<void> {
  await em.fork().transactional(async (tx) => {
    if (end.position) {
      await tx.nativeUpdate(Character, { id: end.characterId }, {
        positionX: end.position.x * tileSize, positionZ: end.position.z * tileSize,
      });
    }
    await tx.nativeUpdate(PlayerSession, { id: end.sessionRowId }, {
      endedAt: new Date(), reason: end.reason, playtimeSeconds: Math.round((Date.now() - end.joinedAt) / 1000),
    });
  });
}

/** Saves the positions of many characters in one statement. */
export async function savePositions(em: SqlEntityManager, rows: Array<{ id: string; x: number; z: number }>, tileSize: number): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map(() => '(?, ?::double precision, ?::double precision)').join(', ');
  const params = rows.flatMap((r) => [r.id, r.x * tileSize, r.z * tileSize]);
  await em.getConnection().execute(
    `update characters as c set position_x = v.x, position_z = v.z from (values ${values}) as v(id, x, z) where c.id = v.id`,
    params,
  );
}

/** Characters whose chat the account ignores. */
export async function loadIgnores(em: SqlEntityManager, accountId: string): Promise<Set<string>> {
  const rows = await em.fork().find(IgnoreEntry, { accountId }, { fields: ['ignoredCharacterId'] });
  return new Set(rows.map((r) => r.ignoredCharacterId));
}

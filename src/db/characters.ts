/**
 * The `characters` rows as the REST routes, the ownership checks and the agents read them: one character by id,
 * an account's characters (for /api/auth/me, GET /api/v1/player and the paginated GET /api/character) and deleting
 * one (everything it owns goes with it by the database's cascades). Creating one is
 * character-creation.ts; what the world writes while a character plays is player-sessions.ts and the item
 * transaction.
 */
import { Character } from './entities/index.ts';
import type { Transaction } from './transaction.ts';

/** The character, or null when there is none. */
export function findCharacter(tx: Transaction, characterId: string): Promise<Character | null> {
  return tx.findOne(Character, { id: characterId });
}

/** Id and name of each of the account's characters, oldest first. */
export function characterNamesOfAccount(tx: Transaction, accountId: string): Promise<Array<Pick<Character, 'id' | 'name'>>> {
  return tx.find(Character, { accountId }, { fields: ['id', 'name'], orderBy: { createdAt: 'asc' } });
}

export type CharacterListing = Pick<Character, 'id' | 'name' | 'combatLevel' | 'createdAt' | 'lastLoginAt'>;

/** What GET /api/v1/player shows of each of the account's characters, oldest first. */
export function characterListingsOfAccount(tx: Transaction, accountId: string): Promise<CharacterListing[]> {
  return tx.find(Character, { accountId }, {
    orderBy: { createdAt: 'asc', id: 'asc' }, fields: ['id', 'name', 'combatLevel', 'createdAt', 'lastLoginAt'],
  });
}

/** One page of the account's characters, oldest first, and how many it has in all. */
export function pageCharactersOfAccount(tx: Transaction, accountId: string, limit: number, offset: number): Promise<[Character[], number]> {
  return tx.findAndCount(Character, { accountId }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit, offset });
}

/** Deletes the character and, by the cascades, everything it owns. */
export async function deleteCharacter(tx: Transaction, characterId: string): Promise<void> {
  await tx.nativeDelete(Character, { id: characterId });
}

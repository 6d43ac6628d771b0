/**
 * Accounts as authentication sees them: identity-provider users created on first sight (race-free), temporary
 * identities for anonymous mode, their cleanup, and the ownership checks every character-scoped action needs.
 * Functions take an open unit of work (src/db/transaction.ts) and never fork or flush someone else's; the rows are
 * read and written by the stores in src/db (users.ts, characters.ts).
 */
import { randomUUID } from 'node:crypto';
import { findCharacter } from '../db/characters.ts';
import type { Character, User } from '../db/entities/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { deleteExpiredTemporaryUserRows, findOrInsertIdpUser, findUser, insertTemporaryUser } from '../db/users.ts';
import { AuthError } from './errors.ts';
import type { Identity } from './tokens.ts';

/** Roles every new account gets. Admin is never granted here: only an operator or the admin code gate can. */
export const DEFAULT_ROLES: readonly string[] = Object.freeze(['player']);

function shortId(id: string): string {
  return id.replaceAll('-', '').slice(0, 8);
}

/**
 * The account of an identity-provider subject, created on first sight. Concurrent first logins race on the
 * unique `idp_subject`: each inserts with ON CONFLICT DO NOTHING and then reads the one row that won.
 */
export async function findOrCreateIdpUser(em: Transaction, subject: string, now = new Date()): Promise<User> {
  const id = randomUUID();
  return findOrInsertIdpUser(em, subject, { id, displayName: `Adventurer ${shortId(id)}`, roles: [...DEFAULT_ROLES] }, now);
}

/** A temporary identity (anonymous mode): role player only, deleted with its characters after `ttlSeconds`. */
export async function createTemporaryUser(em: Transaction, ttlSeconds: number, now = new Date()): Promise<User> {
  const id = randomUUID();
  return insertTemporaryUser(em, { id, displayName: `Guest ${shortId(id)}`, roles: [...DEFAULT_ROLES] }, new Date(now.getTime() + ttlSeconds * 1000), now);
}

/** The account a token names if it still exists and has not expired; otherwise ACCOUNT_NOT_FOUND (401). */
export async function requireLiveAccount(em: Transaction, accountId: string, now = new Date()): Promise<User> {
  return assertLiveAccount(await findUser(em, accountId), now);
}

/** `account` if it exists and has not expired; otherwise ACCOUNT_NOT_FOUND (401). */
export function assertLiveAccount<T extends Pick<User, 'isTemporary' | 'expiresAt'>>(account: T | null, now = new Date()): T {
  if (!account || (account.isTemporary && account.expiresAt !== null && account.expiresAt !== undefined && account.expiresAt <= now)) {
    throw new AuthError('ACCOUNT_NOT_FOUND', 'the account of this token no longer exists');
  }
  return account;
}

/**
 * Deletes temporary identities whose time is up; the database cascades the delete to their characters and
 * everything those own. Returns how many accounts were deleted.
 */
export async function deleteExpiredTemporaryUsers(em: Transaction, now = new Date()): Promise<number> {
  return (await deleteExpiredTemporaryUserIds(em, now)).length;
}

/** As deleteExpiredTemporaryUsers, answering the ids deleted (their live sessions are then ended). */
export function deleteExpiredTemporaryUserIds(em: Transaction, now = new Date()): Promise<string[]> {
  return deleteExpiredTemporaryUserRows(em, now);
}

/**
 * The character `characterId` if `accountId` owns it: CHARACTER_NOT_FOUND (404) when there is no such character,
 * CHARACTER_NOT_OWNED (403) when another account owns it.
 */
export async function assertOwnsCharacter(em: Transaction, accountId: string, characterId: string): Promise<Character> {
  const character = typeof characterId === 'string' && characterId.length > 0 && characterId.length <= 200
    ? await findCharacter(em, characterId)
    : null;
  if (!character) throw new AuthError('CHARACTER_NOT_FOUND', 'no such character');
  if (character.accountId !== accountId) throw new AuthError('CHARACTER_NOT_OWNED', 'this character belongs to another account');
  return character;
}

/**
 * Whether a verified identity may act as a character: a token bound to one character (agent tokens, character
 * tokens) may act only as that one, and the account must own it.
 */
export async function assertMayActAs(em: Transaction, identity: Identity, characterId: string): Promise<Character> {
  if (identity.characterId !== undefined && identity.characterId !== characterId) {
    throw new AuthError('CHARACTER_NOT_OWNED', 'this token is bound to another character');
  }
  return assertOwnsCharacter(em, identity.accountId, characterId);
}

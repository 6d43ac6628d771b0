/**
 * Friends, friend requests and ignore lists (`friendships` both ways, `friend_requests`, the accounts'
 * `ignore_lists`) and the character lookup by id or name that social actions start from. A change between two
 * characters locks both rows, reads both lists and rewrites the pair's rows in one transaction (the caller's).
 */
import type { SocialLists } from '../game/social.ts';
import type { Database } from './database.ts';
import { Friendship } from './entities/index.ts';
import type { Transaction } from './transaction.ts';

export interface CharacterRef {
  readonly id: string;
  readonly name: string;
  readonly account_id: string;
}

/** The character by id, or by name (case-insensitive, trimmed); null when there is none. */
export async function findCharacterRef(em: Transaction, ref: { characterId: string } | { name: string }): Promise<CharacterRef | null> {
  const [row] = 'characterId' in ref
    ? await em.execute<CharacterRef[]>('select id, name, account_id from characters where id = ?', [ref.characterId])
    : await em.execute<CharacterRef[]>('select id, name, account_id from characters where lower(name) = lower(?)', [ref.name.trim()]);
  return row ?? null;
}

/** Locks the characters' rows in sorted id order (two changes never wait on each other in a cycle). */
export async function lockCharacterPair(tx: Transaction, a: string, b: string): Promise<void> {
  await tx.execute(`select id from characters where id in (?, ?) order by id for update`, [a, b]);
}

/** The character's friends, requests both ways and its account's ignore list, oldest first. */
export async function loadSocialLists(em: Transaction, characterId: string, accountId: string): Promise<SocialLists> {
  const ids = async (sql: string, param: string) => (await em.execute<Array<{ id: string }>>(sql, [param])).map((r) => r.id);
  return {
    playerId: characterId,
    friends: await ids('select friend_id as id from friendships where character_id = ? order by created_at, id', characterId),
    incoming: await ids('select from_character_id as id from friend_requests where to_character_id = ? order by created_at, id', characterId),
    outgoing: await ids('select to_character_id as id from friend_requests where from_character_id = ? order by created_at, id', characterId),
    ignores: await ids('select ignored_character_id as id from ignore_lists where account_id = ? order by created_at, id', accountId),
  };
}

/** Rewrites every row between the two characters to match their lists after a rule. */
export async function writeSocialPair(tx: Transaction, a: CharacterRef, b: CharacterRef, la: SocialLists, lb: SocialLists): Promise<void> {
  const now = new Date().toISOString();
  await tx.execute('delete from friendships where (character_id = ? and friend_id = ?) or (character_id = ? and friend_id = ?)', [a.id, b.id, b.id, a.id]);
  if (la.friends.includes(b.id) && lb.friends.includes(a.id)) {
    await tx.execute('insert into friendships (character_id, friend_id, created_at) values (?, ?, ?), (?, ?, ?)', [a.id, b.id, now, b.id, a.id, now]);
  }
  await tx.execute('delete from friend_requests where (from_character_id = ? and to_character_id = ?) or (from_character_id = ? and to_character_id = ?)', [a.id, b.id, b.id, a.id]);
  if (la.outgoing.includes(b.id)) await tx.execute('insert into friend_requests (from_character_id, to_character_id, created_at) values (?, ?, ?)', [a.id, b.id, now]);
  if (lb.outgoing.includes(a.id)) await tx.execute('insert into friend_requests (from_character_id, to_character_id, created_at) values (?, ?, ?)', [b.id, a.id, now]);
  await tx.execute('delete from ignore_lists where (account_id = ? and ignored_character_id = ?) or (account_id = ? and ignored_character_id = ?)', [a.account_id, b.id, b.account_id, a.id]);
  if (la.ignores.includes(b.id)) await tx.execute('insert into ignore_lists (account_id, ignored_character_id, created_at) values (?, ?, ?)', [a.account_id, b.id, now]);
  if (lb.ignores.includes(a.id)) await tx.execute('insert into ignore_lists (account_id, ignored_character_id, created_at) values (?, ?, ?)', [b.account_id, a.id, now]);
}

/** The lists outside a transaction (on joining, after a change). */
export function readSocialLists(db: Database, characterId: string, accountId: string): Promise<SocialLists> {
  return loadSocialLists(db.em.fork(), characterId, accountId);
}

/** The character by id or name outside a transaction (a private message's recipient). */
export function lookupCharacterRef(db: Database, ref: { characterId: string } | { name: string }): Promise<CharacterRef | null> {
  return findCharacterRef(db.em.fork(), ref);
}

/** Names of the given characters (id → name; unknown ids are left out). */
export async function characterNames(db: Database, ids: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (ids.length === 0) return names;
  const rows = await db.em.fork().execute<Array<{ id: string; name: string }>>(`select id, name from characters where id in (${ids.map(() => '?').join(', ')})`, [...ids]);
  for (const row of rows) names.set(row.id, row.name);
  return names;
}

/** One page of the character's friendships, oldest first, and how many it has (GET /api/player/friends). */
export function pageFriendships(tx: Transaction, characterId: string, limit: number, offset: number): Promise<[Friendship[], number]> {
  return tx.findAndCount(Friendship, { characterId }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit, offset });
}

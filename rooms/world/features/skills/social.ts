/**
 * Friends, friend requests, ignore lists and private messages. Every change is one transaction that locks both
 * characters' rows (sorted order), reads both lists from the database, applies the pure rule (src/game/social.ts)
 * and rewrites the pair's rows (friendships both ways, pending requests, the accounts' ignore entries). Online
 * players then get `social:state`; the world's public chat filter (player.ignores) follows the ignore list.
 */
import type { SqlEntityManager } from '@mikro-orm/sql';
import { z } from 'zod';
import {
  acceptFriend, declineFriend, ignorePlayer, privateMessage, removeFriend, requestFriend, unignorePlayer,
  type SocialLists,
} from '../../../../src/game/social.ts';
import type { Result } from '../../../../src/game/result.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import { chatLimits } from '../chat.ts';
import type { WorldApi } from '../../world-api.ts';

export const PlayerRef = z.union([
  z.object({ characterId: z.string().min(1).max(64) }).strict(),
  z.object({ name: z.string().min(1).max(32) }).strict(),
]);
export type PlayerRef = z.infer<typeof PlayerRef>;

export const PrivateMessageRequest = z.union([
  z.object({ toId: z.string().min(1).max(64), message: z.string().max(800) }).strict(),
  z.object({ toName: z.string().min(1).max(32), message: z.string().max(800) }).strict(),
]);

interface CharacterRow {
  id: string;
  name: string;
  account_id: string;
}

const cache = new WeakMap<OnlinePlayer, SocialLists>();

async function findCharacter(em: SqlEntityManager, ref: { characterId: string } | { name: string }): Promise<CharacterRow> {
  const [row] = 'characterId' in ref
    ? await em.execute<CharacterRow[]>('select id, name, account_id from characters where id = ?', [ref.characterId])
    : await em.execute<CharacterRow[]>('select id, name, account_id from characters where lower(name) = lower(?)', [ref.name.trim()]);
  if (!row) throw new GameError('PLAYER_NOT_FOUND', 'There is no player by that name');
  return row;
}

async function loadLists(em: SqlEntityManager, characterId: string, accountId: string): Promise<SocialLists> {
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
async function writePair(tx: SqlEntityManager, a: CharacterRow, b: CharacterRow, la: SocialLists, lb: SocialLists): Promise<void> {
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

type PairRule = (self: SocialLists, other: SocialLists) => Result<{ self: SocialLists; other: SocialLists; becameFriends?: boolean }, string>;

/** One social change between the player and another character, in one locked transaction. */
async function changePair(world: WorldApi, player: OnlinePlayer, ref: PlayerRef, rule: PairRule): Promise<{ other: CharacterRow; becameFriends: boolean }> {
  const result = await world.context().db.em.fork().transactional(async (tx) => {
    const other = await findCharacter(tx, ref);
    if (other.id === player.id) throw new GameError('SELF', 'That is you');
    await tx.execute(`select id from characters where id in (?, ?) order by id for update`, [player.id, other.id]);
    const self = await loadLists(tx, player.id, player.accountId);
    const theirs = await loadLists(tx, other.id, other.account_id);
    const outcome = rule(self, theirs);
    if (!outcome.ok) throw new GameError(outcome.code, outcome.message);
    await writePair(tx, { id: player.id, name: player.name, account_id: player.accountId }, other, outcome.value.self, outcome.value.other);
    return { other, becameFriends: outcome.value.becameFriends ?? false };
  });
  await refresh(world, player.accountId);
  await refresh(world, result.other.account_id);
  return result;
}

function onlineNamed(world: WorldApi, ids: readonly string[], names: Map<string, string>) {
  return ids.map((id) => ({ characterId: id, name: names.get(id) ?? world.player(id)?.name ?? '', online: world.player(id) !== undefined }));
}

/** Reloads the lists of the account's online characters, keeps the chat filter in step, sends `social:state`. */
async function refresh(world: WorldApi, accountId: string): Promise<void> {
  for (const player of world.players()) {
    if (player.accountId !== accountId) continue;
    const em = world.context().db.em.fork();
    const lists = await loadLists(em, player.id, player.accountId);
    cache.set(player, lists);
    player.ignores = new Set(lists.ignores);
    const everyone = [...new Set([...lists.friends, ...lists.incoming, ...lists.outgoing, ...lists.ignores])];
    const names = new Map<string, string>();
    if (everyone.length > 0) {
      const rows = await em.execute<Array<{ id: string; name: string }>>(`select id, name from characters where id in (${everyone.map(() => '?').join(', ')})`, everyone);
      for (const row of rows) names.set(row.id, row.name);
    }
    player.client.send('social:state', {
      friends: onlineNamed(world, lists.friends, names),
      incoming: onlineNamed(world, lists.incoming, names),
      outgoing: onlineNamed(world, lists.outgoing, names),
      ignores: lists.ignores.map((id) => ({ characterId: id, name: names.get(id) ?? '' })),
    });
  }
}

function tellFriends(world: WorldApi, player: OnlinePlayer, online: boolean): void {
  const lists = cache.get(player);
  if (!lists) return;
  for (const friendId of lists.friends) {
    const friend = world.player(friendId);
    if (friend && friend !== player) friend.client.send('friend:status', { characterId: player.id, name: player.name, online });
  }
}

function sendPrivate(world: WorldApi, sender: OnlinePlayer, to: { toId: string } | { toName: string }, raw: string): void {
  const recipient = 'toId' in to
    ? world.player(to.toId)
    : [...world.players()].find((p) => p.name.toLowerCase() === to.toName.trim().toLowerCase());
  const senderLists = cache.get(sender);
  const recipientLists = recipient ? cache.get(recipient) : undefined;
  if (!recipient || !senderLists || !recipientLists) throw new GameError('PLAYER_OFFLINE', 'That player is not online');
  const text = privateMessage(senderLists, recipientLists, raw);
  if (!text.ok) throw new GameError(text.code, text.message);
  chatLimits.of(sender).admit(Date.now());
  const message = {
    fromId: sender.id, fromName: sender.name, toId: recipient.id, toName: recipient.name, message: text.value,
    channel: 'private', timestamp: new Date().toISOString(),
  };
  recipient.client.send('chat:privateMessage', message);
  sender.client.send('chat:privateMessageSent', message);
}

export function installSocial(world: WorldApi): void {
  world.onPlayerJoin(async (player) => {
    const lists = await loadLists(world.context().db.em.fork(), player.id, player.accountId);
    cache.set(player, lists);
    player.ignores = new Set(lists.ignores);
  });
  world.onPlayerLeave((player) => {
    tellFriends(world, player, false);
    cache.delete(player);
  });
  // After the join hooks the player is in the world: its state and friends' status can go out.
  const announced = new WeakSet<OnlinePlayer>();
  world.onTick(() => {
    for (const player of world.players()) {
      if (announced.has(player) || !cache.has(player)) continue;
      announced.add(player);
      tellFriends(world, player, true);
      void refresh(world, player.accountId).catch(() => undefined);
    }
  });

  world.handle('friend:request', PlayerRef, async (player, ref) => {
    const { other, becameFriends } = await changePair(world, player, ref, (self, them) => {
      const r = requestFriend(self, them);
      return r.ok ? { ok: true, value: { self: r.value.sender, other: r.value.recipient, becameFriends: r.value.becameFriends } } : r;
    });
    const target = world.player(other.id);
    if (becameFriends) {
      player.client.send('friend:added', { characterId: other.id, name: other.name, online: target !== undefined });
      target?.client.send('friend:added', { characterId: player.id, name: player.name, online: true });
    } else {
      player.client.send('friend:requestSent', { characterId: other.id, name: other.name });
      target?.client.send('friend:requestReceived', { characterId: player.id, name: player.name });
    }
  });
  world.handle('friend:accept', PlayerRef, async (player, ref) => {
    const { other } = await changePair(world, player, ref, (self, them) => {
      const r = acceptFriend(self, them);
      return r.ok ? { ok: true, value: { self: r.value.recipient, other: r.value.sender } } : r;
    });
    const target = world.player(other.id);
    player.client.send('friend:added', { characterId: other.id, name: other.name, online: target !== undefined });
    target?.client.send('friend:added', { characterId: player.id, name: player.name, online: true });
  });
  world.handle('friend:decline', PlayerRef, async (player, ref) => {
    const { other } = await changePair(world, player, ref, (self, them) => {
      const r = declineFriend(self, them);
      return r.ok ? { ok: true, value: { self: r.value.recipient, other: r.value.sender } } : r;
    });
    player.client.send('friend:declined', { characterId: other.id, name: other.name });
  });
  world.handle('friend:remove', PlayerRef, async (player, ref) => {
    const { other } = await changePair(world, player, ref, removeFriend);
    player.client.send('friend:removed', { characterId: other.id, name: other.name });
    world.player(other.id)?.client.send('friend:removed', { characterId: player.id, name: player.name });
  });
  world.handle('ignore:add', PlayerRef, async (player, ref) => {
    const { other } = await changePair(world, player, ref, ignorePlayer);
    player.client.send('ignore:added', { characterId: other.id, name: other.name });
  });
  world.handle('ignore:remove', PlayerRef, async (player, ref) => {
    const { other } = await changePair(world, player, ref, (self, them) => {
      const r = unignorePlayer(self, them.playerId);
      return r.ok ? { ok: true, value: { self: r.value, other: them } } : r;
    });
    player.client.send('ignore:removed', { characterId: other.id, name: other.name });
  });
  world.handle('chat:private', PrivateMessageRequest, (player, request) => {
    sendPrivate(world, player, 'toId' in request ? { toId: request.toId } : { toName: request.toName }, request.message);
  });
}

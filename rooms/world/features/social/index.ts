/**
 * The social area: friends, friend requests, ignore lists and private messages. Every change is one transaction
 * that locks both characters' rows (sorted order), reads both lists from the database, applies the pure rule
 * (src/game/social.ts) and rewrites the pair's rows (friendships both ways, pending requests, the accounts' ignore
 * entries) through the store (src/db/social.ts). Online players then get `social:state`; the world's public chat
 * filter (player.ignores) follows the ignore list.
 */
import { z } from 'zod';
import {
  characterNames, findCharacterRef, loadSocialLists, lockCharacterPair, readSocialLists, writeSocialPair, type CharacterRef,
} from '../../../../src/db/social.ts';
import { transaction } from '../../../../src/db/transaction.ts';
import {
  acceptFriend, declineFriend, ignorePlayer, privateMessage, removeFriend, requestFriend, unignorePlayer,
  type SocialLists,
} from '../../../../src/game/social.ts';
import type { Result } from '../../../../src/game/result.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { defineArea, on, PlayerSlot } from '../../area.ts';
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

/** The player's lists as last read (loaded on join, reloaded after every change that concerns it). */
export const socialLists = new PlayerSlot<SocialLists | undefined>('social-lists', () => undefined);
/** The player's state and its friends' status went out (once, after its join). */
const announced = new PlayerSlot<boolean>('social-announced', () => false);

type PairRule = (self: SocialLists, other: SocialLists) => Result<{ self: SocialLists; other: SocialLists; becameFriends?: boolean }, string>;

/** One social change between the player and another character, in one locked transaction. */
async function changePair(world: WorldApi, player: OnlinePlayer, ref: PlayerRef, rule: PairRule): Promise<{ other: CharacterRef; becameFriends: boolean }> {
  const result = await transaction(world.context().db, async (tx) => {
    const other = await findCharacterRef(tx, ref);
    if (!other) throw new GameError('PLAYER_NOT_FOUND', 'There is no player by that name');
    if (other.id === player.id) throw new GameError('SELF', 'That is you');
    await lockCharacterPair(tx, player.id, other.id);
    const self = await loadSocialLists(tx, player.id, player.accountId);
    const theirs = await loadSocialLists(tx, other.id, other.account_id);
    const outcome = rule(self, theirs);
    if (!outcome.ok) throw new GameError(outcome.code, outcome.message);
    await writeSocialPair(tx, { id: player.id, name: player.name, account_id: player.accountId }, other, outcome.value.self, outcome.value.other);
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
    const lists = await readSocialLists(world.context().db, player.id, player.accountId);
    socialLists.set(player, lists);
    player.ignores = new Set(lists.ignores);
    const everyone = [...new Set([...lists.friends, ...lists.incoming, ...lists.outgoing, ...lists.ignores])];
    const names = await characterNames(world.context().db, everyone);
    player.client.send('social:state', {
      friends: onlineNamed(world, lists.friends, names),
      incoming: onlineNamed(world, lists.incoming, names),
      outgoing: onlineNamed(world, lists.outgoing, names),
      ignores: lists.ignores.map((id) => ({ characterId: id, name: names.get(id) ?? '' })),
    });
  }
}

function tellFriends(world: WorldApi, player: OnlinePlayer, online: boolean): void {
  const lists = socialLists.peek(player);
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
  const senderLists = socialLists.peek(sender);
  const recipientLists = recipient ? socialLists.peek(recipient) : undefined;
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

export const social = defineArea({
  name: 'social',
  messages: {
    'friend:request': on(PlayerRef, async ({ world, player }, ref) => {
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
    }),
    'friend:accept': on(PlayerRef, async ({ world, player }, ref) => {
      const { other } = await changePair(world, player, ref, (self, them) => {
        const r = acceptFriend(self, them);
        return r.ok ? { ok: true, value: { self: r.value.recipient, other: r.value.sender } } : r;
      });
      const target = world.player(other.id);
      player.client.send('friend:added', { characterId: other.id, name: other.name, online: target !== undefined });
      target?.client.send('friend:added', { characterId: player.id, name: player.name, online: true });
    }),
    'friend:decline': on(PlayerRef, async ({ world, player }, ref) => {
      const { other } = await changePair(world, player, ref, (self, them) => {
        const r = declineFriend(self, them);
        return r.ok ? { ok: true, value: { self: r.value.recipient, other: r.value.sender } } : r;
      });
      player.client.send('friend:declined', { characterId: other.id, name: other.name });
    }),
    'friend:remove': on(PlayerRef, async ({ world, player }, ref) => {
      const { other } = await changePair(world, player, ref, removeFriend);
      player.client.send('friend:removed', { characterId: other.id, name: other.name });
      world.player(other.id)?.client.send('friend:removed', { characterId: player.id, name: player.name });
    }),
    'ignore:add': on(PlayerRef, async ({ world, player }, ref) => {
      const { other } = await changePair(world, player, ref, ignorePlayer);
      player.client.send('ignore:added', { characterId: other.id, name: other.name });
    }),
    'ignore:remove': on(PlayerRef, async ({ world, player }, ref) => {
      const { other } = await changePair(world, player, ref, (self, them) => {
        const r = unignorePlayer(self, them.playerId);
        return r.ok ? { ok: true, value: { self: r.value, other: them } } : r;
      });
      player.client.send('ignore:removed', { characterId: other.id, name: other.name });
    }),
    'chat:private': on(PrivateMessageRequest, ({ world, player }, request) => {
      sendPrivate(world, player, 'toId' in request ? { toId: request.toId } : { toName: request.toName }, request.message);
    }),
  },
  sends: [
    'social:state', 'friend:status', 'friend:added', 'friend:requestSent', 'friend:requestReceived', 'friend:declined',
    'friend:removed', 'ignore:added', 'ignore:removed', 'chat:privateMessage', 'chat:privateMessageSent',
  ],
  playerState: [socialLists, announced],
  install(world) {
    world.onPlayerJoin(async (player) => {
      const lists = await readSocialLists(world.context().db, player.id, player.accountId);
      socialLists.set(player, lists);
      player.ignores = new Set(lists.ignores);
    });
    world.onPlayerLeave((player) => {
      tellFriends(world, player, false);
      socialLists.clear(player);
    });
    // After the join hooks the player is in the world: its state and friends' status can go out.
    world.onTick(() => {
      for (const player of world.players()) {
        if (announced.of(player) || !socialLists.peek(player)) continue;
        announced.set(player, true);
        tellFriends(world, player, true);
        void refresh(world, player.accountId).catch(() => undefined);
      }
    });
  },
});

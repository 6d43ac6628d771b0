/**
 * The social area: friends, friend requests, ignore lists and private messages. Every change is one transaction
 * that locks both characters' rows (sorted order), reads both lists from the database, applies the pure rule
 * (src/game/social.ts) and rewrites the pair's rows (friendships both ways, pending requests, the accounts' ignore
 * entries) through the store (src/db/social.ts). Online players then get `social:state`; the world's public chat
 * filter (player.ignores) follows the ignore list.
 *
 * Across worlds (#19): who is online and in which world is read from the database (`worldsOf`: every process sees
 * it), and what must reach a player in another world — a friend's status, a private message, a change to its lists —
 * goes through the presence channel of relay.ts, where each world delivers to its own players.
 */
import { matchMaker } from '@colyseus/core';
import { z } from 'zod';
import {
  characterNames, findCharacterRef, loadSocialLists, lockCharacterPair, lookupCharacterRef, readSocialLists, writeSocialPair,
  type CharacterRef,
} from '../../../../src/db/social.ts';
import { transaction } from '../../../../src/db/transaction.ts';
import { worldsOf } from '../../../../src/db/worlds.ts';
import {
  acceptFriend, declineFriend, ignorePlayer, privateMessage, removeFriend, requestFriend, unignorePlayer,
  type SocialLists,
} from '../../../../src/game/social.ts';
import type { Result } from '../../../../src/game/result.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { defineArea, on, PlayerSlot, WorldSlot } from '../../area.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import { chatLimits } from '../chat.ts';
import type { WorldApi } from '../../world-api.ts';
import { SocialRelay, type ListsChanged, type PrivateLine, type SocialChannel, type SocialNotice } from './relay.ts';

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
/** The world's end of the cross-world channel (made in install). */
const relays = new WorldSlot<SocialRelay | undefined>('social-relay', () => undefined);

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
  await refreshPlayer(world, player);
  // The account's other characters (its ignore list is shared) wherever they are.
  relays.peek(world)?.changed({ accountId: player.accountId, except: player.id });
  return result;
}

/** The other side of a change, in whichever world it is: its lists reload, then `notify` reaches it. */
function tellOther(world: WorldApi, other: CharacterRef, notify?: SocialNotice): void {
  relays.peek(world)?.changed({ accountId: other.account_id, notify });
}

/** Two characters became friends: both hear `friend:added` with where the other is. */
async function befriended(world: WorldApi, player: OnlinePlayer, other: CharacterRef): Promise<void> {
  const where = (await worldsNow(world, [other.id])).get(other.id);
  player.client.send('friend:added', { characterId: other.id, name: other.name, online: where !== undefined, world: where ?? null });
  tellOther(world, other, {
    characterId: other.id, type: 'friend:added', data: { characterId: player.id, name: player.name, online: true, world: world.worldNumber },
  });
}

/** Which world each character is in, from the database (a world on another process counts). */
async function worldsNow(world: WorldApi, ids: readonly string[]): Promise<Map<string, number>> {
  return worldsOf(world.context().db, [...new Set(ids)]);
}

function onlineNamed(ids: readonly string[], names: Map<string, string>, worlds: Map<string, number>) {
  return ids.map((id) => ({ characterId: id, name: names.get(id) ?? '', online: worlds.has(id), world: worlds.get(id) ?? null }));
}

/** Reloads the player's lists, keeps the chat filter in step, sends `social:state`. */
async function refreshPlayer(world: WorldApi, player: OnlinePlayer): Promise<void> {
  const db = world.context().db;
  const lists = await readSocialLists(db, player.id, player.accountId);
  socialLists.set(player, lists);
  player.ignores = new Set(lists.ignores);
  const everyone = [...new Set([...lists.friends, ...lists.incoming, ...lists.outgoing, ...lists.ignores])];
  const names = await characterNames(db, everyone);
  const worlds = await worldsNow(world, [...lists.friends, ...lists.incoming, ...lists.outgoing]);
  player.client.send('social:state', {
    friends: onlineNamed(lists.friends, names, worlds),
    incoming: onlineNamed(lists.incoming, names, worlds),
    outgoing: onlineNamed(lists.outgoing, names, worlds),
    ignores: lists.ignores.map((id) => ({ characterId: id, name: names.get(id) ?? '' })),
  });
}

/**
 * Tells the character's friends, in every world on every process, that it is now in `world.worldNumber` (`online`)
 * or in no world. Called when it enters and leaves a world; a hop is a leave and an enter.
 */
export function announceFriendStatus(world: WorldApi, player: OnlinePlayer, online: boolean): void {
  relays.peek(world)?.status({ characterId: player.id, name: player.name, online, world: online ? world.worldNumber : null });
}

/**
 * A private message, checked here in the sending world: the recipient is looked up in the database (by id or
 * name), must be in a world (PLAYER_OFFLINE), and its lists are read from the database for the privacy rule
 * (friends both ways, not ignored: src/game/social.ts privateMessage). The checked line then goes through the
 * presence channel to whichever world holds the recipient; the sender hears `chat:privateMessageSent` once it
 * was delivered (PLAYER_OFFLINE when no world took it in time: the recipient left meanwhile).
 */
async function sendPrivate(world: WorldApi, sender: OnlinePlayer, to: { toId: string } | { toName: string }, raw: string): Promise<void> {
  const db = world.context().db;
  const senderLists = socialLists.peek(sender);
  const recipient = await lookupCharacterRef(db, 'toId' in to ? { characterId: to.toId } : { name: to.toName });
  const inWorld = recipient ? (await worldsOf(db, [recipient.id])).has(recipient.id) : false;
  if (!recipient || !inWorld || !senderLists) throw new GameError('PLAYER_OFFLINE', 'That player is not online');
  const recipientLists = await readSocialLists(db, recipient.id, recipient.account_id);
  const text = privateMessage(senderLists, recipientLists, raw);
  if (!text.ok) throw new GameError(text.code, text.message);
  chatLimits.of(sender).admit(Date.now());
  const line: PrivateLine = {
    fromId: sender.id, fromName: sender.name, toId: recipient.id, toName: recipient.name, message: text.value,
    channel: 'private', timestamp: new Date().toISOString(),
  };
  const relay = relays.peek(world);
  if (!relay || !(await relay.deliver(line))) throw new GameError('PLAYER_OFFLINE', 'That player is not online');
  sender.client.send('chat:privateMessageSent', line);
}

/** This world's side of the channel: deliveries to its own players. */
function receiverOf(world: WorldApi) {
  return {
    status(status: { characterId: string; name: string; online: boolean; world: number | null }) {
      for (const player of world.players()) {
        if (player.id === status.characterId || !socialLists.peek(player)?.friends.includes(status.characterId)) continue;
        player.client.send('friend:status', status);
      }
    },
    privateLine(line: PrivateLine) {
      const recipient = world.player(line.toId);
      if (!recipient) return false;
      recipient.client.send('chat:privateMessage', line);
      return true;
    },
    async changed(change: ListsChanged) {
      for (const player of [...world.players()]) {
        if (player.accountId !== change.accountId || player.id === change.except) continue;
        await refreshPlayer(world, player);
      }
      if (change.notify) world.player(change.notify.characterId)?.client.send(change.notify.type, change.notify.data);
    },
    error(error: unknown, what: string) {
      world.context().logger.error({ err: error, world: world.worldNumber }, `social relay: ${what} failed`);
    },
  };
}

export const social = defineArea({
  name: 'social',
  messages: {
    'friend:request': on(PlayerRef, async ({ world, player }, ref) => {
      const { other, becameFriends } = await changePair(world, player, ref, (self, them) => {
        const r = requestFriend(self, them);
        return r.ok ? { ok: true, value: { self: r.value.sender, other: r.value.recipient, becameFriends: r.value.becameFriends } } : r;
      });
      if (becameFriends) {
        await befriended(world, player, other);
      } else {
        player.client.send('friend:requestSent', { characterId: other.id, name: other.name });
        tellOther(world, other, { characterId: other.id, type: 'friend:requestReceived', data: { characterId: player.id, name: player.name } });
      }
    }),
    'friend:accept': on(PlayerRef, async ({ world, player }, ref) => {
      const { other } = await changePair(world, player, ref, (self, them) => {
        const r = acceptFriend(self, them);
        return r.ok ? { ok: true, value: { self: r.value.recipient, other: r.value.sender } } : r;
      });
      await befriended(world, player, other);
    }),
    'friend:decline': on(PlayerRef, async ({ world, player }, ref) => {
      const { other } = await changePair(world, player, ref, (self, them) => {
        const r = declineFriend(self, them);
        return r.ok ? { ok: true, value: { self: r.value.recipient, other: r.value.sender } } : r;
      });
      player.client.send('friend:declined', { characterId: other.id, name: other.name });
      tellOther(world, other);
    }),
    'friend:remove': on(PlayerRef, async ({ world, player }, ref) => {
      const { other } = await changePair(world, player, ref, removeFriend);
      player.client.send('friend:removed', { characterId: other.id, name: other.name });
      tellOther(world, other, { characterId: other.id, type: 'friend:removed', data: { characterId: player.id, name: player.name } });
    }),
    'ignore:add': on(PlayerRef, async ({ world, player }, ref) => {
      const { other } = await changePair(world, player, ref, ignorePlayer);
      player.client.send('ignore:added', { characterId: other.id, name: other.name });
      tellOther(world, other);
    }),
    'ignore:remove': on(PlayerRef, async ({ world, player }, ref) => {
      const { other } = await changePair(world, player, ref, (self, them) => {
        const r = unignorePlayer(self, them.playerId);
        return r.ok ? { ok: true, value: { self: r.value, other: them } } : r;
      });
      player.client.send('ignore:removed', { characterId: other.id, name: other.name });
    }),
    'chat:private': on(PrivateMessageRequest, ({ world, player }, request) =>
      sendPrivate(world, player, 'toId' in request ? { toId: request.toId } : { toName: request.toName }, request.message)),
  },
  sends: [
    'social:state', 'friend:status', 'friend:added', 'friend:requestSent', 'friend:requestReceived', 'friend:declined',
    'friend:removed', 'ignore:added', 'ignore:removed', 'chat:privateMessage', 'chat:privateMessageSent',
  ],
  playerState: [socialLists, announced],
  install(world) {
    const relay = new SocialRelay(matchMaker.presence as SocialChannel, receiverOf(world));
    relays.set(world, relay);
    relay.start();
    world.onStop(() => relay.stop());
    world.onPlayerJoin(async (player) => {
      const lists = await readSocialLists(world.context().db, player.id, player.accountId);
      socialLists.set(player, lists);
      player.ignores = new Set(lists.ignores);
    });
    world.onPlayerLeave((player) => {
      announceFriendStatus(world, player, false);
      socialLists.clear(player);
    });
    // After the join hooks the player is in the world: its state and friends' status can go out.
    world.onTick(() => {
      for (const player of world.players()) {
        if (announced.of(player) || !socialLists.peek(player)) continue;
        announced.set(player, true);
        announceFriendStatus(world, player, true);
        void refreshPlayer(world, player).catch(() => undefined);
      }
    });
  },
});

import { defineEntity, p } from '@mikro-orm/core';
import { Character } from './character.ts';
import { User } from './user.ts';

/** One direction of a friendship; a friendship is stored as both directions, written together. */
export const FriendshipSchema = defineEntity({
  name: 'Friendship',
  tableName: 'friendships',
  uniques: [{ name: 'friendships_pair_unique', properties: ['characterId', 'friendId'] }],
  checks: [{ name: 'friendships_not_self', expression: 'character_id <> friend_id' }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    characterId: () => p.manyToOne(Character).mapToPk().fieldName('character_id').deleteRule('cascade'),
    friendId: () => p.manyToOne(Character).mapToPk().fieldName('friend_id').deleteRule('cascade').index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class Friendship extends FriendshipSchema.class {}
FriendshipSchema.setClass(Friendship);

/** A pending friend request. */
export const FriendRequestSchema = defineEntity({
  name: 'FriendRequest',
  tableName: 'friend_requests',
  uniques: [{ name: 'friend_requests_pair_unique', properties: ['fromCharacterId', 'toCharacterId'] }],
  checks: [{ name: 'friend_requests_not_self', expression: 'from_character_id <> to_character_id' }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    fromCharacterId: () => p.manyToOne(Character).mapToPk().fieldName('from_character_id').deleteRule('cascade'),
    toCharacterId: () => p.manyToOne(Character).mapToPk().fieldName('to_character_id').deleteRule('cascade').index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class FriendRequest extends FriendRequestSchema.class {}
FriendRequestSchema.setClass(FriendRequest);

/** A player blocked by an account. */
export const IgnoreEntrySchema = defineEntity({
  name: 'IgnoreEntry',
  tableName: 'ignore_lists',
  uniques: [{ name: 'ignore_lists_pair_unique', properties: ['accountId', 'ignoredCharacterId'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    accountId: () => p.manyToOne(User).mapToPk().fieldName('account_id').deleteRule('cascade'),
    ignoredCharacterId: () => p.manyToOne(Character).mapToPk().fieldName('ignored_character_id').deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class IgnoreEntry extends IgnoreEntrySchema.class {}
IgnoreEntrySchema.setClass(IgnoreEntry);

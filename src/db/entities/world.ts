import { defineEntity, p } from '@mikro-orm/core';
import { Character } from './character.ts';
import { User } from './user.ts';

/** Persistent modifications of one world chunk (e.g. placed objects), keyed by chunk coordinates. */
export const WorldChunkSchema = defineEntity({
  name: 'WorldChunk',
  tableName: 'world_chunks',
  uniques: [{ name: 'world_chunks_coords_unique', properties: ['chunkX', 'chunkZ'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    chunkX: p.integer(),
    chunkZ: p.integer(),
    data: p.json<Record<string, unknown>>(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class WorldChunk extends WorldChunkSchema.class {}
WorldChunkSchema.setClass(WorldChunk);

/** A login → logout span of one character. */
export const PlayerSessionSchema = defineEntity({
  name: 'PlayerSession',
  tableName: 'player_sessions',
  properties: {
    id: p.text().primary(),
    characterId: () => p.manyToOne(Character).mapToPk().fieldName('character_id').deleteRule('cascade').index(),
    accountId: () => p.manyToOne(User).mapToPk().fieldName('account_id').deleteRule('cascade'),
    startedAt: p.datetime().onCreate(() => new Date()),
    endedAt: p.datetime().nullable(),
    reason: p.text().nullable(),
    playtimeSeconds: p.integer().default(0),
  },
});
export class PlayerSession extends PlayerSessionSchema.class {}
PlayerSessionSchema.setClass(PlayerSession);

/**
 * A death lock: the items a player lost, held exactly once at the death spot until reclaimed or released.
 * status: locked → reclaimed | released.
 */
export const PlayerDeathSchema = defineEntity({
  name: 'PlayerDeath',
  tableName: 'player_deaths',
  properties: {
    id: p.text().primary(),
    characterId: () => p.manyToOne(Character).mapToPk().fieldName('character_id').deleteRule('cascade').index(),
    positionX: p.double().$type<number>(),
    positionY: p.double().$type<number>(),
    positionZ: p.double().$type<number>(),
    items: p.json<Array<{ itemId: string; quantity: number; metadata?: Record<string, unknown> | null }>>(),
    status: p.text().default('locked'),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
    resolvedAt: p.datetime().nullable(),
    /** The world the gravestone stands in (docs/worlds.md). */
    world: p.integer().default(1),
  },
});
export class PlayerDeath extends PlayerDeathSchema.class {}
PlayerDeathSchema.setClass(PlayerDeath);

/** Kill statistics per player and NPC type. */
export const NpcKillSchema = defineEntity({
  name: 'NpcKill',
  tableName: 'npc_kills',
  uniques: [{ name: 'npc_kills_character_npc_unique', properties: ['characterId', 'npcId'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    characterId: () => p.manyToOne(Character).mapToPk().fieldName('character_id').deleteRule('cascade'),
    npcId: p.text(),
    killCount: p.integer().default(0),
    lastKillAt: p.datetime().onCreate(() => new Date()),
  },
});
export class NpcKill extends NpcKillSchema.class {}
NpcKillSchema.setClass(NpcKill);

/** An open world: its number, unique across the processes sharing the database, and the room that runs it. */
export const OpenWorldSchema = defineEntity({
  name: 'OpenWorld',
  tableName: 'worlds',
  checks: [{ name: 'worlds_number_positive', expression: 'number >= 1' }],
  properties: {
    number: p.integer().primary().autoincrement(false),
    roomId: p.text().unique('worlds_room_id_unique'),
    processId: p.text(),
    openedAt: p.datetime().defaultRaw('now()'),
    heartbeatAt: p.datetime().defaultRaw('now()'),
  },
});
export class OpenWorld extends OpenWorldSchema.class {}
OpenWorldSchema.setClass(OpenWorld);

/** The world a character is in: one row at most per character, wherever its world runs (docs/worlds.md). */
export const CharacterWorldSchema = defineEntity({
  name: 'CharacterWorld',
  tableName: 'character_worlds',
  properties: {
    characterId: () => p.oneToOne(Character).primary().mapToPk().fieldName('character_id').deleteRule('cascade'),
    world: p.integer(),
    roomId: p.text().index(),
    enteredAt: p.datetime().defaultRaw('now()'),
  },
});
export class CharacterWorld extends CharacterWorldSchema.class {}
CharacterWorldSchema.setClass(CharacterWorld);

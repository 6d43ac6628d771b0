import { defineEntity, p } from '@mikro-orm/core';
import { Character } from './character.ts';
import { User } from './user.ts';

/**
 * An AI agent registered for one of an account's characters (docs/api.md). Its access token is scoped `agent`,
 * bound to the character and expiring; `tokenJti` names that token so a revoked agent's token is refused.
 * `goalsPaused` and `goal` survive restarts; progress is recomputed from the world.
 */
export const AgentSchema = defineEntity({
  name: 'Agent',
  tableName: 'agents',
  properties: {
    id: p.text().primary(),
    accountId: () => p.manyToOne(User).mapToPk().fieldName('account_id').deleteRule('cascade').index(),
    characterId: () => p.manyToOne(Character).mapToPk().fieldName('character_id').deleteRule('cascade').index(),
    name: p.text(),
    tokenJti: p.text().unique(),
    tokenExpiresAt: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
    goalsPaused: p.boolean().default(false),
    goal: p.json<Record<string, unknown>>().nullable(),
  },
});
export class Agent extends AgentSchema.class {}
AgentSchema.setClass(Agent);

/** Per-account profile data of the REST player endpoint: avatar and the selected (active) character. */
export const PlayerProfileSchema = defineEntity({
  name: 'PlayerProfile',
  tableName: 'player_profiles',
  properties: {
    accountId: () => p.oneToOne(User).primary().mapToPk().fieldName('account_id').deleteRule('cascade'),
    avatar: p.text().nullable(),
    activeCharacterId: p.text().nullable(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class PlayerProfile extends PlayerProfileSchema.class {}
PlayerProfileSchema.setClass(PlayerProfile);

/**
 * What the AI agents read about their character outside the world (src/agents/character-facts.ts): the stored
 * skill levels, combat level and containers the goal menu checks while the character is offline, and the recorded
 * kill count (`npc_kills`) a kill goal counts progress from.
 */
import type { SqlEntityManager } from '@mikro-orm/sql';
import { wholePoints } from '../game/experience.ts';
import { SKILLS, levelForXp, type Levels, type Skill } from '../game/skills.ts';
import { xpColumn } from './skill-stats.ts';
import { loadContainers, type Containers } from './item-transaction.ts';

export interface StoredCharacterStats extends Containers {
  /** Each skill's level: the stored column, or the level of its experience when that is higher. */
  readonly levels: Levels;
  readonly combatLevel: number;
}

/** The character's stored levels and containers, or undefined when it no longer exists. */
export async function loadStoredCharacterStats(em: SqlEntityManager, characterId: string): Promise<StoredCharacterStats | undefined> {
  const columns = SKILLS.flatMap((skill) => [`${skill}_level`, xpColumn(skill)]).join(', ');
  const [row] = await em.execute<Array<Record<string, number>>>(`select ${columns}, combat_level from characters where id = ?`, [characterId]);
  if (!row) return undefined;
  const containers = (await loadContainers(em, [characterId], false)).get(characterId)!;
  const levels = Object.fromEntries(SKILLS.map((skill: Skill) => [skill, Math.max(Number(row[`${skill}_level`]), levelForXp(wholePoints(Number(row[xpColumn(skill)]))))])) as Record<Skill, number>;
  return { levels, inventory: containers.inventory, equipment: containers.equipment, combatLevel: Number(row.combat_level) };
}

/** How many of `npcId` the character killed (0 before the first kill). */
export async function loadNpcKillCount(em: SqlEntityManager, characterId: string, npcId: string): Promise<number> {
  const [row] = await em.execute<Array<{ kill_count: number }>>(
    'select kill_count from npc_kills where character_id = ? and npc_id = ?', [characterId, npcId]);
  return row ? Number(row.kill_count) : 0;
}

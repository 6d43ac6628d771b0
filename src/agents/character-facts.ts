/**
 * What an agent knows about its character, for the goal menu, the refusals and the executor: its levels, inventory,
 * equipment and combat level — live from the world while the character is in it, else as stored.
 */
import type { Database } from '../db/database.ts';
import { loadStoredCharacterStats } from '../db/agent-character.ts';
import { session } from '../db/transaction.ts';
import type { CharacterFacts } from './goal-menu.ts';
import type { AgentCharacter, AgentWorld } from './world-link.ts';

export type { CharacterFacts } from './goal-menu.ts';

/** The facts of a character in the world, or undefined while its skills are still loading (it is entering). */
export function liveFacts(world: AgentWorld, character: AgentCharacter): CharacterFacts | undefined {
  const skills = world.skillsOf(character);
  if (!skills) return undefined;
  return { levels: { ...skills.levels }, inventory: character.containers.inventory, equipment: character.containers.equipment, combatLevel: character.state.combatLevel };
}

/** Live when the character is in `world` (and has entered it), else read from the database; undefined when it no longer exists. */
export async function characterFacts(db: Database, world: AgentWorld | undefined, characterId: string): Promise<CharacterFacts | undefined> {
  const character = world?.player(characterId);
  const live = world && character ? liveFacts(world, character) : undefined;
  if (live) return live;
  const stored = await loadStoredCharacterStats(session(db), characterId);
  if (!stored) return undefined;
  return { levels: stored.levels, inventory: stored.inventory, equipment: stored.equipment, combatLevel: stored.combatLevel };
}

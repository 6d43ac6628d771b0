/**
 * What the executor reads from the live world to decide (never to act): the character's levels and containers,
 * the nearest resource node or NPC of a kind, whether the character holds food. Acting goes through `Step.send`.
 */
import type { OnlinePlayer } from '../../../rooms/world/online-player.ts';
import { activityOf, type ActivityKind } from '../../../rooms/world/features/skills/activity.ts';
import { skillsOf, type SkillBook } from '../../../rooms/world/features/skills/skill-book.ts';
import type { NpcEntity, ResourceEntity } from '../../../rooms/world/world-entities.ts';
import type { CharacterFacts } from '../goal-menu.ts';
import { type Tile } from '../planning.ts';
import { chebyshev } from '../../game/geometry.ts';
import type { AgentWorld } from '../world-link.ts';

/** The player's skills, or undefined while they are still loading (the player is joining). */
export function skillBookOf(player: OnlinePlayer): SkillBook | undefined {
  try {
    return skillsOf(player);
  } catch {
    return undefined;
  }
}

export function liveFacts(player: OnlinePlayer): CharacterFacts | undefined {
  const book = skillBookOf(player);
  if (!book) return undefined;
  return { levels: book.snapshot(), inventory: player.containers.inventory, equipment: player.containers.equipment, combatLevel: player.state.combatLevel };
}

export function isDoing(player: OnlinePlayer, kind: ActivityKind): boolean {
  return activityOf(player)?.kind === kind;
}

/** Ends the character's activity of this kind the way its client would (player:action stop). */
export function stopActivityOf(world: AgentWorld, player: OnlinePlayer, kind?: ActivityKind): void {
  const activity = activityOf(player);
  if (!activity || (kind && activity.kind !== kind)) return;
  void world.dispatch(player.client, 'player:action', { action: 'stop' });
}

function wholeWorld(world: AgentWorld): number {
  return Math.max(world.data.world.width, world.data.world.depth);
}

/** The best available node: the highest `rank` first, then the nearest. Depleted nodes are skipped. */
export function bestNode(world: AgentWorld, from: Tile, rank: ReadonlyMap<string, number>): ResourceEntity | undefined {
  let best: { node: ResourceEntity; rank: number; distance: number } | undefined;
  world.grid.forEachNear(from.x, from.z, wholeWorld(world), (entity) => {
    if (entity.kind !== 'resource') return;
    const node = entity as ResourceEntity;
    const score = rank.get(node.state.resourceId);
    if (score === undefined || node.state.depleted) return;
    const distance = chebyshev(from, node);
    if (!best || score > best.rank || (score === best.rank && distance < best.distance)) best = { node, rank: score, distance };
  });
  return best?.node;
}

/** The nearest live NPC of a type. */
export function nearestNpc(world: AgentWorld, from: Tile, npcId: string): NpcEntity | undefined {
  let best: { npc: NpcEntity; distance: number } | undefined;
  world.grid.forEachNear(from.x, from.z, wholeWorld(world), (entity) => {
    if (entity.kind !== 'npc') return;
    const npc = entity as NpcEntity;
    if (npc.state.npcId !== npcId || npc.state.health <= 0 || npc.state.action === 'dead') return;
    const distance = chebyshev(from, npc);
    if (!best || distance < best.distance) best = { npc, distance };
  });
  return best?.npc;
}

/** Whether the NPC with this id is alive near where it was last seen (dead NPCs leave the world until respawn). */
export function isAlive(world: AgentWorld, target: { id: string; x: number; z: number }): boolean {
  let alive = false;
  world.grid.forEachNear(target.x, target.z, 16, (entity) => {
    if (entity.kind === 'npc' && entity.id === target.id && (entity as NpcEntity).state.health > 0) alive = true;
  });
  return alive;
}

/** The first inventory slot holding something edible. */
export function foodSlot(world: AgentWorld, player: OnlinePlayer): { slot: number; itemId: string } | undefined {
  const slot = player.containers.inventory.findIndex((held) => held !== null && world.data.itemsById.get(held.itemId)?.heal !== undefined);
  return slot < 0 ? undefined : { slot, itemId: player.containers.inventory[slot]!.itemId };
}

/** The NPC with this id near the character (within the attack approach distance), alive or not. */
export function npcById(world: AgentWorld, from: Tile, id: string): NpcEntity | undefined {
  let found: NpcEntity | undefined;
  world.grid.forEachNear(from.x, from.z, 64, (entity) => {
    if (entity.kind === 'npc' && entity.id === id) found = entity as NpcEntity;
  });
  return found;
}

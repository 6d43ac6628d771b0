/**
 * What the executor reads from the live world to decide (never to act): the nearest resource node or NPC of a
 * kind, whether the character holds food, what it is busy doing. Acting goes through `Step.send`.
 */
import { chebyshev } from '../../game/geometry.ts';
import type { Tile } from '../planning.ts';
import type { ActivityKind, AgentCharacter, AgentWorld, NearbyNpc, NearbyResource } from '../world-link.ts';

export function isDoing(world: AgentWorld, player: AgentCharacter, kind: ActivityKind): boolean {
  return world.activityOf(player)?.kind === kind;
}

/** Ends the character's activity of this kind the way its client would (player:action stop). */
export function stopActivityOf(world: AgentWorld, player: AgentCharacter, kind?: ActivityKind): void {
  const activity = world.activityOf(player);
  if (!activity || (kind && activity.kind !== kind)) return;
  void world.dispatch(player, 'player:action', { action: 'stop' });
}

function wholeWorld(world: AgentWorld): number {
  return Math.max(world.data.world.width, world.data.world.depth);
}

/** The best available node: the highest `rank` first, then the nearest. Depleted nodes are skipped. */
export function bestNode(world: AgentWorld, from: Tile, rank: ReadonlyMap<string, number>): NearbyResource | undefined {
  let best: { node: NearbyResource; rank: number; distance: number } | undefined;
  world.forEachNear(from.x, from.z, wholeWorld(world), (entity) => {
    if (entity.kind !== 'resource') return;
    const node = entity as NearbyResource;
    const score = rank.get(node.state.resourceId);
    if (score === undefined || node.state.depleted) return;
    const distance = chebyshev(from, node);
    if (!best || score > best.rank || (score === best.rank && distance < best.distance)) best = { node, rank: score, distance };
  });
  return best?.node;
}

/** The nearest live NPC of a type. */
export function nearestNpc(world: AgentWorld, from: Tile, npcId: string): NearbyNpc | undefined {
  let best: { npc: NearbyNpc; distance: number } | undefined;
  world.forEachNear(from.x, from.z, wholeWorld(world), (entity) => {
    if (entity.kind !== 'npc') return;
    const npc = entity as NearbyNpc;
    if (npc.state.npcId !== npcId || npc.state.health <= 0 || npc.state.action === 'dead') return;
    const distance = chebyshev(from, npc);
    if (!best || distance < best.distance) best = { npc, distance };
  });
  return best?.npc;
}

/** Whether the NPC with this id is alive near where it was last seen (dead NPCs leave the world until respawn). */
export function isAlive(world: AgentWorld, target: { id: string; x: number; z: number }): boolean {
  let alive = false;
  world.forEachNear(target.x, target.z, 16, (entity) => {
    if (entity.kind === 'npc' && entity.id === target.id && (entity as NearbyNpc).state.health > 0) alive = true;
  });
  return alive;
}

/** The first inventory slot holding something edible. */
export function foodSlot(world: AgentWorld, player: AgentCharacter): { slot: number; itemId: string } | undefined {
  const slot = player.containers.inventory.findIndex((held) => held !== null && world.data.itemsById.get(held.itemId)?.heal !== undefined);
  return slot < 0 ? undefined : { slot, itemId: player.containers.inventory[slot]!.itemId };
}

/** The NPC with this id near the character (within the attack approach distance), alive or not. */
export function npcById(world: AgentWorld, from: Tile, id: string): NearbyNpc | undefined {
  let found: NearbyNpc | undefined;
  world.forEachNear(from.x, from.z, 64, (entity) => {
    if (entity.kind === 'npc' && entity.id === id) found = entity as NearbyNpc;
  });
  return found;
}

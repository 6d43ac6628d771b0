/**
 * NPC wandering: idle NPCs whose spawn has a `wanderRadius` (spawns.json) take a random step now and then
 * (src/game/wander.ts) on walkable tiles within that radius of the spawn. Fighting NPCs, NPCs hit lately and dead
 * ones stay out of it (combat walks them back first: `markNpcsBusy`), and so do NPCs another feature holds
 * (`holdNpcs`: an NPC stands still while a player talks to it). Positions reach clients like every NPC move: the NPC's
 * state (SDK) and `world:update` (JSON). The randomness is its own, injectable for tests (`setWanderRng`).
 */
import { wanderStep } from '../../../../src/game/wander.ts';
import { defineArea, WorldSlot } from '../../area.ts';
import type { Tile } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { NpcEntity } from '../../world-entities.ts';

interface Wanderer {
  readonly entity: NpcEntity;
  readonly spawn: Tile;
  readonly radius: number;
}

let rng: () => number = Math.random;

/** Replaces the randomness of NPC wandering (tests). */
export function setWanderRng(next: () => number): void {
  rng = next;
}

/** The spawns.json entry of a spawned NPC (entity ids are `npc-<index in spawns.npcs>`); none for admin spawns. */
function spawnOf(world: WorldApi, entityId: string) {
  const index = /^npc-(\d+)$/.exec(entityId)?.[1];
  return index === undefined ? undefined : world.data.spawns.npcs[Number(index)];
}

export function spawnWanderRadius(world: WorldApi, entityId: string): number {
  return spawnOf(world, entityId)?.wanderRadius ?? 0;
}

/** Moves an NPC one tile and lets observers know. */
export function moveNpc(world: WorldApi, entity: NpcEntity, tile: Tile): void {
  const fromX = entity.x;
  const fromZ = entity.z;
  entity.placeAt(tile);
  world.grid.move(entity, fromX, fromZ);
  world.markChanged(entity);
}

/** The world's spawned NPCs with a wander radius, found once through the spatial grid. */
const wanderers = new WorldSlot<Wanderer[]>('wanderers', (world) => {
  const found: Wanderer[] = [];
  const { width, depth } = world.data.world;
  world.grid.forEachNear(width / 2, depth / 2, Math.max(width, depth), (entity) => {
    if (!(entity instanceof NpcEntity)) return;
    const spawn = spawnOf(world, entity.id);
    if (spawn && spawn.wanderRadius > 0) found.push({ entity, spawn: { x: spawn.x, z: spawn.z }, radius: spawn.wanderRadius });
  });
  return found;
});

/** What keeps NPCs from wandering: names of held NPCs (dialogue), and busy checks (combat). */
const holders = new WorldSlot('npc-holders', () => ({
  held: [] as Array<() => Iterable<string>>,
  busy: [] as Array<(npcEntityId: string, tick: number) => boolean>,
}));

/** Lets another feature keep NPCs where they are: `held()` names them (entity ids) on each tick. */
export function holdNpcs(world: WorldApi, held: () => Iterable<string>): void {
  holders.of(world).held.push(held);
}

/** Lets another feature say which NPCs are busy (fighting, dead) on a tick and must not wander. */
export function markNpcsBusy(world: WorldApi, busy: (npcEntityId: string, tick: number) => boolean): void {
  holders.of(world).busy.push(busy);
}

/** One tick of wandering. */
export function wanderTick(world: WorldApi, tick: number): void {
  const { held: holding, busy } = holders.of(world);
  const held = new Set(holding.flatMap((names) => [...names()]));
  for (const { entity, spawn, radius } of wanderers.of(world)) {
    if (busy.some((isBusy) => isBusy(entity.id, tick)) || held.has(entity.id)) continue;
    const step = wanderStep(world.blocked, { x: entity.x, z: entity.z }, spawn, radius, rng);
    if (step) moveNpc(world, entity, step);
  }
}

export const npcs = defineArea({
  name: 'npcs',
  messages: {},
  sends: [],
  install(world) {
    world.onTick((tick) => wanderTick(world, tick));
  },
});

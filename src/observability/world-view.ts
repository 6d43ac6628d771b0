/**
 * The operator's whole-world view of a world room, for the live world map (docs/operations.md): the tile map
 * (once), and a snapshot of every entity with the world's tick, last tick time and population. Reads the room's
 * synchronised state; changes nothing.
 */
import type { GameData } from '../manifests/game-data.ts';
import type { BlockedTiles } from '../manifests/blocked-tiles.ts';
import type { WorldState } from '../../schema/world-state.ts';
import { TICK_MS } from '../game/ticks.ts';

/** What the view needs of a world room (WorldRoom has it). */
export interface ObservedWorld {
  readonly roomId: string;
  /** The world's number (docs/worlds.md): the `world` label of the per-world metrics. */
  readonly worldNumber: number;
  readonly state: WorldState;
  readonly data: GameData;
  readonly blocked: BlockedTiles;
  /** The world's lease on its number (docs/scaling.md): its epoch, and whether this process holds it now. */
  readonly lease?: { readonly epoch: number; readonly state: 'held' | 'suspended' | 'lost' };
}

/** One row per z, one character per x: `.` open ground, `~` water, `#` blocked (walls, obstacles, stations). */
export interface WorldTiles {
  worldId: string;
  width: number;
  depth: number;
  home: { x: number; z: number };
  rows: string[];
}

export interface WorldSummary {
  worldId: string;
  /** The world's number, as players know it ("World 1"). */
  world: number;
  tick: number;
  players: number;
  /** Duration of the last completed tick, in milliseconds (null before the first). */
  lastTickMs: number | null;
  /** The game tick's length, in milliseconds: the page polls once per tick. */
  tickMs: number;
}

type Entity = Record<string, unknown>;

export interface WorldSnapshot extends WorldSummary {
  players: number;
  entities: {
    players: Entity[];
    npcs: Entity[];
    resources: Entity[];
    groundItems: Entity[];
    gravestones: Entity[];
    fires: Entity[];
  };
}

export function worldTiles(world: ObservedWorld): WorldTiles {
  const { width, depth, home } = world.data.world;
  const cells: string[][] = Array.from({ length: depth }, (_, z) =>
    Array.from({ length: width }, (_, x) => (world.blocked.isBlocked(x, z) ? '#' : '.')));
  for (const region of world.data.terrain.water) {
    const { minX, maxX, minZ, maxZ } = region.bounds;
    for (let z = Math.max(0, minZ); z <= Math.min(depth - 1, maxZ); z++) {
      for (let x = Math.max(0, minX); x <= Math.min(width - 1, maxX); x++) cells[z][x] = '~';
    }
  }
  return { worldId: world.roomId, width, depth, home: { x: home.x, z: home.z }, rows: cells.map((row) => row.join('')) };
}

function values(map: { values(): IterableIterator<{ toJSON(): unknown }> }): Entity[] {
  return Array.from(map.values(), (entity) => entity.toJSON() as Entity);
}

export function worldSummary(world: ObservedWorld, lastTickSeconds: number | undefined): WorldSummary {
  return {
    worldId: world.roomId,
    world: world.worldNumber,
    tick: world.state.tick,
    players: world.state.players.size,
    lastTickMs: lastTickSeconds === undefined ? null : Math.round(lastTickSeconds * 1e5) / 100,
    tickMs: TICK_MS,
  };
}

export function worldSnapshot(world: ObservedWorld, lastTickSeconds: number | undefined): WorldSnapshot {
  const { state } = world;
  return {
    ...worldSummary(world, lastTickSeconds),
    entities: {
      players: values(state.players),
      npcs: values(state.npcs),
      resources: values(state.resources),
      groundItems: values(state.groundItems),
      gravestones: values(state.gravestones),
      fires: values(state.fires),
    },
  };
}

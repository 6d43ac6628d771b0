/**
 * NPC wandering: an idle NPC now and then takes one step to a free neighbouring tile that stays within its
 * spawn's `wanderRadius` (Chebyshev distance from the spawn tile, as in spawns.json).
 */
import { chebyshev } from './geometry.ts';
import { canStep, type TilePoint, type WalkGrid } from './pathfinding.ts';

/** Chance per tick that an idle NPC steps (about one step every 8 ticks, ~5 s). */
export const WANDER_CHANCE = 1 / 8;

const NEIGHBOURS: readonly [number, number][] = [
  [1, 0], [-1, 0], [0, 1], [0, -1],
  [1, 1], [1, -1], [-1, 1], [-1, -1],
];

/** Whether a tile lies within `radius` tiles of the spawn. */
export function withinWanderRadius(tile: TilePoint, spawn: TilePoint, radius: number): boolean {
  return chebyshev(tile, spawn) <= radius;
}

/** The free neighbouring tiles an NPC at `at` may step to without leaving its radius. */
export function wanderOptions(grid: WalkGrid, at: TilePoint, spawn: TilePoint, radius: number): TilePoint[] {
  const options: TilePoint[] = [];
  for (const [dx, dz] of NEIGHBOURS) {
    const to = { x: at.x + dx, z: at.z + dz };
    if (to.x < 0 || to.z < 0 || to.x >= grid.width || to.z >= grid.depth) continue;
    if (!withinWanderRadius(to, spawn, radius) || !canStep(grid, at, to)) continue;
    options.push(to);
  }
  return options;
}

/**
 * This tick's wander step, or null to stay. One draw of `rng`: below `chance` the NPC steps, and where the draw
 * falls within [0, chance) picks the tile uniformly among the options.
 */
export function wanderStep(
  grid: WalkGrid,
  at: TilePoint,
  spawn: TilePoint,
  radius: number,
  rng: () => number,
  chance: number = WANDER_CHANCE,
): TilePoint | null {
  if (!(radius > 0) || !(chance > 0)) return null;
  const roll = rng();
  if (!(roll >= 0 && roll < chance)) return null;
  const options = wanderOptions(grid, at, spawn, radius);
  if (options.length === 0) return null;
  return options[Math.min(options.length - 1, Math.floor((roll / chance) * options.length))];
}

/**
 * Tile geometry shared by every rule, room and agent: the one definition of distance on the grid. Distances are
 * Chebyshev (a diagonal step counts as one tile, as walking does).
 */

import type { TilePoint, TileRect } from '../manifests/schemas/common.ts';

export type { TilePoint, TileRect };

export function chebyshev(a: TilePoint, b: TilePoint): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));
}

/** Chebyshev distance from a tile to the nearest tile of a rectangle (0 inside). */
export function distanceToRect(x: number, z: number, rect: TileRect): number {
  const dx = x < rect.minX ? rect.minX - x : x > rect.maxX ? x - rect.maxX : 0;
  const dz = z < rect.minZ ? rect.minZ - z : z > rect.maxZ ? z - rect.maxZ : 0;
  return Math.max(dx, dz);
}

export function insideRect(rect: TileRect, x: number, z: number): boolean {
  return x >= rect.minX && x <= rect.maxX && z >= rect.minZ && z <= rect.maxZ;
}

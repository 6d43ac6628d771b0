/** Tolerance so that float noise (2.0000001 m) does not add a tile. */
export const FOOTPRINT_EPSILON = 1e-6;

export interface Footprint {
  width: number;
  depth: number;
}

/** Number of tiles a length covers: ceil(length / tileSize − ε), at least 1. */
export function lengthInTiles(meters: number, tileSize: number): number {
  if (!(tileSize > 0)) throw new RangeError(`tileSize must be positive, got ${tileSize}`);
  if (!(meters >= 0)) throw new RangeError(`length must be non-negative, got ${meters}`);
  return Math.max(1, Math.ceil(meters / tileSize - FOOTPRINT_EPSILON));
}

/**
 * Tiles covered by a station: model dimensions (x = width, z = depth) × modelScale, converted to tiles.
 * A rotation of 90 or 270 degrees swaps width and depth.
 */
export function stationFootprint(
  dimensions: { x: number; z: number },
  modelScale: number,
  tileSize: number,
  rotation: 0 | 90 | 180 | 270 = 0,
): Footprint {
  if (!(modelScale > 0)) throw new RangeError(`modelScale must be positive, got ${modelScale}`);
  const width = lengthInTiles(dimensions.x * modelScale, tileSize);
  const depth = lengthInTiles(dimensions.z * modelScale, tileSize);
  return rotation === 90 || rotation === 270 ? { width: depth, depth: width } : { width, depth };
}

import type { GameData } from './game-data.ts';
import type { TilePoint, TileRect } from './schemas/common.ts';
import type { Building } from './schemas/world.ts';
import { stationFootprint } from './station-footprint.ts';

/** Which tiles of the world grid cannot be walked on. */
export interface BlockedTiles {
  readonly width: number;
  readonly depth: number;
  /** Tiles outside the world count as blocked. */
  isBlocked(x: number, z: number): boolean;
  readonly blockedCount: number;
}

/** The outer ring of a building's footprint, except its doors. */
export function buildingWallTiles(building: Building): TilePoint[] {
  const { minX, minZ, maxX, maxZ } = building.footprint;
  const doors = new Set(building.doors.map((d) => `${d.x},${d.z}`));
  const walls: TilePoint[] = [];
  for (let x = minX; x <= maxX; x++) {
    for (let z = minZ; z <= maxZ; z++) {
      const onEdge = x === minX || x === maxX || z === minZ || z === maxZ;
      if (onEdge && !doors.has(`${x},${z}`)) walls.push({ x, z });
    }
  }
  return walls;
}

/** Tiles covered by a placed station: its footprint anchored at the spawn tile (the footprint's min corner). */
export function placedStationTiles(data: GameData, spawn: GameData['spawns']['stations'][number]): TileRect {
  const station = data.stationsById.get(spawn.stationId);
  const model = station ? data.modelBoundsById.get(station.model) : undefined;
  const footprint =
    station && model
      ? stationFootprint(model.dimensions, station.modelScale, data.world.tileSize, spawn.rotation)
      : { width: 1, depth: 1 };
  return { minX: spawn.x, minZ: spawn.z, maxX: spawn.x + footprint.width - 1, maxZ: spawn.z + footprint.depth - 1 };
}

/** Water, obstacles, building walls, placed stations and blocking resource nodes. */
export function computeBlockedTiles(data: GameData): BlockedTiles {
  const { width, depth } = data.world;
  const cells = new Uint8Array(width * depth);
  const block = (x: number, z: number) => {
    if (x >= 0 && z >= 0 && x < width && z < depth) cells[z * width + x] = 1;
  };
  const blockRect = (r: TileRect) => {
    for (let x = r.minX; x <= r.maxX; x++) for (let z = r.minZ; z <= r.maxZ; z++) block(x, z);
  };
  for (const region of [...data.terrain.water, ...data.terrain.obstacles]) blockRect(region.bounds);
  for (const building of data.buildingsById.values()) for (const t of buildingWallTiles(building)) block(t.x, t.z);
  for (const spawn of data.spawns.stations) blockRect(placedStationTiles(data, spawn));
  for (const spawn of data.spawns.resources) {
    if (data.resourcesById.get(spawn.resourceId)?.blocksTile) block(spawn.x, spawn.z);
  }
  const blockedCount = cells.reduce((sum, c) => sum + c, 0);
  return {
    width,
    depth,
    blockedCount,
    isBlocked: (x, z) => x < 0 || z < 0 || x >= width || z >= depth || cells[z * width + x] === 1,
  };
}

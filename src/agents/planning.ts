/** Tile geometry the goal executor plans with: areas, distances, walkable destinations, waypoints, banks. Pure. */
import { placedStationTiles, type BlockedTiles } from '../manifests/blocked-tiles.ts';
import type { GameData } from '../manifests/game-data.ts';
import type { TileRect } from '../manifests/schemas/common.ts';
import { chebyshev, insideRect } from '../game/geometry.ts';

export interface Tile {
  x: number;
  z: number;
}

/** The walkable tile nearest to `around` within `radius` (rings outward), optionally kept inside `within`. */
export function nearestWalkable(blocked: BlockedTiles, around: Tile, radius: number, within?: TileRect): Tile | undefined {
  for (let r = 0; r <= radius; r++) {
    for (let dx = -r; dx <= r; dx++) {
      for (let dz = -r; dz <= r; dz++) {
        if (Math.max(Math.abs(dx), Math.abs(dz)) !== r) continue;
        const x = around.x + dx;
        const z = around.z + dz;
        if (within && !insideRect(within, x, z)) continue;
        if (!blocked.isBlocked(x, z)) return { x, z };
      }
    }
  }
  return undefined;
}

/** Where to walk to reach an area: its centre, or the walkable tile inside it nearest the centre. */
export function destinationIn(blocked: BlockedTiles, rect: TileRect): Tile | undefined {
  const centre = { x: Math.floor((rect.minX + rect.maxX) / 2), z: Math.floor((rect.minZ + rect.maxZ) / 2) };
  const radius = Math.max(rect.maxX - rect.minX, rect.maxZ - rect.minZ);
  return nearestWalkable(blocked, centre, radius, rect);
}

/** The next move target toward `to`, at most `maxStep` tiles away on each axis, on a walkable tile. */
export function waypointToward(blocked: BlockedTiles, from: Tile, to: Tile, maxStep: number): Tile | undefined {
  const clamp = (d: number) => Math.max(-maxStep, Math.min(maxStep, d));
  const target = { x: from.x + clamp(to.x - from.x), z: from.z + clamp(to.z - from.z) };
  if (target.x === to.x && target.z === to.z) return to;
  return nearestWalkable(blocked, target, Math.max(2, Math.floor(maxStep / 4)));
}

/** Where the bank is used from: the tiles of every bank booth, and the spawn tile of every banker. */
export function bankSites(data: GameData): TileRect[] {
  const booths = data.spawns.stations
    .filter((spawn) => data.stationsById.get(spawn.stationId)?.type === 'bank')
    .map((spawn) => placedStationTiles(data, spawn));
  const bankers = data.spawns.npcs
    .filter((spawn) => data.npcsById.get(spawn.npcId)?.role === 'banker')
    .map((spawn) => ({ minX: spawn.x, maxX: spawn.x, minZ: spawn.z, maxZ: spawn.z }));
  return [...booths, ...bankers];
}

/** The walkable tiles right beside a bank site (well inside the bank's reach), nearest to `from` first. */
export function bankAccessTiles(blocked: BlockedTiles, sites: readonly TileRect[], from: Tile): Tile[] {
  const tiles = new Map<string, Tile>();
  for (const site of sites) {
    for (let x = site.minX - 1; x <= site.maxX + 1; x++) {
      for (let z = site.minZ - 1; z <= site.maxZ + 1; z++) {
        if (insideRect(site, x, z) || blocked.isBlocked(x, z)) continue;
        tiles.set(`${x},${z}`, { x, z });
      }
    }
  }
  const manhattan = (t: Tile) => Math.abs(t.x - from.x) + Math.abs(t.z - from.z);
  return [...tiles.values()].sort((a, b) => chebyshev(a, from) - chebyshev(b, from) || manhattan(a) - manhattan(b));
}

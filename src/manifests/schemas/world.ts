import { z } from 'zod';
import { Id, NonNegativeInt, PositiveInt, Probability, TilePoint, TileRect, uniqueById } from './common.ts';

export const AREA_TYPES = ['town', 'bank', 'field', 'forest', 'mine', 'coast', 'camp', 'wilderness', 'ritual'] as const;

export const Area = z.object({
  id: Id,
  name: z.string().min(1),
  type: z.enum(AREA_TYPES),
  bounds: TileRect,
  biomeId: Id,
  /** Players may attack each other here. */
  pvp: z.boolean().default(false),
  /** NPCs never attack players here. */
  safe: z.boolean().default(false),
  musicTrackId: Id.optional(),
});
export type Area = z.infer<typeof Area>;

/** world-areas.json: grid size, the home (spawn) tile and the named areas. */
export const WorldAreasFile = z.object({
  /** Meters per tile. */
  tileSize: z.number().positive(),
  width: PositiveInt,
  depth: PositiveInt,
  home: z.object({ areaId: Id, x: NonNegativeInt, z: NonNegativeInt }),
  areas: uniqueById(Area).min(1),
});
export type WorldAreasFile = z.infer<typeof WorldAreasFile>;

/** terrain.json: tiles nobody can walk on besides buildings and placed objects. */
export const TerrainFile = z.object({
  water: z.array(z.object({ name: z.string(), bounds: TileRect })),
  obstacles: z.array(z.object({ name: z.string(), bounds: TileRect })),
});
export type TerrainFile = z.infer<typeof TerrainFile>;

export const Biome = z.object({
  id: Id,
  name: z.string().min(1),
  groundColor: z.string().regex(/^#[0-9a-f]{6}$/i),
  fogColor: z.string().regex(/^#[0-9a-f]{6}$/i),
  vegetationIds: z.array(Id).default([]),
});
export type Biome = z.infer<typeof Biome>;
export const BiomesFile = uniqueById(Biome);

export const Vegetation = z.object({
  id: Id,
  name: z.string().min(1),
  /** Expected plants per tile (0–1). */
  density: Probability,
  minScale: z.number().positive(),
  maxScale: z.number().positive(),
  blocksMovement: z.boolean().default(false),
});
export type Vegetation = z.infer<typeof Vegetation>;
export const VegetationFile = uniqueById(Vegetation);

/**
 * A building occupies `footprint`; its outer ring of tiles is wall (blocked) except the door tiles,
 * its inside is walkable.
 */
export const Building = z.object({
  id: Id,
  name: z.string().min(1),
  areaId: Id,
  footprint: TileRect,
  doors: z.array(TilePoint).min(1),
});
export type Building = z.infer<typeof Building>;
export const BuildingsFile = uniqueById(Building);

/** Rotation of a placed object about the vertical axis, in degrees. */
export const Rotation = z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]);

/** spawns.json: where NPCs, resource nodes and stations stand (tile x, z). */
export const SpawnsFile = z.object({
  npcs: z.array(TilePoint.extend({ npcId: Id, wanderRadius: NonNegativeInt.default(0) })),
  resources: z.array(TilePoint.extend({ resourceId: Id })),
  stations: z.array(TilePoint.extend({ stationId: Id, rotation: Rotation.default(0) })),
});
export type SpawnsFile = z.infer<typeof SpawnsFile>;

export const MusicTrack = z.object({
  id: Id,
  name: z.string().min(1),
  category: z.enum(['normal', 'combat']),
  /** Path under /audio/music/, e.g. `normal/market-morning.mp3`. */
  file: z.string().regex(/^(normal|combat)\/[a-z0-9-]+\.mp3$/),
  durationSeconds: PositiveInt,
});
export type MusicTrack = z.infer<typeof MusicTrack>;
export const MusicFile = uniqueById(MusicTrack).refine(
  (tracks) => tracks.every((t) => t.file.startsWith(`${t.category}/`)),
  'a track file must sit in the folder of its category',
);

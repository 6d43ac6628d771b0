import { z } from 'zod';
import { Id, PositiveInt, Vec3, uniqueById } from './common.ts';

export const STATION_TYPES = ['bank', 'anvil', 'furnace', 'range', 'altar', 'rune-altar'] as const;
export const StationType = z.enum(STATION_TYPES);
export type StationType = z.infer<typeof StationType>;

/** A kind of station; placements are in spawns.json. Its footprint is model dimensions × modelScale in tiles. */
export const Station = z.object({
  id: Id,
  name: z.string().min(1),
  type: StationType,
  /** Id of an entry in model-bounds.json. */
  model: Id,
  modelScale: z.number().positive().default(1),
});
export type Station = z.infer<typeof Station>;
export const StationsFile = uniqueById(Station);

export const ModelBoundsEntry = z.object({
  id: Id,
  assetPath: z.string().regex(/^asset:\/\/models\/[a-z0-9_-]+\.glb$/),
  bounds: z.object({ min: Vec3, max: Vec3 }),
  dimensions: Vec3,
  footprint: z.object({ width: PositiveInt, depth: PositiveInt }),
});
export type ModelBoundsEntry = z.infer<typeof ModelBoundsEntry>;

/** model-bounds.json, written by `npm run build:bounds`. */
export const ModelBoundsFile = z.object({
  generatedAt: z.iso.datetime(),
  tileSize: z.number().positive(),
  models: uniqueById(ModelBoundsEntry),
});
export type ModelBoundsFile = z.infer<typeof ModelBoundsFile>;

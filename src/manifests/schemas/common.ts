import { z } from 'zod';
import { SKILL_NAMES } from '../skills.ts';

/** Lower-case identifiers: letters, digits, `_` and `-`, starting with a letter. */
export const Id = z.string().regex(/^[a-z][a-z0-9_-]*$/, 'must be a lower-case id (a-z, 0-9, _ or -)');

export const SkillName = z.enum(SKILL_NAMES);

export const PositiveInt = z.int().positive();
export const NonNegativeInt = z.int().nonnegative();
export const Level = z.int().min(1).max(99);
export const Probability = z.number().min(0).max(1);

/** The server counts experience in tenths of a point (src/game/experience.ts): a manifest gives at most one decimal. */
const inTenths = (points: number) => Math.abs(points * 10 - Math.round(points * 10)) < 1e-6;
const TENTHS = 'experience is counted in tenths of a point: give at most one decimal (e.g. 6.2, not 6.25)';
export const XpPoints = z.number().nonnegative().max(200_000_000).refine(inTenths, TENTHS);
export const PositiveXpPoints = z.number().positive().max(200_000_000).refine(inTenths, TENTHS);

/** A quantity of one item. */
export const ItemStack = z.object({
  itemId: Id,
  quantity: PositiveInt.default(1),
});
export type ItemStack = z.infer<typeof ItemStack>;

/** Skill → minimum level, e.g. `{ "attack": 10 }`. */
export const SkillLevels = z.partialRecord(SkillName, Level);
export type SkillLevels = z.infer<typeof SkillLevels>;

/** A tile on the world grid (x east, z south). */
export const TilePoint = z.object({ x: NonNegativeInt, z: NonNegativeInt });
export type TilePoint = z.infer<typeof TilePoint>;

/** An inclusive rectangle of tiles. */
export const TileRect = z
  .object({ minX: NonNegativeInt, minZ: NonNegativeInt, maxX: NonNegativeInt, maxZ: NonNegativeInt })
  .refine((r) => r.minX <= r.maxX && r.minZ <= r.maxZ, 'min must not exceed max');
export type TileRect = z.infer<typeof TileRect>;

export const Vec3 = z.object({ x: z.number(), y: z.number(), z: z.number() });
export type Vec3 = z.infer<typeof Vec3>;

/** A list whose entries must have unique `id`s. */
export function uniqueById<T extends z.ZodType<{ id: string }>>(entry: T) {
  return z.array(entry).superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((value, index) => {
      if (seen.has(value.id)) {
        ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate id '${value.id}'` });
      }
      seen.add(value.id);
    });
  });
}

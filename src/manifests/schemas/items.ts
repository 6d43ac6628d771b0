import { z } from 'zod';
import { Id, NonNegativeInt, PositiveInt, PositiveXpPoints, SkillLevels, uniqueById } from './common.ts';

export const EQUIPMENT_SLOTS = [
  'weapon',
  'shield',
  'head',
  'body',
  'legs',
  'feet',
  'hands',
  'cape',
  'neck',
  'ring',
  'ammunition',
] as const;
export const EquipmentSlot = z.enum(EQUIPMENT_SLOTS);
export type EquipmentSlot = z.infer<typeof EquipmentSlot>;

/** Combat bonuses of a piece of equipment; absent bonuses are 0. */
export const EquipmentBonuses = z.object({
  attackStab: z.int().default(0),
  attackSlash: z.int().default(0),
  attackCrush: z.int().default(0),
  attackMagic: z.int().default(0),
  attackRanged: z.int().default(0),
  defenseStab: z.int().default(0),
  defenseSlash: z.int().default(0),
  defenseCrush: z.int().default(0),
  defenseMagic: z.int().default(0),
  defenseRanged: z.int().default(0),
  meleeStrength: z.int().default(0),
  rangedStrength: z.int().default(0),
  magicDamage: z.int().default(0),
  prayer: z.int().default(0),
});
export type EquipmentBonuses = z.infer<typeof EquipmentBonuses>;

export const Equipment = z
  .object({
    slot: EquipmentSlot,
    twoHanded: z.boolean().default(false),
    requirements: SkillLevels.default({}),
    bonuses: EquipmentBonuses.default(EquipmentBonuses.parse({})),
    /** Weapons only: game ticks between attacks and the combat style they use. */
    attackSpeed: PositiveInt.optional(),
    style: z.enum(['melee', 'ranged', 'magic']).optional(),
  })
  .refine((e) => !e.twoHanded || e.slot === 'weapon', 'only a weapon can be two-handed');
export type Equipment = z.infer<typeof Equipment>;

export const Item = z.object({
  id: Id,
  name: z.string().min(1),
  examine: z.string().default(''),
  /** Base value in coins (shops derive prices from it). */
  value: NonNegativeInt,
  stackable: z.boolean(),
  tradeable: z.boolean(),
  questItem: z.boolean().default(false),
  equipment: Equipment.optional(),
  /** Food: hitpoints restored when eaten. */
  heal: PositiveInt.optional(),
  /** Bones: prayer experience when buried. */
  prayerXp: PositiveXpPoints.optional(),
  /** Kilograms, carried or worn (run energy drains faster with weight). Absent: 0 for a stackable, else 1. */
  weight: z.number().min(0).max(1000).optional(),
});
export type Item = z.infer<typeof Item>;

/** items.json or items/{weapons,armour,tools,resources,food,misc}.json: a list of items. */
export const ItemsFile = uniqueById(Item);

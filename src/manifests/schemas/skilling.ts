import { z } from 'zod';
import { Id, ItemStack, Level, PositiveInt, PositiveXpPoints, Probability, uniqueById, XpPoints } from './common.ts';
import { StationType } from './stations.ts';

export const GATHERING_SKILLS = ['woodcutting', 'mining', 'fishing'] as const;
export const TOOL_TYPES = ['hatchet', 'pickaxe', 'small-net', 'fishing-rod', 'hammer', 'tinderbox', 'knife'] as const;
export const ToolType = z.enum(TOOL_TYPES);
export type ToolType = z.infer<typeof ToolType>;

/** resources.json: kinds of gatherable nodes (trees, rocks, fishing spots). */
export const ResourceNode = z.object({
  id: Id,
  name: z.string().min(1),
  skill: z.enum(GATHERING_SKILLS),
  /** Chance that one successful gather depletes the node. */
  depleteChance: Probability,
  respawnTicks: PositiveInt,
  /** Whether the node's tile is blocked for walking (trees and rocks are, fishing spots sit in water). */
  blocksTile: z.boolean(),
});
export type ResourceNode = z.infer<typeof ResourceNode>;
export const ResourcesFile = uniqueById(ResourceNode);

/** tools.json: which items work as which tool, and how well. */
export const Tool = z.object({
  itemId: Id,
  type: ToolType,
  /** Level in the tool's skill needed to use it. */
  level: Level,
  /** Added to the base success chance of gathering with it. */
  speedBonus: z.number().min(0).max(1).default(0),
});
export type Tool = z.infer<typeof Tool>;
export const ToolsFile = z.array(Tool);

/** gathering/{woodcutting,mining,fishing}.json: what a node yields at which level. */
export const GatheringAction = z.object({
  id: Id,
  resourceId: Id,
  level: Level,
  xp: PositiveXpPoints,
  tool: ToolType,
  /** Consumed per success, e.g. fishing bait. */
  consumes: z.array(ItemStack).default([]),
  outputs: z.array(ItemStack).min(1),
  /** Chance per attempt at the required level. */
  baseChance: Probability,
});
export type GatheringAction = z.infer<typeof GatheringAction>;
export const GatheringFile = uniqueById(GatheringAction);

/** recipes/*.json: turn inputs into outputs, optionally at a station and with tools kept in the inventory. */
export const Recipe = z.object({
  id: Id,
  level: Level,
  xp: XpPoints,
  station: StationType.nullable().default(null),
  tools: z.array(Id).default([]),
  inputs: z.array(ItemStack).min(1),
  outputs: z.array(ItemStack).default([]),
  /** Cooking: the burnt result, which stops happening at `untilLevel`. */
  failure: z.object({ itemId: Id, untilLevel: Level }).optional(),
  ticks: PositiveInt.default(4),
});
export type Recipe = z.infer<typeof Recipe>;
export const RecipesFile = uniqueById(Recipe);

/** ammunition.json: arrows and which weapons fire them. */
export const Ammunition = z.object({
  itemId: Id,
  rangedLevel: Level,
  rangedStrength: z.int().nonnegative(),
  weaponIds: z.array(Id).min(1),
});
export type Ammunition = z.infer<typeof Ammunition>;
export const AmmunitionFile = z.array(Ammunition);

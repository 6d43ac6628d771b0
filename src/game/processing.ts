/**
 * Processing skills from recipes/*.json: cooking, smithing (smelt at a furnace, smith at an anvil), fletching,
 * runecrafting (at a rune altar) and firemaking. One call makes one recipe once; the room repeats it every
 * `recipe.ticks` ticks while the player keeps going. Inputs are a sink, outputs a source; tools are kept.
 *
 * Cooking can burn: from the recipe level the burn chance falls linearly from BASE_BURN_CHANCE to 0 at the
 * failure's `untilLevel`. Cooking recipes made at a range can also be cooked on a fire.
 *
 * Firemaking lights a fire on the player's tile instead of filling the inventory: the logs are used, and when
 * the fire burns out its recipe outputs (ashes) are left on the ground.
 */
import type { Recipe } from '../manifests/schemas/skilling.ts';
import type { StationType } from '../manifests/schemas/stations.ts';
import type { RecipeSkill } from '../manifests/game-data.ts';
import { placeLoot, type GroundItem, type GroundItemTimings } from './ground-items.ts';
import { applyTransfer, countItem, type Inventory, type InventoryCode } from './inventory.ts';
import type { ItemAmount, ItemDefinitions } from './items.ts';
import { tenthsOf } from './experience.ts';
import { ok, refuse, type Result } from './result.ts';

/** Where the player is working: a station type, a fire, or nowhere in particular. */
export type WorkPlace = StationType | 'fire' | null;

export type ProcessingCode = InventoryCode | 'LEVEL_TOO_LOW' | 'MISSING_TOOL' | 'MISSING_ITEMS' | 'WRONG_STATION' | 'BLOCKED_TILE' | 'FIRE_EXISTS';

export const BASE_BURN_CHANCE = 0.5;
/** Firemaking: chance to light at the recipe level, rising 2 % a level, always at least this. */
export const BASE_LIGHT_CHANCE = 0.6;
export const DEFAULT_FIRE_MS = 90_000;

export interface ProcessContext {
  readonly skill: RecipeSkill;
  /** The player's level in `skill`. */
  readonly level: number;
  readonly inventory: Inventory;
  readonly items: ItemDefinitions;
  readonly at: WorkPlace;
}

export interface ProcessOutcome {
  readonly inventory: Inventory;
  /** 'failure' when cooking burnt the food. */
  readonly result: 'success' | 'failure';
  readonly produced: readonly ItemAmount[];
  /** Experience gained, in tenths of a point (experience.ts). */
  readonly xpTenths: number;
}

export function stationAccepts(recipe: Recipe, skill: RecipeSkill, at: WorkPlace): boolean {
  if (recipe.station === null) return true;
  return at === recipe.station || (skill === 'cooking' && recipe.station === 'range' && at === 'fire');
}

export function burnChance(recipe: Recipe, level: number): number {
  const failure = recipe.failure;
  if (!failure || level >= failure.untilLevel) return 0;
  const span = failure.untilLevel - recipe.level;
  if (span <= 0) return 0;
  return Math.min(1, BASE_BURN_CHANCE * ((failure.untilLevel - level) / span));
}

/** Level, station, tools and inputs are all there. */
export function checkRecipe(recipe: Recipe, ctx: ProcessContext): Result<true, ProcessingCode> {
  if (ctx.level < recipe.level) return refuse('LEVEL_TOO_LOW', `you need ${ctx.skill} ${recipe.level} (you have ${ctx.level})`);
  if (!stationAccepts(recipe, ctx.skill, ctx.at)) return refuse('WRONG_STATION', `this has to be made at a ${recipe.station}`);
  const missingTool = recipe.tools.find((tool) => countItem(ctx.inventory, tool) < 1);
  if (missingTool) return refuse('MISSING_TOOL', `you need a ${missingTool}`);
  const missing = recipe.inputs.find((input) => countItem(ctx.inventory, input.itemId) < input.quantity);
  if (missing) return refuse('MISSING_ITEMS', `you need ${missing.quantity} ${missing.itemId}`);
  return ok(true);
}

/** How many times the recipe could be made from what is in the inventory (0 when something is missing). */
export function maxBatches(recipe: Recipe, inventory: Inventory): number {
  if (recipe.tools.some((tool) => countItem(inventory, tool) < 1)) return 0;
  return Math.min(...recipe.inputs.map((input) => Math.floor(countItem(inventory, input.itemId) / input.quantity)));
}

/** Makes the recipe once. Cooking may burn (failure item, no XP); `rng` is only drawn for recipes that can fail. */
export function processRecipe(recipe: Recipe, ctx: ProcessContext, rng: () => number): Result<ProcessOutcome, ProcessingCode> {
  const checked = checkRecipe(recipe, ctx);
  if (!checked.ok) return checked;
  const burnt = recipe.failure !== undefined && rng() < burnChance(recipe, ctx.level);
  const produced = burnt ? [{ itemId: recipe.failure!.itemId, quantity: 1 }] : recipe.outputs;
  const inventory = applyTransfer(ctx.inventory, ctx.items, recipe.inputs, produced);
  if (!inventory.ok) return inventory;
  return ok({ inventory: inventory.value, result: burnt ? 'failure' : 'success', produced, xpTenths: burnt ? 0 : tenthsOf(recipe.xp) });
}

// ── Firemaking ─────────────────────────────────────────────────────────────────────────────────────

export interface Fire {
  readonly x: number;
  readonly z: number;
  readonly litAt: number;
  readonly expiresAt: number;
  /** What the fire leaves on the ground when it burns out. */
  readonly remains: readonly ItemAmount[];
}

export interface FireContext {
  readonly level: number;
  readonly inventory: Inventory;
  readonly items: ItemDefinitions;
  readonly x: number;
  readonly z: number;
  readonly isBlocked: (x: number, z: number) => boolean;
  readonly hasFire: (x: number, z: number) => boolean;
  readonly now: number;
  readonly burnMs?: number;
}

export function lightChance(recipe: Recipe, level: number): number {
  return Math.min(1, BASE_LIGHT_CHANCE + 0.02 * (level - recipe.level));
}

/**
 * One attempt to light a fire with a firemaking recipe. A failed attempt uses nothing (`fire` is null);
 * a success takes the logs and gives the XP.
 */
export function lightFire(
  recipe: Recipe,
  ctx: FireContext,
  rng: () => number,
): Result<{ inventory: Inventory; fire: Fire | null; xpTenths: number }, ProcessingCode> {
  const checked = checkRecipe(recipe, { skill: 'firemaking', level: ctx.level, inventory: ctx.inventory, items: ctx.items, at: null });
  if (!checked.ok) return checked;
  if (ctx.isBlocked(ctx.x, ctx.z)) return refuse('BLOCKED_TILE', 'you cannot light a fire here');
  if (ctx.hasFire(ctx.x, ctx.z)) return refuse('FIRE_EXISTS', 'there is already a fire here');
  if (!(rng() < lightChance(recipe, ctx.level))) return ok({ inventory: ctx.inventory, fire: null, xpTenths: 0 });
  const inventory = applyTransfer(ctx.inventory, ctx.items, recipe.inputs, []);
  if (!inventory.ok) return inventory;
  const fire = { x: ctx.x, z: ctx.z, litAt: ctx.now, expiresAt: ctx.now + (ctx.burnMs ?? DEFAULT_FIRE_MS), remains: recipe.outputs };
  return ok({ inventory: inventory.value, fire, xpTenths: tenthsOf(recipe.xp) });
}

/** A burnt-out fire leaves its remains as ground items everyone can see. */
export function burnOut(fire: Fire, items: ItemDefinitions, nextId: () => string, timings?: GroundItemTimings): GroundItem[] {
  return placeLoot(fire.remains, items, { x: fire.x, z: fire.z, ownerId: null, now: fire.expiresAt, nextId, timings });
}

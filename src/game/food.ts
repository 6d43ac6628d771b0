/** Eating (a sink): one piece of food leaves the game and heals its `heal` hitpoints, up to the maximum. */
import { HEALTH_SCALE } from './constants.ts';
import { applyTransfer, isValidSlot, type Inventory, type InventoryCode } from './inventory.ts';
import type { ItemDefinitions } from './items.ts';
import { ok, refuse, type Result } from './result.ts';

export type FoodCode = InventoryCode | 'NOT_FOOD';

export function eat(
  inventory: Inventory,
  items: ItemDefinitions,
  slot: number,
  hitpoints: number,
  maxHitpoints: number,
): Result<{ inventory: Inventory; hitpoints: number; itemId: string }, FoodCode> {
  if (!isValidSlot(inventory, slot)) return refuse('INVALID_SLOT', `slots must be whole numbers from 0 to ${inventory.length - 1}`);
  const held = inventory[slot];
  if (held === null) return refuse('EMPTY_SLOT', `slot ${slot} is empty`);
  const heal = items.get(held.itemId)?.heal;
  if (heal === undefined) return refuse('NOT_FOOD', `${held.itemId} cannot be eaten`);
  const next = applyTransfer(inventory, items, [{ slot, quantity: 1, itemId: held.itemId }], []);
  if (!next.ok) return next;
  return ok({ inventory: next.value, hitpoints: Math.min(maxHitpoints, hitpoints + heal), itemId: held.itemId });
}

/** The world's health after eating food that heals `heal` hitpoints (level scale), up to the maximum. */
export function healthAfterEating(health: number, maxHealth: number, heal: number): number {
  return Math.min(maxHealth, health + heal * HEALTH_SCALE);
}

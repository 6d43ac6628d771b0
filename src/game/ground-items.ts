/**
 * Items lying on a tile. A dropped item is visible only to its owner for `privateMs`, then to everyone for
 * `publicMs`, then it is gone (a sink). Untradeable items never become public: only their owner ever sees them.
 * Ids come from the caller (the record's database id).
 */
import { applyTransfer, isValidSlot, removeFromSlot, type Inventory, type InventoryCode, type ItemMetadata } from './inventory.ts';
import type { ItemAmount, ItemDefinitions } from './items.ts';
import { isValidQuantity } from './quantity.ts';
import { ok, refuse, type Result } from './result.ts';

export interface GroundItemTimings {
  /** How long only the owner sees the item. */
  readonly privateMs: number;
  /** How long everyone sees it after that. */
  readonly publicMs: number;
}

export const DEFAULT_GROUND_TIMINGS: GroundItemTimings = { privateMs: 60_000, publicMs: 120_000 };

export interface GroundItem {
  readonly id: string;
  readonly itemId: string;
  readonly quantity: number;
  readonly metadata?: ItemMetadata;
  readonly x: number;
  readonly z: number;
  /** Who sees it first; null for items everyone sees from the start. */
  readonly ownerId: string | null;
  readonly droppedAt: number;
  readonly publicAt: number;
  readonly expiresAt: number;
}

export type GroundPhase = 'private' | 'public' | 'expired';

export type GroundItemCode = InventoryCode | 'NOT_VISIBLE' | 'EXPIRED';

export interface PlaceOptions {
  readonly id: string;
  readonly x: number;
  readonly z: number;
  readonly ownerId: string | null;
  readonly now: number;
  readonly timings?: GroundItemTimings;
}

/** A ground item for a stack; untradeable items stay private to their owner until they expire. */
export function placeGroundItem(
  stack: { itemId: string; quantity: number; metadata?: ItemMetadata },
  tradeable: boolean,
  options: PlaceOptions,
): GroundItem {
  const { privateMs, publicMs } = options.timings ?? DEFAULT_GROUND_TIMINGS;
  const owned = options.ownerId !== null;
  const publicAt = owned ? options.now + privateMs : options.now;
  const expiresAt = publicAt + publicMs;
  return {
    id: options.id,
    itemId: stack.itemId,
    quantity: stack.quantity,
    ...(stack.metadata !== undefined ? { metadata: stack.metadata } : {}),
    x: options.x,
    z: options.z,
    ownerId: options.ownerId,
    droppedAt: options.now,
    publicAt: tradeable || !owned ? publicAt : expiresAt,
    expiresAt,
  };
}

export function groundPhase(item: GroundItem, now: number): GroundPhase {
  if (now >= item.expiresAt) return 'expired';
  return now >= item.publicAt ? 'public' : 'private';
}

export function isVisibleTo(item: GroundItem, playerId: string, now: number): boolean {
  const phase = groundPhase(item, now);
  return phase === 'public' || (phase === 'private' && item.ownerId === playerId);
}

/**
 * Drops the stack in an inventory slot on the player's tile: all of it, or `quantity` of it (more than the stack is
 * clamped to the stack, as in the bank and shops; an unstackable slot holds exactly one).
 */
export function dropFromInventory(
  inventory: Inventory,
  items: ItemDefinitions,
  slot: number,
  options: PlaceOptions,
  quantity?: number,
): Result<{ inventory: Inventory; groundItem: GroundItem }, GroundItemCode> {
  if (!isValidSlot(inventory, slot)) return refuse('INVALID_SLOT', `slots must be whole numbers from 0 to ${inventory.length - 1}`);
  const held = inventory[slot];
  if (held === null) return refuse('EMPTY_SLOT', `slot ${slot} is empty`);
  const definition = items.get(held.itemId);
  if (!definition) return refuse('UNKNOWN_ITEM', `no item '${held.itemId}'`);
  const taken = removeFromSlot(inventory, slot, Math.min(quantity ?? held.quantity, held.quantity));
  if (!taken.ok) return taken;
  return ok({ inventory: taken.value.inventory, groundItem: placeGroundItem(taken.value.removed, definition.tradeable, options) });
}

/** Picks up a ground item the player can see, all of it or nothing. The caller removes it from the world. */
export function pickUp(
  inventory: Inventory,
  items: ItemDefinitions,
  item: GroundItem,
  playerId: string,
  now: number,
): Result<Inventory, GroundItemCode> {
  const phase = groundPhase(item, now);
  if (phase === 'expired') return refuse('EXPIRED', 'the item is gone');
  if (!isVisibleTo(item, playerId, now)) return refuse('NOT_VISIBLE', 'there is nothing there you can take');
  return applyTransfer(inventory, items, [], [{ itemId: item.itemId, quantity: item.quantity, metadata: item.metadata }]);
}

/** Splits a list into items still on the ground and expired ones (which leave the game). */
export function partitionExpired(list: readonly GroundItem[], now: number): { remaining: GroundItem[]; expired: GroundItem[] } {
  const remaining: GroundItem[] = [];
  const expired: GroundItem[] = [];
  for (const item of list) (groundPhase(item, now) === 'expired' ? expired : remaining).push(item);
  return { remaining, expired };
}

/**
 * Ground items for loot (an NPC's drop, an expired gravestone): a stackable as one pile, unstackables one pile
 * each, so each pile can be picked up into one slot. `nextId` supplies the ids.
 */
export function placeLoot(
  loot: readonly ItemAmount[],
  items: ItemDefinitions,
  options: Omit<PlaceOptions, 'id'> & { nextId: () => string },
): GroundItem[] {
  const piles: GroundItem[] = [];
  for (const { itemId, quantity } of loot) {
    if (!isValidQuantity(quantity)) continue;
    // An item without a definition is kept as one pile rather than lost.
    const definition = items.get(itemId);
    const stackable = definition?.stackable ?? true;
    const tradeable = definition?.tradeable ?? true;
    for (let i = 0; i < (stackable ? 1 : quantity); i++) {
      piles.push(placeGroundItem({ itemId, quantity: stackable ? quantity : 1 }, tradeable, { ...options, id: options.nextId() }));
    }
  }
  return piles;
}

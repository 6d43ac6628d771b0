/**
 * The 28-slot inventory. Values are immutable: every operation returns a new inventory, and a refusal leaves
 * the caller's inventory exactly as it was.
 *
 * Stackable items occupy one slot per item id (quantities merge, up to MAX_STACK); unstackable items occupy one
 * slot each with quantity 1. Only unstackable items may carry metadata.
 */
import type { ItemAmount, ItemDefinitions } from './items.ts';
import { MAX_STACK, addQuantities, isValidQuantity } from './quantity.ts';
import { ok, refuse, type Refusal, type Result } from './result.ts';

export const INVENTORY_SIZE = 28;

export type ItemMetadata = Readonly<Record<string, string | number | boolean | null>>;

export interface InventoryItem {
  readonly itemId: string;
  readonly quantity: number;
  readonly metadata?: ItemMetadata;
}

export type InventorySlot = InventoryItem | null;
export type Inventory = readonly InventorySlot[];

export type InventoryCode =
  | 'INVALID_QUANTITY'
  | 'UNKNOWN_ITEM'
  | 'INVALID_SLOT'
  | 'EMPTY_SLOT'
  | 'ITEM_MISMATCH'
  | 'NOT_ENOUGH_ITEMS'
  | 'INVENTORY_FULL'
  | 'STACK_LIMIT'
  | 'INVALID_METADATA';

/** Something to put into an inventory. An unstackable item with quantity n takes n slots. */
export interface ItemToAdd {
  readonly itemId: string;
  readonly quantity: number;
  readonly metadata?: ItemMetadata;
}

/**
 * Something to take out: from one slot (optionally checking which item it holds, to catch stale slot numbers),
 * or by item id from whichever slots hold it (lowest slot first).
 */
export type Removal =
  | { readonly slot: number; readonly quantity: number; readonly itemId?: string }
  | { readonly itemId: string; readonly quantity: number };

export function emptyInventory(size: number = INVENTORY_SIZE): Inventory {
  return new Array<InventorySlot>(size).fill(null);
}

export function freeSlotCount(inventory: Inventory): number {
  return inventory.reduce((n, slot) => (slot === null ? n + 1 : n), 0);
}

/** Total quantity of an item across all slots. */
export function countItem(inventory: Inventory, itemId: string): number {
  return inventory.reduce((n, slot) => (slot?.itemId === itemId ? n + slot.quantity : n), 0);
}

export function isValidSlot(inventory: Inventory, slot: unknown): slot is number {
  return typeof slot === 'number' && Number.isInteger(slot) && slot >= 0 && slot < inventory.length;
}

export function addItem(inventory: Inventory, items: ItemDefinitions, add: ItemToAdd): Result<Inventory, InventoryCode> {
  return applyTransfer(inventory, items, [], [add]);
}

export function addItems(
  inventory: Inventory,
  items: ItemDefinitions,
  adds: readonly ItemToAdd[],
): Result<Inventory, InventoryCode> {
  return applyTransfer(inventory, items, [], adds);
}

/** The stack in a slot, checking (when given) that it holds the expected item. */
export function stackIn(inventory: Inventory, slot: number, itemId?: string): Result<InventoryItem, InventoryCode> {
  if (!isValidSlot(inventory, slot)) return refuse('INVALID_SLOT', `slots must be whole numbers from 0 to ${inventory.length - 1}`);
  const held = inventory[slot];
  if (!held) return refuse('EMPTY_SLOT', `slot ${slot} is empty`);
  if (itemId !== undefined && held.itemId !== itemId) return refuse('ITEM_MISMATCH', `slot ${slot} holds ${held.itemId}, not ${itemId}`);
  return ok(held);
}

/** Takes `quantity` from one slot; returns what was taken (with the slot's metadata). */
export function removeFromSlot(
  inventory: Inventory,
  slot: number,
  quantity: number,
  expectedItemId?: string,
): Result<{ inventory: Inventory; removed: InventoryItem }, InventoryCode> {
  const work = [...inventory];
  const taken = takeFromSlot(work, slot, quantity, expectedItemId);
  if (!taken.ok) return taken;
  return ok({ inventory: work, removed: taken.value });
}

/** Takes `quantity` of an item from whichever slots hold it. */
export function removeItem(inventory: Inventory, itemId: string, quantity: number): Result<Inventory, InventoryCode> {
  return applyTransfer(inventory, new Map(), [{ itemId, quantity }], []);
}

/** Swaps the contents of two slots (moving onto an empty slot is a swap with nothing). */
export function moveSlot(inventory: Inventory, from: number, to: number): Result<Inventory, InventoryCode> {
  if (!isValidSlot(inventory, from) || !isValidSlot(inventory, to)) {
    return refuse('INVALID_SLOT', `slots must be whole numbers from 0 to ${inventory.length - 1}`);
  }
  if (inventory[from] === null) return refuse('EMPTY_SLOT', `slot ${from} is empty`);
  const work = [...inventory];
  [work[from], work[to]] = [work[to], work[from]];
  return ok(work);
}

/**
 * Whether `add` fits after `remove` has been taken out — the trade case: removed items free their slots,
 * stackables merge into existing stacks (and with each other), unstackables need one slot each.
 */
export function canFit(
  inventory: Inventory,
  items: ItemDefinitions,
  add: readonly ItemToAdd[],
  remove: readonly Removal[] = [],
): boolean {
  return applyTransfer(inventory, items, remove, add).ok;
}

/**
 * All-or-nothing: takes every removal, then adds every addition (the trade swap, the bank, shops). Removals are
 * applied first, so the slots they free are available to the additions.
 */
export function applyTransfer(
  inventory: Inventory,
  items: ItemDefinitions,
  remove: readonly Removal[],
  add: readonly ItemToAdd[],
): Result<Inventory, InventoryCode> {
  const taken = takeItems(inventory, remove);
  if (!taken.ok) return taken;
  const work = [...taken.value.inventory];
  for (const addition of add) {
    const refused = putIn(work, items, addition);
    if (refused) return refused;
  }
  return ok(work);
}

/** All-or-nothing removal that also returns the removed stacks, metadata included (what a trade hands over). */
export function takeItems(
  inventory: Inventory,
  remove: readonly Removal[],
): Result<{ inventory: Inventory; removed: InventoryItem[] }, InventoryCode> {
  const work = [...inventory];
  const removed: InventoryItem[] = [];
  for (const removal of remove) {
    const taken = 'slot' in removal
      ? takeFromSlot(work, removal.slot, removal.quantity, removal.itemId)
      : takeById(work, removal.itemId, removal.quantity);
    if (!taken.ok) return taken;
    removed.push(...(Array.isArray(taken.value) ? taken.value : [taken.value]));
  }
  return ok({ inventory: work, removed });
}

/**
 * Adds as much of each entry as fits, in order: stackables up to the stack limit, unstackables one per free
 * slot. Used where a partial result is the rule (bank withdrawals, claiming a gravestone).
 */
export function addAsMuchAsFits(
  inventory: Inventory,
  items: ItemDefinitions,
  adds: readonly ItemToAdd[],
): Result<{ inventory: Inventory; added: ItemAmount[]; leftover: ItemAmount[] }, InventoryCode> {
  const work = [...inventory];
  const added: ItemAmount[] = [];
  const leftover: ItemAmount[] = [];
  for (const addition of adds) {
    const invalid = checkAddition(items, addition);
    if (invalid) return invalid;
    const fits = Math.min(addition.quantity, room(work, items, addition.itemId));
    if (fits > 0) {
      putIn(work, items, { ...addition, quantity: fits });
      added.push({ itemId: addition.itemId, quantity: fits });
    }
    if (fits < addition.quantity) leftover.push({ itemId: addition.itemId, quantity: addition.quantity - fits });
  }
  return ok({ inventory: work, added, leftover });
}

/** How many more of an item the inventory can take. */
export function room(inventory: Inventory, items: ItemDefinitions, itemId: string): number {
  const definition = items.get(itemId);
  if (!definition) return 0;
  const free = freeSlotCount(inventory);
  if (!definition.stackable) return free;
  const stack = inventory.find((slot) => slot?.itemId === itemId);
  if (stack) return MAX_STACK - stack.quantity;
  return free > 0 ? MAX_STACK : 0;
}

/** The inventory's contents as item id → total quantity. */
export function inventoryTotals(inventory: Inventory): Map<string, number> {
  const totals = new Map<string, number>();
  for (const slot of inventory) if (slot) totals.set(slot.itemId, (totals.get(slot.itemId) ?? 0) + slot.quantity);
  return totals;
}

function takeFromSlot(
  work: InventorySlot[],
  slot: number,
  quantity: number,
  expectedItemId: string | undefined,
): Result<InventoryItem, InventoryCode> {
  if (!isValidSlot(work, slot)) return refuse('INVALID_SLOT', `slots must be whole numbers from 0 to ${work.length - 1}`);
  if (!isValidQuantity(quantity)) return invalidQuantity(quantity);
  const held = work[slot];
  if (held === null) return refuse('EMPTY_SLOT', `slot ${slot} is empty`);
  if (expectedItemId !== undefined && held.itemId !== expectedItemId) {
    return refuse('ITEM_MISMATCH', `slot ${slot} holds ${held.itemId}, not ${expectedItemId}`);
  }
  if (quantity > held.quantity) {
    return refuse('NOT_ENOUGH_ITEMS', `slot ${slot} holds ${held.quantity} ${held.itemId}, not ${quantity}`);
  }
  work[slot] = quantity === held.quantity ? null : { ...held, quantity: held.quantity - quantity };
  return ok({ ...held, quantity });
}

function takeById(work: InventorySlot[], itemId: string, quantity: number): Result<InventoryItem[], InventoryCode> {
  if (!isValidQuantity(quantity)) return invalidQuantity(quantity);
  const held = countItem(work, itemId);
  if (held < quantity) return refuse('NOT_ENOUGH_ITEMS', `only ${held} ${String(itemId)} in the inventory, not ${quantity}`);
  const removed: InventoryItem[] = [];
  let left = quantity;
  for (let i = 0; i < work.length && left > 0; i++) {
    const slot = work[i];
    if (slot?.itemId !== itemId) continue;
    const take = Math.min(left, slot.quantity);
    work[i] = take === slot.quantity ? null : { ...slot, quantity: slot.quantity - take };
    removed.push({ ...slot, quantity: take });
    left -= take;
  }
  return ok(removed);
}

function checkAddition(items: ItemDefinitions, addition: ItemToAdd): Refusal<InventoryCode> | null {
  if (!isValidQuantity(addition.quantity)) return invalidQuantity(addition.quantity);
  const definition = items.get(addition.itemId);
  if (!definition) return refuse('UNKNOWN_ITEM', `no item '${String(addition.itemId)}'`);
  if (definition.stackable && addition.metadata !== undefined) {
    return refuse('INVALID_METADATA', `${addition.itemId} is stackable and cannot carry metadata`);
  }
  return null;
}

function putIn(work: InventorySlot[], items: ItemDefinitions, addition: ItemToAdd): Refusal<InventoryCode> | null {
  const invalid = checkAddition(items, addition);
  if (invalid) return invalid;
  const { itemId, quantity, metadata } = addition;
  if (items.get(itemId)!.stackable) {
    const index = work.findIndex((slot) => slot?.itemId === itemId);
    if (index >= 0) {
      const total = addQuantities(work[index]!.quantity, quantity);
      if (total === null) return refuse('STACK_LIMIT', `a stack of ${itemId} cannot exceed ${MAX_STACK}`);
      work[index] = { ...work[index]!, quantity: total };
      return null;
    }
    const free = work.indexOf(null);
    if (free < 0) return refuse('INVENTORY_FULL', `no free inventory slot for ${itemId}`);
    work[free] = { itemId, quantity };
    return null;
  }
  const free: number[] = [];
  for (let i = 0; i < work.length && free.length < quantity; i++) if (work[i] === null) free.push(i);
  if (free.length < quantity) {
    return refuse('INVENTORY_FULL', `${quantity} ${itemId} need ${quantity} free slots`);
  }
  for (const i of free) work[i] = metadata === undefined ? { itemId, quantity: 1 } : { itemId, quantity: 1, metadata };
  return null;
}

function invalidQuantity(quantity: unknown): Refusal<'INVALID_QUANTITY'> {
  return refuse('INVALID_QUANTITY', `quantity must be a whole number from 1 to ${MAX_STACK}, got ${String(quantity)}`);
}

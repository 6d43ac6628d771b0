/**
 * Shops (stores.json). Prices are fixed by item value: the player pays `max(1, ceil(value × sellMultiplier))`
 * per item and receives `floor(value × buyMultiplier)`, never more than one coin below the buying price, so
 * buying and reselling never makes coins. Buying and selling are all-or-nothing for the requested quantity
 * (selling clamps to what the player holds). Coins paid to a shop leave the game; coins paid by a shop enter it.
 */
import type { Store } from '../manifests/schemas/stores.ts';
import { applyTransfer, countItem, isValidSlot, type Inventory, type InventoryCode, type Removal } from './inventory.ts';
import type { ItemAmount, ItemDefinitions } from './items.ts';
import { MAX_STACK, addQuantities, isValidQuantity } from './quantity.ts';
import { ok, refuse, type Result } from './result.ts';
import { TICK_MS } from './ticks.ts';

export const COINS = 'coins';
/** A general store stocks at most this many different items (its own plus what players sold it). */
export const MAX_STORE_ENTRIES = 40;
/** How fast items sold to a store that it does not normally stock drain away again. */
export const DEFAULT_RESTOCK_TICKS = 100;

export interface StoreStockEntry {
  readonly itemId: string;
  readonly quantity: number;
  /** What the store returns to over time; 0 for items players sold to a general store. */
  readonly baseQuantity: number;
  readonly restockTicks: number;
  /** Time gathered toward the next one-item step back to base. */
  readonly restockProgressMs: number;
}

export interface StoreState {
  readonly storeId: string;
  readonly kind: Store['kind'];
  readonly sellMultiplier: number;
  readonly buyMultiplier: number;
  readonly stock: readonly StoreStockEntry[];
}

export type ShopCode =
  | InventoryCode
  | 'NOT_SOLD_HERE'
  | 'OUT_OF_STOCK'
  | 'NOT_ENOUGH_COINS'
  | 'UNTRADEABLE'
  | 'STORE_WONT_BUY'
  | 'CANNOT_SELL_COINS'
  | 'STORE_FULL';

export function createStoreState(store: Store): StoreState {
  return {
    storeId: store.id,
    kind: store.kind,
    sellMultiplier: store.sellMultiplier,
    buyMultiplier: store.buyMultiplier,
    stock: store.stock.map((s) => ({
      itemId: s.itemId,
      quantity: s.quantity,
      baseQuantity: s.quantity,
      restockTicks: s.restockTicks,
      restockProgressMs: 0,
    })),
  };
}

/** Coins the player pays for one item. */
export function buyPrice(store: Pick<StoreState, 'sellMultiplier'>, value: number): number {
  return Math.max(1, Math.ceil(value * store.sellMultiplier - 1e-9));
}

/** Coins the player receives for one item: a fraction of value, always below the buying price. */
export function sellPrice(store: Pick<StoreState, 'sellMultiplier' | 'buyMultiplier'>, value: number): number {
  return Math.max(0, Math.min(Math.floor(value * store.buyMultiplier + 1e-9), buyPrice(store, value) - 1));
}

export function stockOf(store: StoreState, itemId: string): number {
  return store.stock.find((s) => s.itemId === itemId)?.quantity ?? 0;
}

/** Buys exactly `quantity`; refused, taking nothing, when stock, coins or inventory space fall short. */
export function buy(
  store: StoreState,
  inventory: Inventory,
  items: ItemDefinitions,
  itemId: string,
  quantity: number,
): Result<{ store: StoreState; inventory: Inventory; cost: number }, ShopCode> {
  if (!isValidQuantity(quantity)) return refuse('INVALID_QUANTITY', `quantity must be a whole number from 1 to ${MAX_STACK}`);
  const index = store.stock.findIndex((s) => s.itemId === itemId);
  const definition = items.get(itemId);
  if (index < 0 || !definition) return refuse('NOT_SOLD_HERE', `this store does not sell ${String(itemId)}`);
  const entry = store.stock[index];
  if (entry.quantity < quantity) return refuse('OUT_OF_STOCK', `the store has ${entry.quantity} ${itemId}, not ${quantity}`);
  const cost = buyPrice(store, definition.value) * quantity;
  const coins = countItem(inventory, COINS);
  if (coins < cost) return refuse('NOT_ENOUGH_COINS', `${quantity} ${itemId} cost ${cost} coins; you have ${coins}`);
  const next = applyTransfer(inventory, items, cost > 0 ? [{ itemId: COINS, quantity: cost }] : [], [{ itemId, quantity }]);
  if (!next.ok) return next;
  const stock = store.stock.map((s, i) => (i === index ? { ...s, quantity: s.quantity - quantity } : s));
  return ok({ store: { ...store, stock }, inventory: next.value, cost });
}

/**
 * Sells up to `quantity` of the item in an inventory slot (unstackables from the whole inventory, the given slot
 * first). Specialist stores buy only what they stock; general stores buy anything tradeable. Coins cannot be sold.
 */
export function sell(
  store: StoreState,
  inventory: Inventory,
  items: ItemDefinitions,
  slot: number,
  quantity: number,
): Result<{ store: StoreState; inventory: Inventory; sold: ItemAmount; payment: number }, ShopCode> {
  if (!isValidSlot(inventory, slot)) return refuse('INVALID_SLOT', `slots must be whole numbers from 0 to ${inventory.length - 1}`);
  if (!isValidQuantity(quantity)) return refuse('INVALID_QUANTITY', `quantity must be a whole number from 1 to ${MAX_STACK}`);
  const held = inventory[slot];
  if (held === null) return refuse('EMPTY_SLOT', `slot ${slot} is empty`);
  const { itemId } = held;
  const definition = items.get(itemId);
  if (!definition) return refuse('UNKNOWN_ITEM', `no item '${itemId}'`);
  if (itemId === COINS) return refuse('CANNOT_SELL_COINS', 'coins cannot be sold');
  if (!definition.tradeable) return refuse('UNTRADEABLE', `${itemId} cannot be sold`);
  const index = store.stock.findIndex((s) => s.itemId === itemId);
  if (store.kind === 'specialist' && index < 0) return refuse('STORE_WONT_BUY', `this store does not buy ${itemId}`);
  if (index < 0 && store.stock.length >= MAX_STORE_ENTRIES) return refuse('STORE_FULL', 'the store has no room for more kinds of goods');

  const removals = sellRemovals(inventory, slot, quantity, definition.stackable);
  const count = removals.reduce((n, r) => n + r.quantity, 0);
  const stocked = addQuantities(index >= 0 ? store.stock[index].quantity : 0, count);
  if (stocked === null) return refuse('STORE_FULL', `the store cannot hold more ${itemId}`);
  const payment = sellPrice(store, definition.value) * count;
  const next = applyTransfer(inventory, items, removals, payment > 0 ? [{ itemId: COINS, quantity: payment }] : []);
  if (!next.ok) return next;
  const stock =
    index >= 0
      ? store.stock.map((s, i) => (i === index ? { ...s, quantity: stocked } : s))
      : [...store.stock, { itemId, quantity: stocked, baseQuantity: 0, restockTicks: DEFAULT_RESTOCK_TICKS, restockProgressMs: 0 }];
  return ok({ store: { ...store, stock }, inventory: next.value, sold: { itemId, quantity: count }, payment });
}

/**
 * Moves every stock entry one item toward its base quantity per `restockTicks` game ticks of `elapsedMs`
 * (up when below, down when players sold it above). Progress carries over between calls, so restocking in
 * small or large steps gives the same stock. Entries with base 0 that reach 0 leave the store.
 */
export function restock(store: StoreState, elapsedMs: number): StoreState {
  if (!(elapsedMs > 0) || !Number.isFinite(elapsedMs)) return store;
  const stock: StoreStockEntry[] = [];
  for (const entry of store.stock) {
    const gap = entry.baseQuantity - entry.quantity;
    if (gap === 0) {
      stock.push(entry.restockProgressMs === 0 ? entry : { ...entry, restockProgressMs: 0 });
      continue;
    }
    const stepMs = entry.restockTicks * TICK_MS;
    const progress = entry.restockProgressMs + elapsedMs;
    const steps = Math.floor(progress / stepMs);
    if (steps >= Math.abs(gap)) {
      if (entry.baseQuantity > 0) stock.push({ ...entry, quantity: entry.baseQuantity, restockProgressMs: 0 });
      continue;
    }
    stock.push({ ...entry, quantity: entry.quantity + Math.sign(gap) * steps, restockProgressMs: progress - steps * stepMs });
  }
  return { ...store, stock };
}

function sellRemovals(inventory: Inventory, slot: number, quantity: number, stackable: boolean): Removal[] {
  const itemId = inventory[slot]!.itemId;
  const slots = stackable
    ? [slot]
    : [slot, ...inventory.flatMap((s, i) => (i !== slot && s?.itemId === itemId ? [i] : []))];
  const removals: Removal[] = [];
  let left = quantity;
  for (const i of slots) {
    if (left === 0) break;
    const take = Math.min(left, inventory[i]!.quantity);
    removals.push({ slot: i, quantity: take, itemId });
    left -= take;
  }
  return removals;
}

/** What `shop:state` shows of a store: its stock with the prices the player pays and is paid. */
export function shopView(store: StoreState, name: string, items: ItemDefinitions): Record<string, unknown> {
  return {
    storeId: store.storeId, name, kind: store.kind,
    items: store.stock.map((entry) => {
      const value = items.get(entry.itemId)?.value ?? 0;
      return { itemId: entry.itemId, quantity: entry.quantity, buyPrice: buyPrice(store, value), sellPrice: sellPrice(store, value) };
    }),
  };
}

/**
 * Adds `delta` to one stock entry (reserving stock for a deal in progress, or giving it back). An entry the store no
 * longer lists comes back from `template` (the state the reservation was made on) when stock is given back.
 */
export function adjustStock(current: StoreState, template: StoreState, itemId: string, delta: number): StoreState {
  const exists = current.stock.some((s) => s.itemId === itemId);
  const stock = exists
    ? current.stock.map((s) => (s.itemId === itemId ? { ...s, quantity: Math.max(0, s.quantity + delta) } : s))
    : delta > 0 ? [...current.stock, { ...template.stock.find((s) => s.itemId === itemId)!, quantity: delta }] : current.stock;
  return { ...current, stock };
}

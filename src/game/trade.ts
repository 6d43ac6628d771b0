/**
 * Pure rules of a trade offer (no I/O): an offer is a list of entries, one per inventory slot offered, each with
 * the item, the quantity and — for unstackable items — the metadata seen when it was offered. The swap
 * re-validates every entry against the inventories read inside the database transaction, takes the offered
 * quantities from their slots (so metadata travels with the items), and adds them to the other side after its
 * own offer was taken out: freed slots count once, stackables merge, no stack exceeds MAX_STACK.
 */
import { addItems, isValidSlot, takeItems, type Inventory, type InventoryCode, type InventoryItem, type ItemMetadata } from './inventory.ts';
import type { ItemAmount, ItemDefinitions } from './items.ts';
import { isValidQuantity } from './quantity.ts';
import { ok, refuse, type Result } from './result.ts';

/** At most this many entries in one side's offer (the size of the trade window). */
export const MAX_TRADE_ENTRIES = 28;

export interface OfferEntry {
  readonly inventorySlot: number;
  readonly itemId: string;
  readonly quantity: number;
  readonly metadata?: ItemMetadata;
}

export type Offer = readonly OfferEntry[];

export type OfferCode =
  | InventoryCode
  | 'UNTRADEABLE'
  | 'TRADE_FULL'
  | 'INVALID_TRADE_SLOT'
  | 'ITEM_CHANGED';

/** What a removal took out of an offer (the partner sees it flagged: the anti-scam warning). */
export interface OfferRemoval {
  readonly tradeSlot: number;
  readonly inventorySlot: number;
  readonly itemId: string;
  /** How many were taken back. */
  readonly quantity: number;
  /** How many of the entry are still offered (0: the entry is gone). */
  readonly remaining: number;
}

/** Metadata equality that ignores key order (jsonb reorders keys). */
export function sameMetadata(a: ItemMetadata | undefined | null, b: ItemMetadata | undefined | null): boolean {
  const canonical = (m: ItemMetadata | undefined | null) =>
    m ? JSON.stringify(Object.keys(m).sort().map((k) => [k, m[k]])) : 'null';
  return canonical(a) === canonical(b);
}

/** Adds `quantity` of the item in an inventory slot; entries are one per slot (a second add raises it). */
export function addToOffer(
  offer: Offer,
  inventory: Inventory,
  items: ItemDefinitions,
  slot: unknown,
  quantity: unknown,
): Result<Offer, OfferCode> {
  if (!isValidSlot(inventory, slot)) return refuse('INVALID_SLOT', `inventory slots are whole numbers from 0 to ${inventory.length - 1}`);
  if (!isValidQuantity(quantity)) return refuse('INVALID_QUANTITY', `quantity must be a whole number from 1 (got ${String(quantity)})`);
  const held = inventory[slot];
  if (held === null) return refuse('EMPTY_SLOT', `slot ${slot} is empty`);
  if (!items.get(held.itemId)?.tradeable) return refuse('UNTRADEABLE', `${held.itemId} cannot be traded`);
  const index = offer.findIndex((entry) => entry.inventorySlot === slot);
  const existing = index >= 0 ? offer[index] : undefined;
  if (existing && (existing.itemId !== held.itemId || !sameMetadata(existing.metadata, held.metadata))) {
    return refuse('ITEM_CHANGED', `slot ${slot} no longer holds the offered ${existing.itemId}`);
  }
  const already = existing?.quantity ?? 0;
  if (quantity > held.quantity - already) {
    return refuse('NOT_ENOUGH_ITEMS', `slot ${slot} holds ${held.quantity} ${held.itemId}${already ? `, ${already} already offered` : ''}; cannot offer ${quantity} more`);
  }
  if (!existing && offer.length >= MAX_TRADE_ENTRIES) return refuse('TRADE_FULL', `an offer holds at most ${MAX_TRADE_ENTRIES} entries`);
  if (existing) return ok(offer.map((entry, i) => (i === index ? { ...entry, quantity: already + quantity } : entry)));
  const entry: OfferEntry = held.metadata ? { inventorySlot: slot, itemId: held.itemId, quantity, metadata: held.metadata } : { inventorySlot: slot, itemId: held.itemId, quantity };
  return ok([...offer, entry]);
}

/** Takes an entry (or `quantity` of it) back out of the offer. */
export function removeFromOffer(
  offer: Offer,
  tradeSlot: unknown,
  quantity: unknown,
): Result<{ offer: Offer; removal: OfferRemoval }, OfferCode> {
  if (typeof tradeSlot !== 'number' || !Number.isInteger(tradeSlot) || tradeSlot < 0 || tradeSlot >= offer.length) {
    return refuse('INVALID_TRADE_SLOT', offer.length === 0 ? 'the offer is empty' : `trade slots are whole numbers from 0 to ${offer.length - 1}`);
  }
  const entry = offer[tradeSlot];
  const take = quantity === undefined ? entry.quantity : quantity;
  if (!isValidQuantity(take)) return refuse('INVALID_QUANTITY', `quantity must be a whole number from 1 (got ${String(quantity)})`);
  if (take > entry.quantity) return refuse('NOT_ENOUGH_ITEMS', `only ${entry.quantity} ${entry.itemId} are offered in trade slot ${tradeSlot}`);
  const remaining = entry.quantity - take;
  const next = remaining === 0 ? offer.filter((_, i) => i !== tradeSlot) : offer.map((e, i) => (i === tradeSlot ? { ...e, quantity: remaining } : e));
  return ok({ offer: next, removal: { tradeSlot, inventorySlot: entry.inventorySlot, itemId: entry.itemId, quantity: take, remaining } });
}

/** Whether every entry is still backed by the inventory: same item and metadata, enough quantity, tradeable. */
export function checkOffer(offer: Offer, inventory: Inventory, items: ItemDefinitions): Result<true, OfferCode> {
  for (const entry of offer) {
    const held = inventory[entry.inventorySlot] ?? null;
    if (held === null || held.itemId !== entry.itemId || !sameMetadata(held.metadata, entry.metadata)) {
      return refuse('ITEM_CHANGED', `inventory slot ${entry.inventorySlot} no longer holds the offered ${entry.itemId}`);
    }
    if (held.quantity < entry.quantity) {
      return refuse('ITEM_CHANGED', `inventory slot ${entry.inventorySlot} holds ${held.quantity} ${entry.itemId}, ${entry.quantity} were offered`);
    }
    if (!items.get(entry.itemId)?.tradeable) return refuse('UNTRADEABLE', `${entry.itemId} cannot be traded`);
  }
  return ok(true);
}

/**
 * The offer trimmed to what the inventory still backs (after a failed swap found it changed): entries whose slot
 * changed or became untradeable are dropped, quantities above what the slot holds are reduced.
 */
export function reconcileOffer(offer: Offer, inventory: Inventory, items: ItemDefinitions): { offer: Offer; removals: OfferRemoval[] } {
  const kept: OfferEntry[] = [];
  const removals: OfferRemoval[] = [];
  offer.forEach((entry, tradeSlot) => {
    const held = inventory[entry.inventorySlot] ?? null;
    const valid = held !== null && held.itemId === entry.itemId && sameMetadata(held.metadata, entry.metadata) && items.get(entry.itemId)?.tradeable === true;
    const quantity = valid ? Math.min(entry.quantity, held.quantity) : 0;
    if (quantity < entry.quantity) {
      removals.push({ tradeSlot, inventorySlot: entry.inventorySlot, itemId: entry.itemId, quantity: entry.quantity - quantity, remaining: quantity });
    }
    if (quantity > 0) kept.push({ ...entry, quantity });
  });
  return { offer: kept, removals };
}

export interface SwapResult {
  readonly a: Inventory;
  readonly b: Inventory;
  /** What each side received, with metadata, as taken from the other side's slots. */
  readonly receivedByA: InventoryItem[];
  readonly receivedByB: InventoryItem[];
}

export type SwapRefusal = { readonly ok: false; readonly code: OfferCode; readonly message: string; readonly side: 'a' | 'b' };

/**
 * The swap over the inventories as they are in the database now. All or nothing: any stale entry, an
 * untradeable item, a receiver without space or a stack that would pass MAX_STACK refuses the whole swap.
 */
export function swapOffers(a: Inventory, offerA: Offer, b: Inventory, offerB: Offer, items: ItemDefinitions): Result<SwapResult, OfferCode> | SwapRefusal {
  for (const [side, inventory, offer] of [['a', a, offerA], ['b', b, offerB]] as const) {
    const checked = checkOffer(offer, inventory, items);
    if (!checked.ok) return { ...checked, side };
  }
  const takenA = takeItems(a, offerA.map((e) => ({ slot: e.inventorySlot, quantity: e.quantity, itemId: e.itemId })));
  if (!takenA.ok) return { ...takenA, side: 'a' };
  const takenB = takeItems(b, offerB.map((e) => ({ slot: e.inventorySlot, quantity: e.quantity, itemId: e.itemId })));
  if (!takenB.ok) return { ...takenB, side: 'b' };
  const nextA = addItems(takenA.value.inventory, items, takenB.value.removed);
  if (!nextA.ok) return { ...nextA, side: 'a' };
  const nextB = addItems(takenB.value.inventory, items, takenA.value.removed);
  if (!nextB.ok) return { ...nextB, side: 'b' };
  return ok({ a: nextA.value, b: nextB.value, receivedByA: takenB.value.removed, receivedByB: takenA.value.removed });
}

/** Item totals of received stacks, merged by item id (the `receivedItems` of tradeCompleted). */
export function mergeReceived(received: readonly InventoryItem[]): ItemAmount[] {
  const totals = new Map<string, number>();
  for (const item of received) totals.set(item.itemId, (totals.get(item.itemId) ?? 0) + item.quantity);
  return [...totals].map(([itemId, quantity]) => ({ itemId, quantity }));
}

/** The offer's worth by the manifests' item values. */
export function offerValue(offer: Offer, items: ItemDefinitions): number {
  return offer.reduce((sum, entry) => sum + (items.get(entry.itemId)?.value ?? 0) * entry.quantity, 0);
}

/**
 * Player-to-player trade rules: building an offer on the offer screen, the wealth indicator, and the final swap.
 * An offer lists item ids and quantities (taken from the lowest inventory slots at the swap, so metadata travels
 * with the items). The swap is all-or-nothing for both players: each gives its offer and receives the other's,
 * and the slots freed by what a player gives can hold what they receive.
 */
import { addItems, countItem, isValidSlot, takeItems, type Inventory, type InventoryCode, type InventoryItem } from './inventory.ts';
import type { ItemAmount, ItemDefinitions } from './items.ts';
import { isValidQuantity } from './quantity.ts';
import { ok, refuse, type Refusal, type Result } from './result.ts';

export type TradeOffer = readonly ItemAmount[];

export type TradeCode = InventoryCode | 'UNTRADEABLE' | 'NOT_OFFERED';

/** A refused swap names the side whose inventory or offer is at fault. */
export type TradeRefusal = Refusal<TradeCode> & { readonly side: 'a' | 'b' };

/**
 * Adds up to `quantity` of the item in an inventory slot to the offer (clamped to what is not offered yet).
 * Refused for untradeable items and when everything of that item is already offered.
 */
export function offerItem(
  offer: TradeOffer,
  inventory: Inventory,
  items: ItemDefinitions,
  slot: number,
  quantity: number,
): Result<TradeOffer, TradeCode> {
  if (!isValidSlot(inventory, slot)) return refuse('INVALID_SLOT', `slots must be whole numbers from 0 to ${inventory.length - 1}`);
  if (!isValidQuantity(quantity)) return refuse('INVALID_QUANTITY', 'quantity must be a whole number from 1');
  const held = inventory[slot];
  if (held === null) return refuse('EMPTY_SLOT', `slot ${slot} is empty`);
  if (!items.get(held.itemId)?.tradeable) return refuse('UNTRADEABLE', `${held.itemId} cannot be traded`);
  const offered = offeredQuantity(offer, held.itemId);
  const available = countItem(inventory, held.itemId) - offered;
  if (available <= 0) return refuse('NOT_ENOUGH_ITEMS', `all your ${held.itemId} are already offered`);
  const total = offered + Math.min(quantity, available);
  return ok(offered > 0 ? offer.map((o) => (o.itemId === held.itemId ? { ...o, quantity: total } : o)) : [...offer, { itemId: held.itemId, quantity: total }]);
}

/** Takes up to `quantity` of an item back out of the offer (tradeRemoveItem). */
export function withdrawOffer(offer: TradeOffer, itemId: string, quantity: number): Result<TradeOffer, TradeCode> {
  if (!isValidQuantity(quantity)) return refuse('INVALID_QUANTITY', 'quantity must be a whole number from 1');
  const offered = offeredQuantity(offer, itemId);
  if (offered === 0) return refuse('NOT_OFFERED', `${String(itemId)} is not in the offer`);
  const left = offered - Math.min(quantity, offered);
  return ok(left === 0 ? offer.filter((o) => o.itemId !== itemId) : offer.map((o) => (o.itemId === itemId ? { ...o, quantity: left } : o)));
}

/** The offer's worth in coins by item value (the wealth-transfer indicator). */
export function offerValue(offer: TradeOffer, items: ItemDefinitions): number {
  return offer.reduce((sum, o) => sum + (items.get(o.itemId)?.value ?? 0) * o.quantity, 0);
}

/**
 * The swap, re-validated against the inventories as they are now (the rows locked in the transaction):
 * every offered item must still be there and tradeable, and each side must be able to hold what it receives.
 */
export function swapOffers(
  a: Inventory,
  offerA: TradeOffer,
  b: Inventory,
  offerB: TradeOffer,
  items: ItemDefinitions,
): Result<{ a: Inventory; b: Inventory; receivedByA: InventoryItem[]; receivedByB: InventoryItem[] }, TradeCode> | TradeRefusal {
  const takenA = take(a, offerA, items, 'a');
  if (!takenA.ok) return takenA;
  const takenB = take(b, offerB, items, 'b');
  if (!takenB.ok) return takenB;
  const nextA = addItems(takenA.value.inventory, items, takenB.value.removed);
  if (!nextA.ok) return { ...nextA, side: 'a' };
  const nextB = addItems(takenB.value.inventory, items, takenA.value.removed);
  if (!nextB.ok) return { ...nextB, side: 'b' };
  return ok({ a: nextA.value, b: nextB.value, receivedByA: takenB.value.removed, receivedByB: takenA.value.removed });
}

function take(
  inventory: Inventory,
  offer: TradeOffer,
  items: ItemDefinitions,
  side: 'a' | 'b',
): Result<{ inventory: Inventory; removed: InventoryItem[] }, TradeCode> | TradeRefusal {
  const untradeable = offer.find((o) => !items.get(o.itemId)?.tradeable);
  if (untradeable) return { ...refuse('UNTRADEABLE', `${untradeable.itemId} cannot be traded`), side };
  const taken = takeItems(inventory, offer);
  return taken.ok ? taken : { ...taken, side };
}

function offeredQuantity(offer: TradeOffer, itemId: string): number {
  return offer.find((o) => o.itemId === itemId)?.quantity ?? 0;
}

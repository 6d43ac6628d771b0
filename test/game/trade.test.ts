import assert from 'node:assert/strict';
import { emptyInventory, type Inventory } from '../../src/game/inventory.ts';
import { MAX_STACK } from '../../src/game/quantity.ts';
import { MAX_TRADE_ENTRIES, addToOffer, reconcileOffer, removeFromOffer, swapOffers, type Offer } from '../../src/game/trade.ts';
import type { ItemDefinitions } from '../../src/game/items.ts';
import { bundledData } from './support/bundled-data.ts';

let items: ItemDefinitions;

function inventory(slots: Record<number, { itemId: string; quantity: number; metadata?: Record<string, string> }>, size = 28): Inventory {
  const inv = [...emptyInventory(size)];
  for (const [slot, item] of Object.entries(slots)) inv[Number(slot)] = item;
  return inv;
}

describe('trade offer rules (pure)', () => {
  before(async () => {
    items = (await bundledData()).itemsById;
  });

  it('refuses a 29th entry (an inventory larger than the window, to reach the guard)', () => {
    const big = inventory(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [i, { itemId: 'logs', quantity: 1 }])), 30);
    let offer: Offer = [];
    for (let slot = 0; slot < MAX_TRADE_ENTRIES; slot++) {
      const added = addToOffer(offer, big, items, slot, 1);
      assert.ok(added.ok);
      offer = added.value;
    }
    const refused = addToOffer(offer, big, items, 28, 1);
    assert.equal(refused.ok ? 'ok' : refused.code, 'TRADE_FULL');
  });

  it('never offers more than a slot holds, across repeated adds; rejects fractions and zero', () => {
    const inv = inventory({ 0: { itemId: 'coins', quantity: 10 } });
    const first = addToOffer([], inv, items, 0, 7);
    assert.ok(first.ok);
    const second = addToOffer(first.value, inv, items, 0, 4);
    assert.equal(second.ok ? 'ok' : second.code, 'NOT_ENOUGH_ITEMS');
    for (const quantity of [0, 0.5, -1, Number.NaN, Infinity]) {
      const r = addToOffer([], inv, items, 0, quantity);
      assert.equal(r.ok ? 'ok' : r.code, 'INVALID_QUANTITY');
    }
    const removed = removeFromOffer(first.value, 0, 2);
    assert.ok(removed.ok);
    assert.deepEqual(removed.value.removal, { tradeSlot: 0, inventorySlot: 0, itemId: 'coins', quantity: 2, remaining: 5 });
  });

  it('swap: freed slots count once, stackables merge, metadata travels, overflow is refused', () => {
    const a = inventory({ 0: { itemId: 'bronze_sword', quantity: 1, metadata: { crafter: 'x' } }, 1: { itemId: 'coins', quantity: 5 } });
    const bSlots = Object.fromEntries(Array.from({ length: 27 }, (_, i) => [i, { itemId: 'logs', quantity: 1 }]));
    const b = inventory({ ...bSlots, 27: { itemId: 'coins', quantity: 1 } });
    const swapped = swapOffers(a, [{ inventorySlot: 0, itemId: 'bronze_sword', quantity: 1, metadata: { crafter: 'x' } }, { inventorySlot: 1, itemId: 'coins', quantity: 5 }], b, [{ inventorySlot: 3, itemId: 'logs', quantity: 1 }], items);
    assert.ok(swapped.ok);
    assert.deepEqual(swapped.value.b[3], { itemId: 'bronze_sword', quantity: 1, metadata: { crafter: 'x' } });
    assert.deepEqual(swapped.value.b[27], { itemId: 'coins', quantity: 6 });
    const noRoom = swapOffers(a, [{ inventorySlot: 0, itemId: 'bronze_sword', quantity: 1, metadata: { crafter: 'x' } }], b, [], items);
    assert.equal(noRoom.ok ? 'ok' : noRoom.code, 'INVENTORY_FULL');
    const rich = inventory({ 0: { itemId: 'coins', quantity: MAX_STACK } });
    const overflow = swapOffers(a, [{ inventorySlot: 1, itemId: 'coins', quantity: 1 }], rich, [], items);
    assert.equal(overflow.ok ? 'ok' : overflow.code, 'STACK_LIMIT');
  });

  it('re-validation: a changed slot refuses the swap; reconcile trims the offer', () => {
    const a = inventory({ 0: { itemId: 'coins', quantity: 3 } });
    const offer: Offer = [{ inventorySlot: 0, itemId: 'coins', quantity: 5 }, { inventorySlot: 1, itemId: 'logs', quantity: 1 }];
    const refused = swapOffers(a, offer, emptyInventory(), [], items);
    assert.equal(refused.ok ? 'ok' : refused.code, 'ITEM_CHANGED');
    const trimmed = reconcileOffer(offer, a, items);
    assert.deepEqual(trimmed.offer, [{ inventorySlot: 0, itemId: 'coins', quantity: 3 }]);
    assert.deepEqual(trimmed.removals.map((r) => [r.itemId, r.quantity, r.remaining]), [['coins', 2, 3], ['logs', 1, 0]]);
  });
});

import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  INVENTORY_SIZE,
  addAsMuchAsFits,
  addItem,
  addItems,
  applyTransfer,
  canFit,
  countItem,
  emptyInventory,
  freeSlotCount,
  inventoryTotals,
  moveSlot,
  removeFromSlot,
  removeItem,
  type Inventory,
  type Removal,
} from '../../src/game/inventory.ts';
import { MAX_STACK } from '../../src/game/quantity.ts';
import { ITEMS, filledWithLogs, frozen, inventoryOf } from './support/fixtures.ts';

function value<T>(result: { ok: true; value: T } | { ok: false; code: string; message: string }): T {
  if (!result.ok) assert.fail(`expected ok, got ${result.code}: ${result.message}`);
  return result.value;
}

describe('inventory', () => {
  it('has 28 empty slots to begin with', () => {
    const inventory = emptyInventory();
    assert.equal(inventory.length, INVENTORY_SIZE);
    assert.equal(freeSlotCount(inventory), 28);
  });

  describe('adding', () => {
    it('puts a stackable into one slot and merges later additions into that stack', () => {
      let inventory = value(addItem(emptyInventory(), ITEMS, { itemId: 'coins', quantity: 100 }));
      inventory = value(addItem(inventory, ITEMS, { itemId: 'logs', quantity: 1 }));
      inventory = value(addItem(inventory, ITEMS, { itemId: 'coins', quantity: 50 }));
      assert.deepEqual(inventory[0], { itemId: 'coins', quantity: 150 });
      assert.deepEqual(inventory[1], { itemId: 'logs', quantity: 1 });
      assert.equal(freeSlotCount(inventory), 26);
    });

    it('merges into an existing stack even when it is not in the first slot', () => {
      const start = frozen(inventoryOf([5, 'coins', 10]));
      const inventory = value(addItem(start, ITEMS, { itemId: 'coins', quantity: 1 }));
      assert.deepEqual(inventory[5], { itemId: 'coins', quantity: 11 });
      assert.equal(inventory[0], null);
    });

    it('gives every unstackable its own slot, lowest free slots first', () => {
      const start = frozen(inventoryOf([0, 'logs', 1], [2, 'logs', 1]));
      const inventory = value(addItem(start, ITEMS, { itemId: 'shrimp', quantity: 3 }));
      assert.deepEqual(
        inventory.slice(0, 5).map((s) => s?.itemId ?? null),
        ['logs', 'shrimp', 'logs', 'shrimp', 'shrimp'],
      );
      assert.ok(inventory.every((s) => s === null || s.quantity === 1));
    });

    it('refuses unstackables that need more slots than are free, adding none of them', () => {
      const start = frozen(filledWithLogs(26));
      const result = addItem(start, ITEMS, { itemId: 'shrimp', quantity: 3 });
      assert.equal(result.ok, false);
      assert.equal(!result.ok && result.code, 'INVENTORY_FULL');
      assert.equal(freeSlotCount(start), 2);
    });

    it('lets a stackable merge into a full inventory but not start a new stack there', () => {
      const full = frozen(filledWithLogs(27, inventoryOf([3, 'coins', 5])));
      assert.equal(freeSlotCount(full), 0);
      assert.equal(value(addItem(full, ITEMS, { itemId: 'coins', quantity: 5 }))[3]?.quantity, 10);
      const refused = addItem(full, ITEMS, { itemId: 'feather', quantity: 1 });
      assert.equal(!refused.ok && refused.code, 'INVENTORY_FULL');
    });

    it('never lets a stack exceed 2,147,483,647', () => {
      const start = frozen(inventoryOf([0, 'coins', MAX_STACK - 10]));
      assert.equal(value(addItem(start, ITEMS, { itemId: 'coins', quantity: 10 }))[0]?.quantity, MAX_STACK);
      const over = addItem(start, ITEMS, { itemId: 'coins', quantity: 11 });
      assert.equal(!over.ok && over.code, 'STACK_LIMIT');
      const fresh = addItem(emptyInventory(), ITEMS, { itemId: 'coins', quantity: MAX_STACK + 1 });
      assert.equal(!fresh.ok && fresh.code, 'INVALID_QUANTITY');
    });

    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '3', null, undefined, 2 ** 53]) {
      it(`refuses the quantity ${String(bad)}`, () => {
        const result = addItem(emptyInventory(), ITEMS, { itemId: 'coins', quantity: bad as number });
        assert.equal(!result.ok && result.code, 'INVALID_QUANTITY');
      });
    }

    it('refuses unknown items and metadata on stackables', () => {
      const unknown = addItem(emptyInventory(), ITEMS, { itemId: 'dragon_hat', quantity: 1 });
      assert.equal(!unknown.ok && unknown.code, 'UNKNOWN_ITEM');
      const meta = addItem(emptyInventory(), ITEMS, { itemId: 'coins', quantity: 1, metadata: { a: 1 } });
      assert.equal(!meta.ok && meta.code, 'INVALID_METADATA');
    });

    it('keeps metadata on unstackables', () => {
      const inventory = value(addItem(emptyInventory(), ITEMS, { itemId: 'gem', quantity: 2, metadata: { cut: true } }));
      assert.deepEqual(inventory[1], { itemId: 'gem', quantity: 1, metadata: { cut: true } });
    });

    it('adds a batch all-or-nothing, merging stackables of the same batch', () => {
      const start = frozen(filledWithLogs(27));
      const merged = value(addItems(start, ITEMS, [{ itemId: 'coins', quantity: 1 }, { itemId: 'coins', quantity: 2 }]));
      assert.equal(countItem(merged, 'coins'), 3);
      const refused = addItems(start, ITEMS, [{ itemId: 'coins', quantity: 1 }, { itemId: 'shrimp', quantity: 1 }]);
      assert.equal(!refused.ok && refused.code, 'INVENTORY_FULL');
    });
  });

  describe('removing', () => {
    it('takes part of a stack or empties the slot', () => {
      const start = frozen(inventoryOf([4, 'coins', 100]));
      const part = value(removeFromSlot(start, 4, 40));
      assert.deepEqual(part.removed, { itemId: 'coins', quantity: 40 });
      assert.deepEqual(part.inventory[4], { itemId: 'coins', quantity: 60 });
      assert.equal(value(removeFromSlot(start, 4, 100)).inventory[4], null);
    });

    it('refuses bad slots, empty slots, the wrong item and more than the slot holds', () => {
      const start = frozen(inventoryOf([0, 'coins', 5]));
      const codes = [
        removeFromSlot(start, 28, 1),
        removeFromSlot(start, -1, 1),
        removeFromSlot(start, 0.5, 1),
        removeFromSlot(start, 1, 1),
        removeFromSlot(start, 0, 1, 'logs'),
        removeFromSlot(start, 0, 6),
        removeFromSlot(start, 0, 0),
      ].map((r) => !r.ok && r.code);
      assert.deepEqual(codes, ['INVALID_SLOT', 'INVALID_SLOT', 'INVALID_SLOT', 'EMPTY_SLOT', 'ITEM_MISMATCH', 'NOT_ENOUGH_ITEMS', 'INVALID_QUANTITY']);
    });

    it('removes unstackables by id across slots, lowest slot first', () => {
      const start = frozen(inventoryOf([1, 'logs', 1], [3, 'shrimp', 1], [7, 'logs', 1], [9, 'logs', 1]));
      const after = value(removeItem(start, 'logs', 2));
      assert.equal(after[1], null);
      assert.equal(after[7], null);
      assert.deepEqual(after[9], { itemId: 'logs', quantity: 1 });
      const refused = removeItem(start, 'logs', 4);
      assert.equal(!refused.ok && refused.code, 'NOT_ENOUGH_ITEMS');
    });
  });

  describe('moving', () => {
    it('swaps two slots or moves onto an empty one', () => {
      const start = frozen(inventoryOf([0, 'coins', 5], [1, 'logs', 1]));
      const swapped = value(moveSlot(start, 0, 1));
      assert.deepEqual([swapped[0]?.itemId, swapped[1]?.itemId], ['logs', 'coins']);
      const moved = value(moveSlot(start, 0, 27));
      assert.equal(moved[0], null);
      assert.equal(moved[27]?.itemId, 'coins');
      assert.equal(!moveSlot(start, 2, 3).ok && 'refused', 'refused');
      const bad = moveSlot(start, 0, 28);
      assert.equal(!bad.ok && bad.code, 'INVALID_SLOT');
    });
  });

  describe('canFit and applyTransfer (the trade case)', () => {
    it('counts the slots freed by removals once', () => {
      // Full: 26 logs, coins in slot 26, a shrimp in slot 27.
      const full = frozen(filledWithLogs(26, inventoryOf([26, 'coins', 10], [27, 'shrimp', 1])));
      assert.equal(freeSlotCount(full), 0);
      const giveTwoLogs: Removal[] = [{ slot: 0, quantity: 1 }, { slot: 1, quantity: 1 }];
      assert.ok(canFit(full, ITEMS, [{ itemId: 'gem', quantity: 2 }], giveTwoLogs));
      assert.ok(!canFit(full, ITEMS, [{ itemId: 'gem', quantity: 3 }], giveTwoLogs));
      // Giving away part of the coins frees nothing.
      assert.ok(!canFit(full, ITEMS, [{ itemId: 'gem', quantity: 1 }], [{ slot: 26, quantity: 9 }]));
      // Giving away all of them frees their slot.
      assert.ok(canFit(full, ITEMS, [{ itemId: 'gem', quantity: 1 }], [{ slot: 26, quantity: 10 }]));
      // Receiving coins merges into the existing stack.
      assert.ok(canFit(full, ITEMS, [{ itemId: 'coins', quantity: 1000 }]));
      // Receiving a new stackable needs one slot however many arrive.
      assert.ok(canFit(full, ITEMS, [{ itemId: 'feather', quantity: 500 }, { itemId: 'feather', quantity: 5 }], [{ itemId: 'shrimp', quantity: 1 }]));
    });

    it('is all-or-nothing and never changes its input', () => {
      const start = frozen(inventoryOf([0, 'coins', 100], [1, 'logs', 1]));
      const refused = applyTransfer(start, ITEMS, [{ slot: 0, quantity: 100 }], [{ itemId: 'coins', quantity: MAX_STACK }, { itemId: 'x', quantity: 1 }]);
      assert.equal(!refused.ok && refused.code, 'UNKNOWN_ITEM');
      const done = value(applyTransfer(start, ITEMS, [{ slot: 0, quantity: 100 }, { itemId: 'logs', quantity: 1 }], [{ itemId: 'gem', quantity: 2 }]));
      assert.deepEqual(inventoryTotals(done), new Map([['gem', 2]]));
      assert.deepEqual(inventoryTotals(start), new Map([['coins', 100], ['logs', 1]]));
    });

    it('refuses a slot listed twice for more than it holds', () => {
      const start = frozen(inventoryOf([0, 'coins', 10]));
      const result = applyTransfer(start, ITEMS, [{ slot: 0, quantity: 6 }, { slot: 0, quantity: 6 }], []);
      assert.equal(!result.ok && result.code, 'NOT_ENOUGH_ITEMS');
    });
  });

  describe('addAsMuchAsFits', () => {
    it('adds unstackables up to the free slots and reports the rest', () => {
      const start = frozen(filledWithLogs(25));
      const { inventory, added, leftover } = value(addAsMuchAsFits(start, ITEMS, [{ itemId: 'shrimp', quantity: 5 }]));
      assert.equal(countItem(inventory, 'shrimp'), 3);
      assert.deepEqual(added, [{ itemId: 'shrimp', quantity: 3 }]);
      assert.deepEqual(leftover, [{ itemId: 'shrimp', quantity: 2 }]);
    });

    it('fills a stack to the limit', () => {
      const start = frozen(inventoryOf([0, 'coins', MAX_STACK - 5]));
      const { inventory, leftover } = value(addAsMuchAsFits(start, ITEMS, [{ itemId: 'coins', quantity: 8 }]));
      assert.equal(inventory[0]?.quantity, MAX_STACK);
      assert.deepEqual(leftover, [{ itemId: 'coins', quantity: 3 }]);
    });
  });

  describe('properties', () => {
    const itemIds = ['coins', 'feather', 'logs', 'shrimp', 'gem'];
    const arbInventory = fc
      .array(fc.option(fc.record({ itemId: fc.constantFrom(...itemIds), quantity: fc.integer({ min: 1, max: 1000 }) }), { nil: null }), {
        minLength: 28,
        maxLength: 28,
      })
      .map((slots) => {
        // Keep the invariants: unstackables quantity 1, one stack per stackable.
        const seen = new Set<string>();
        return slots.map((slot) => {
          if (!slot) return null;
          if (!ITEMS.get(slot.itemId)!.stackable) return { itemId: slot.itemId, quantity: 1 };
          if (seen.has(slot.itemId)) return null;
          seen.add(slot.itemId);
          return slot;
        });
      });
    const arbAdd = fc.record({ itemId: fc.constantFrom(...itemIds), quantity: fc.integer({ min: 1, max: 30 }) });
    const arbRemoval: fc.Arbitrary<Removal> = fc.oneof(
      fc.record({ slot: fc.integer({ min: 0, max: 27 }), quantity: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ itemId: fc.constantFrom(...itemIds), quantity: fc.integer({ min: 1, max: 3 }) }),
    );

    it('applyTransfer changes totals by exactly removed and added, or refuses and changes nothing', () => {
      fc.assert(
        fc.property(arbInventory, fc.array(arbRemoval, { maxLength: 4 }), fc.array(arbAdd, { maxLength: 4 }), (start, remove, add) => {
          const before = inventoryTotals(frozen(start));
          const result = applyTransfer(start, ITEMS, remove, add);
          if (!result.ok) {
            assert.deepEqual(inventoryTotals(start), before);
            return;
          }
          const after = inventoryTotals(result.value);
          const expected = new Map(before);
          for (const r of remove) {
            const itemId = 'slot' in r ? start[r.slot]!.itemId : r.itemId;
            expected.set(itemId, (expected.get(itemId) ?? 0) - r.quantity);
          }
          for (const a of add) expected.set(a.itemId, (expected.get(a.itemId) ?? 0) + a.quantity);
          for (const [id, n] of expected) assert.equal(after.get(id) ?? 0, n, id);
          assert.equal(result.value.length, 28);
          assertWellFormed(result.value);
        }),
        { numRuns: 500 },
      );
    });

    it('canFit agrees with the free-slot arithmetic for unstackables', () => {
      fc.assert(
        fc.property(arbInventory, fc.integer({ min: 1, max: 30 }), (start, n) => {
          assert.equal(canFit(start, ITEMS, [{ itemId: 'gem', quantity: n }]), n <= freeSlotCount(start));
        }),
      );
    });
  });
});

function assertWellFormed(inventory: Inventory): void {
  const stacks = new Set<string>();
  for (const slot of inventory) {
    if (!slot) continue;
    assert.ok(Number.isInteger(slot.quantity) && slot.quantity >= 1 && slot.quantity <= MAX_STACK);
    if (ITEMS.get(slot.itemId)!.stackable) {
      assert.ok(!stacks.has(slot.itemId), `two stacks of ${slot.itemId}`);
      stacks.add(slot.itemId);
    } else assert.equal(slot.quantity, 1);
  }
}

/**
 * The economy rules that left the room handlers (issue #18): home teleport casts, the shop's view and stock
 * reservation, the bank's view and tab check, the stack in a slot, partial drops, eating at the world's health scale,
 * kept items.
 */
import assert from 'node:assert/strict';
import { addToBank, bankState, checkInTab, createTab, emptyBank, BANK_CAPACITY } from '../../src/game/bank.ts';
import { HEALTH_SCALE } from '../../src/game/constants.ts';
import { keptItems } from '../../src/game/death.ts';
import { emptyEquipment } from '../../src/game/equipment.ts';
import { healthAfterEating } from '../../src/game/food.ts';
import { dropFromInventory } from '../../src/game/ground-items.ts';
import { adjustStock, buyPrice, createStoreState, sellPrice, shopView } from '../../src/game/shop.ts';
import { stackIn } from '../../src/game/inventory.ts';
import { homeTeleportRefusal, startCast, stepCast } from '../../src/game/teleport.ts';
import { Store } from '../../src/manifests/schemas/stores.ts';
import { ITEMS, frozen, inventoryOf } from './support/fixtures.ts';
import { expectCode, expectOk } from './support/results.ts';

const STORE = frozen(createStoreState(Store.parse({
  id: 'general', name: 'General', npcId: 'shopkeeper', areaId: 'town', kind: 'general', sellMultiplier: 1, buyMultiplier: 0.4,
  stock: [{ itemId: 'shrimp', quantity: 5, restockTicks: 10 }, { itemId: 'feather', quantity: 100, restockTicks: 10 }],
})));

describe('economy rules', () => {
  describe('home teleport', () => {
    it('refuses a second cast, combat and the cooldown (in that order), with the time left', () => {
      assert.equal(homeTeleportRefusal(true, true, 2_000, 1_000)?.code, 'ALREADY_CASTING');
      assert.equal(homeTeleportRefusal(false, true, 2_000, 1_000)?.code, 'IN_COMBAT');
      assert.deepEqual(homeTeleportRefusal(false, false, 2_000, 1_500), { code: 'COOLDOWN', message: 'Home teleport is not ready yet', details: { readyInMs: 500 } });
      assert.equal(homeTeleportRefusal(false, false, 2_000, 2_000), null);
    });

    it('completes on its tick unless the caster moved, fights or has its interface held', () => {
      const cast = startCast(10, 20, 100, 5);
      assert.deepEqual(cast, { completesAtTick: 105, fromX: 10, fromZ: 20 });
      const still = { x: 10, z: 20, walking: false, inCombat: false, lock: undefined };
      assert.deepEqual(stepCast(cast, still, 104), { casting: true });
      assert.deepEqual(stepCast(cast, still, 105), { completed: true });
      assert.deepEqual(stepCast(cast, { ...still, walking: true }, 105), { interrupted: 'moved' });
      assert.deepEqual(stepCast(cast, { ...still, x: 11 }, 101), { interrupted: 'moved' });
      assert.deepEqual(stepCast(cast, { ...still, inCombat: true, lock: 'trade' }, 101), { interrupted: 'combat' });
      assert.deepEqual(stepCast(cast, { ...still, lock: 'trade' }, 105), { interrupted: 'trade' });
    });
  });

  describe('shops', () => {
    it('shows the stock with the prices paid and received', () => {
      const view = shopView(STORE, 'General', ITEMS);
      assert.deepEqual(view, {
        storeId: 'general', name: 'General', kind: 'general',
        items: [
          { itemId: 'shrimp', quantity: 5, buyPrice: buyPrice(STORE, 6), sellPrice: sellPrice(STORE, 6) },
          { itemId: 'feather', quantity: 100, buyPrice: buyPrice(STORE, 2), sellPrice: sellPrice(STORE, 2) },
        ],
      });
    });

    it('reserves and gives back stock, never below zero, bringing back an entry that left', () => {
      const reserved = adjustStock(STORE, STORE, 'shrimp', -5);
      assert.equal(reserved.stock.find((s) => s.itemId === 'shrimp')?.quantity, 0);
      assert.equal(adjustStock(reserved, STORE, 'shrimp', -1).stock.find((s) => s.itemId === 'shrimp')?.quantity, 0);
      const gone = { ...STORE, stock: STORE.stock.filter((s) => s.itemId !== 'feather') };
      const back = adjustStock(gone, STORE, 'feather', 3);
      assert.equal(back.stock.find((s) => s.itemId === 'feather')?.quantity, 3);
      assert.deepEqual(adjustStock(gone, STORE, 'feather', -3).stock, gone.stock);
    });
  });

  describe('bank', () => {
    it('shows tabs with their items, the distinct item count and the capacity', () => {
      const bank = expectOk(addToBank(emptyBank(), [{ itemId: 'logs', quantity: 3 }, { itemId: 'coins', quantity: 10 }]));
      assert.deepEqual(bankState(bank), {
        tabs: [{ index: 0, name: 'main', items: [{ itemId: 'logs', quantity: 3 }, { itemId: 'coins', quantity: 10 }] }],
        distinctItems: 2,
        capacity: BANK_CAPACITY,
      });
    });

    it('refuses a withdrawal naming a tab the item is not banked in', () => {
      const bank = expectOk(addToBank(expectOk(createTab(emptyBank(), 'ores')), [{ itemId: 'logs', quantity: 1 }], 1));
      expectOk(checkInTab(bank, 'logs', 1));
      expectCode(checkInTab(bank, 'logs', 0), 'NOT_IN_BANK');
      expectOk(checkInTab(bank, 'gem', 0));
    });
  });

  describe('drops, food and death', () => {
    it('reads the stack in a slot, checking the item when asked', () => {
      const inventory = inventoryOf([0, 'shrimp', 1]);
      assert.deepEqual(expectOk(stackIn(inventory, 0)), { itemId: 'shrimp', quantity: 1 });
      assert.deepEqual(expectOk(stackIn(inventory, 0, 'shrimp')), { itemId: 'shrimp', quantity: 1 });
      expectCode(stackIn(inventory, 0, 'logs'), 'ITEM_MISMATCH');
      expectCode(stackIn(inventory, 1), 'EMPTY_SLOT');
      expectCode(stackIn(inventory, 28), 'INVALID_SLOT');
      expectCode(stackIn(inventory, 0.5), 'INVALID_SLOT');
    });

    it('drops part of a stack, clamps to the stack and drops all of it by default', () => {
      const inventory = inventoryOf([0, 'feather', 10]);
      const where = { id: 'g', x: 1, z: 2, ownerId: 'me', now: 0 };
      const part = expectOk(dropFromInventory(inventory, ITEMS, 0, where, 4));
      assert.deepEqual(part.inventory[0], { itemId: 'feather', quantity: 6 });
      assert.equal(part.groundItem.quantity, 4);
      const clamped = expectOk(dropFromInventory(inventory, ITEMS, 0, where, 50));
      assert.equal(clamped.inventory[0], null);
      assert.equal(clamped.groundItem.quantity, 10);
      assert.equal(expectOk(dropFromInventory(inventory, ITEMS, 0, where)).groundItem.quantity, 10);
    });

    it('heals food × the health scale, up to the maximum', () => {
      assert.equal(healthAfterEating(50, 100, 3), 50 + 3 * HEALTH_SCALE);
      assert.equal(healthAfterEating(95, 100, 3), 100);
    });

    it('lists what a loadout kept: inventory stacks, then worn items', () => {
      const kept = keptItems({ inventory: inventoryOf([2, 'logs', 1]), equipment: { ...emptyEquipment(), weapon: { itemId: 'sword', quantity: 1 } } });
      assert.deepEqual(kept, [{ itemId: 'logs', quantity: 1 }, { itemId: 'sword', quantity: 1 }]);
    });
  });
});

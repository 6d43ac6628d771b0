import assert from 'node:assert/strict';
import fc from 'fast-check';
import { countItem, emptyInventory, freeSlotCount, inventoryTotals } from '../../src/game/inventory.ts';
import { MAX_STACK } from '../../src/game/quantity.ts';
import { MAX_STORE_ENTRIES, buy, buyPrice, createStoreState, restock, sell, sellPrice, stockOf, type StoreState } from '../../src/game/shop.ts';
import { TICK_MS } from '../../src/game/ticks.ts';
import { Store } from '../../src/manifests/schemas/stores.ts';
import { bundledData } from './support/bundled-data.ts';
import { ITEMS, defineItems, filledWithLogs, frozen, inventoryOf } from './support/fixtures.ts';
import { expectCode, expectOk } from './support/results.ts';

const GENERAL = frozen(
  createStoreState(
    Store.parse({
      id: 'general',
      name: 'General',
      npcId: 'shopkeeper',
      areaId: 'town',
      kind: 'general',
      sellMultiplier: 1,
      buyMultiplier: 0.4,
      stock: [
        { itemId: 'shrimp', quantity: 5, restockTicks: 10 },
        { itemId: 'feather', quantity: 100, restockTicks: 10 },
        { itemId: 'gem', quantity: 2, restockTicks: 10 },
      ],
    }),
  ),
);
const SPECIALIST: StoreState = frozen({ ...GENERAL, storeId: 'smithy', kind: 'specialist' });

describe('shop', () => {
  describe('prices', () => {
    it('charges ceil(value × sellMultiplier), at least 1, and pays floor(value × buyMultiplier)', () => {
      assert.equal(buyPrice({ sellMultiplier: 1.1 }, 26), 29);
      assert.equal(buyPrice({ sellMultiplier: 1 }, 0), 1);
      assert.equal(buyPrice({ sellMultiplier: 1.1 }, 10), 11);
      assert.equal(sellPrice({ sellMultiplier: 1, buyMultiplier: 0.4 }, 100), 40);
      assert.equal(sellPrice({ sellMultiplier: 1, buyMultiplier: 0.4 }, 1), 0);
    });

    it('never pays as much as it charges, whatever the multipliers', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 1e6 }), fc.double({ min: 0.01, max: 5, noNaN: true }), fc.double({ min: 0, max: 5, noNaN: true }), (value, sellMultiplier, buyMultiplier) => {
          const store = { sellMultiplier, buyMultiplier };
          assert.ok(sellPrice(store, value) < buyPrice(store, value));
          assert.ok(sellPrice(store, value) >= 0);
        }),
      );
    });
  });

  describe('buy', () => {
    it('takes the coins, gives the item and depletes the stock', () => {
      const result = expectOk(buy(GENERAL, inventoryOf([0, 'coins', 100]), ITEMS, 'shrimp', 3));
      assert.equal(result.cost, 18);
      assert.equal(countItem(result.inventory, 'coins'), 82);
      assert.equal(countItem(result.inventory, 'shrimp'), 3);
      assert.equal(stockOf(result.store, 'shrimp'), 2);
      assert.equal(stockOf(GENERAL, 'shrimp'), 5);
    });

    it('lets the last coins pay for an item that takes their slot', () => {
      const inventory = filledWithLogs(27, inventoryOf([27, 'coins', 6]));
      const result = expectOk(buy(GENERAL, inventory, ITEMS, 'shrimp', 1));
      assert.equal(countItem(result.inventory, 'coins'), 0);
      assert.equal(result.inventory[27]?.itemId, 'shrimp');
    });

    it('refuses without taking coins: full inventory, too few coins, not enough stock, not sold, bad quantity', () => {
      const rich = inventoryOf([0, 'coins', 10_000]);
      expectCode(buy(GENERAL, filledWithLogs(27, rich), ITEMS, 'shrimp', 2), 'INVENTORY_FULL');
      expectCode(buy(GENERAL, inventoryOf([0, 'coins', 17]), ITEMS, 'shrimp', 3), 'NOT_ENOUGH_COINS');
      expectCode(buy(GENERAL, emptyInventory(), ITEMS, 'shrimp', 1), 'NOT_ENOUGH_COINS');
      expectCode(buy(GENERAL, rich, ITEMS, 'shrimp', 6), 'OUT_OF_STOCK');
      expectCode(buy(GENERAL, rich, ITEMS, 'logs', 1), 'NOT_SOLD_HERE');
      for (const q of [0, -1, 0.5, Number.NaN, Infinity, MAX_STACK + 1]) expectCode(buy(GENERAL, rich, ITEMS, 'shrimp', q), 'INVALID_QUANTITY');
    });

    it('merges bought stackables into the stack and refuses past the stack limit', () => {
      const inventory = inventoryOf([0, 'coins', 1000], [1, 'feather', MAX_STACK - 1]);
      assert.equal(countItem(expectOk(buy(GENERAL, inventory, ITEMS, 'feather', 1)).inventory, 'feather'), MAX_STACK);
      expectCode(buy(GENERAL, inventory, ITEMS, 'feather', 2), 'STACK_LIMIT');
    });
  });

  describe('sell', () => {
    it('pays a fraction of value and adds to the stock', () => {
      const result = expectOk(sell(GENERAL, inventoryOf([3, 'gem', 1], [4, 'gem', 1], [9, 'gem', 1]), ITEMS, 4, 2));
      assert.equal(result.payment, 400);
      assert.deepEqual(result.sold, { itemId: 'gem', quantity: 2 });
      assert.equal(result.inventory[4], null);
      assert.equal(result.inventory[3], null);
      assert.deepEqual(result.inventory[9], { itemId: 'gem', quantity: 1 });
      assert.equal(countItem(result.inventory, 'coins'), 400);
      assert.equal(stockOf(result.store, 'gem'), 4);
    });

    it('clamps to what the player holds', () => {
      const result = expectOk(sell(GENERAL, inventoryOf([0, 'feather', 7]), ITEMS, 0, 100));
      assert.equal(result.sold.quantity, 7);
      assert.equal(result.payment, 0);
      assert.equal(freeSlotCount(result.inventory), 28);
    });

    it('a general store buys anything tradeable; a specialist only what it stocks', () => {
      const general = expectOk(sell(GENERAL, inventoryOf([0, 'logs', 1]), ITEMS, 0, 1));
      assert.equal(stockOf(general.store, 'logs'), 1);
      assert.equal(general.store.stock.at(-1)?.baseQuantity, 0);
      expectCode(sell(SPECIALIST, inventoryOf([0, 'logs', 1]), ITEMS, 0, 1), 'STORE_WONT_BUY');
      assert.ok(sell(SPECIALIST, inventoryOf([0, 'gem', 1]), ITEMS, 0, 1).ok);
    });

    it('refuses untradeable items, coins, empty slots and a full store', () => {
      expectCode(sell(GENERAL, inventoryOf([0, 'locket', 1]), ITEMS, 0, 1), 'UNTRADEABLE');
      expectCode(sell(GENERAL, inventoryOf([0, 'coins', 5]), ITEMS, 0, 1), 'CANNOT_SELL_COINS');
      expectCode(sell(GENERAL, inventoryOf([0, 'coins', 5]), ITEMS, 1, 1), 'EMPTY_SLOT');
      expectCode(sell(GENERAL, inventoryOf([0, 'coins', 5]), ITEMS, 99, 1), 'INVALID_SLOT');
      const many = defineItems(...Array.from({ length: MAX_STORE_ENTRIES + 1 }, (_, i) => ({ id: `thing_${i}` })));
      const crowded: StoreState = { ...GENERAL, stock: Array.from({ length: MAX_STORE_ENTRIES }, (_, i) => ({ itemId: `thing_${i}`, quantity: 1, baseQuantity: 1, restockTicks: 10, restockProgressMs: 0 })) };
      expectCode(sell(crowded, inventoryOf([0, `thing_${MAX_STORE_ENTRIES}`, 1]), many, 0, 1), 'STORE_FULL');
    });

    it('refuses when the payment would overflow the coin stack', () => {
      expectCode(sell(GENERAL, inventoryOf([0, 'coins', MAX_STACK], [1, 'gem', 1]), ITEMS, 1, 1), 'STACK_LIMIT');
    });
  });

  describe('restock', () => {
    const step = 10 * TICK_MS;

    it('refills one item per restock period toward base, and drains surplus back down', () => {
      let store = expectOk(buy(GENERAL, inventoryOf([0, 'coins', 1000]), ITEMS, 'shrimp', 5)).store;
      store = expectOk(sell(store, inventoryOf([0, 'gem', 1], [1, 'gem', 1], [2, 'logs', 1]), ITEMS, 0, 2)).store;
      store = expectOk(sell(store, inventoryOf([0, 'logs', 1]), ITEMS, 0, 1)).store;
      assert.deepEqual([stockOf(store, 'shrimp'), stockOf(store, 'gem'), stockOf(store, 'logs')], [0, 4, 1]);
      store = restock(store, step * 2 + 1);
      assert.deepEqual([stockOf(store, 'shrimp'), stockOf(store, 'gem')], [2, 2]);
      // Sold-in items with no base stock drain away and leave the list (after DEFAULT_RESTOCK_TICKS).
      assert.equal(restock(store, 100 * TICK_MS).stock.some((s) => s.itemId === 'logs'), false);
      store = restock(store, step * 10);
      assert.equal(stockOf(store, 'shrimp'), 5);
      assert.equal(restock(store, -5), store);
    });

    it('gives the same stock however the elapsed time is split', () => {
      const depleted = expectOk(buy(GENERAL, inventoryOf([0, 'coins', 10_000]), ITEMS, 'feather', 100)).store;
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 1, max: 20_000 }), { minLength: 1, maxLength: 10 }), (parts) => {
          const stepwise = parts.reduce((s, ms) => restock(s, ms), depleted);
          const once = restock(depleted, parts.reduce((a, b) => a + b, 0));
          assert.deepEqual(stepwise, once);
        }),
      );
    });
  });

  it('trades with the bundled stores', async () => {
    const data = await bundledData();
    const smithy = createStoreState(data.storesById.get('dunstans_smithy')!);
    const bought = expectOk(buy(smithy, inventoryOf([0, 'coins', 100]), data.itemsById, 'bronze_sword', 1));
    assert.equal(bought.cost, 29);
    const resold = expectOk(sell(bought.store, bought.inventory, data.itemsById, 1, 1));
    assert.equal(resold.payment, 15);
    assert.deepEqual(inventoryTotals(resold.inventory), new Map([['coins', 86]]));
    expectCode(sell(smithy, inventoryOf([0, 'logs', 1]), data.itemsById, 0, 1), 'STORE_WONT_BUY');
    const general = createStoreState(data.storesById.get('brackenford_general_store')!);
    expectCode(sell(general, inventoryOf([0, 'tarnished_locket', 1]), data.itemsById, 0, 1), 'UNTRADEABLE');
  });
});

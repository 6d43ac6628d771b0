import assert from 'node:assert/strict';
import fc from 'fast-check';
import { inventoryTotals, type Inventory } from '../../src/game/inventory.ts';
import { MAX_STACK } from '../../src/game/quantity.ts';
import { totalsOf } from '../../src/game/totals.ts';
import { offerItem, offerValue, swapOffers, withdrawOffer, type TradeOffer } from '../../src/game/trade.ts';
import { ITEMS, filledWithLogs, frozen, inventoryOf } from './support/fixtures.ts';
import { expectCode, expectOk } from './support/results.ts';

describe('trade', () => {
  describe('offers', () => {
    const inventory = frozen(inventoryOf([0, 'coins', 100], [1, 'logs', 1], [2, 'logs', 1], [3, 'locket', 1]));

    it('adds from a slot, merges per item and clamps to what is held', () => {
      let offer: TradeOffer = [];
      offer = expectOk(offerItem(offer, inventory, ITEMS, 0, 40));
      offer = expectOk(offerItem(offer, inventory, ITEMS, 0, 100));
      offer = expectOk(offerItem(offer, inventory, ITEMS, 1, 5));
      assert.deepEqual(offer, [{ itemId: 'coins', quantity: 100 }, { itemId: 'logs', quantity: 2 }]);
      expectCode(offerItem(offer, inventory, ITEMS, 0, 1), 'NOT_ENOUGH_ITEMS');
      expectCode(offerItem(offer, inventory, ITEMS, 3, 1), 'UNTRADEABLE');
      expectCode(offerItem(offer, inventory, ITEMS, 4, 1), 'EMPTY_SLOT');
      expectCode(offerItem(offer, inventory, ITEMS, 0, 0), 'INVALID_QUANTITY');
      assert.equal(offerValue(offer, ITEMS), 108);
    });

    it('takes items back out of an offer', () => {
      const offer: TradeOffer = [{ itemId: 'coins', quantity: 100 }, { itemId: 'logs', quantity: 2 }];
      assert.deepEqual(expectOk(withdrawOffer(offer, 'coins', 30)), [{ itemId: 'coins', quantity: 70 }, { itemId: 'logs', quantity: 2 }]);
      assert.deepEqual(expectOk(withdrawOffer(offer, 'logs', 9)), [{ itemId: 'coins', quantity: 100 }]);
      expectCode(withdrawOffer(offer, 'gem', 1), 'NOT_OFFERED');
    });
  });

  describe('swap', () => {
    it('swaps both offers, using the slots freed by what each gives', () => {
      const a = frozen(filledWithLogs(27, inventoryOf([27, 'coins', 500])));
      const b = frozen(inventoryOf([0, 'gem', 1], [1, 'gem', 1], [2, 'coins', 10]));
      const done = expectOk(swapOffers(a, [{ itemId: 'coins', quantity: 500 }], b, [{ itemId: 'gem', quantity: 1 }], ITEMS));
      assert.equal(inventoryTotals(done.a).get('gem'), 1);
      assert.equal(inventoryTotals(done.a).get('coins'), undefined);
      assert.equal(inventoryTotals(done.b).get('coins'), 510);
      assert.deepEqual(done.receivedByA, [{ itemId: 'gem', quantity: 1 }]);
    });

    it('carries metadata across', () => {
      const a = frozen([{ itemId: 'gem', quantity: 1, metadata: { cut: true } }, ...inventoryOf().slice(1)]);
      const done = expectOk(swapOffers(a, [{ itemId: 'gem', quantity: 1 }], inventoryOf(), [], ITEMS));
      assert.deepEqual(done.b[0], { itemId: 'gem', quantity: 1, metadata: { cut: true } });
    });

    it('refuses all of it when either side cannot hold what it receives, naming the side', () => {
      const a = frozen(filledWithLogs(28));
      const b = frozen(inventoryOf([0, 'gem', 1], [1, 'gem', 1]));
      const refused = swapOffers(a, [{ itemId: 'logs', quantity: 1 }], b, [{ itemId: 'gem', quantity: 2 }], ITEMS);
      assert.ok(!refused.ok);
      assert.deepEqual([refused.code, 'side' in refused && refused.side], ['INVENTORY_FULL', 'a']);
      const rich = frozen(inventoryOf([0, 'coins', MAX_STACK]));
      const overflow = swapOffers(inventoryOf([0, 'coins', 1]), [{ itemId: 'coins', quantity: 1 }], rich, [], ITEMS);
      assert.ok(!overflow.ok && overflow.code === 'STACK_LIMIT' && 'side' in overflow && overflow.side === 'b');
    });

    it('re-validates offers: items gone or untradeable are refused', () => {
      const a = frozen(inventoryOf([0, 'coins', 10], [1, 'locket', 1]));
      expectCode(swapOffers(a, [{ itemId: 'coins', quantity: 11 }], inventoryOf(), [], ITEMS), 'NOT_ENOUGH_ITEMS');
      expectCode(swapOffers(a, [{ itemId: 'locket', quantity: 1 }], inventoryOf(), [], ITEMS), 'UNTRADEABLE');
    });

    it('conserves every item, whether it succeeds or not', () => {
      const ids = ['coins', 'feather', 'logs', 'shrimp', 'gem'];
      const inv = fc.array(fc.option(fc.constantFrom(...ids), { nil: null }), { minLength: 28, maxLength: 28 }).map((slots): Inventory => {
        const seen = new Set<string>();
        return slots.map((id) => {
          if (id === null) return null;
          if (ITEMS.get(id)!.stackable) {
            if (seen.has(id)) return null;
            seen.add(id);
            return { itemId: id, quantity: 50 };
          }
          return { itemId: id, quantity: 1 };
        });
      });
      const offer = fc.uniqueArray(fc.record({ itemId: fc.constantFrom(...ids), quantity: fc.integer({ min: 1, max: 30 }) }), { selector: (o) => o.itemId, maxLength: 4 });
      fc.assert(
        fc.property(inv, inv, offer, offer, (a, b, offerA, offerB) => {
          const before = totalsOf(a, b);
          const result = swapOffers(a, offerA, b, offerB, ITEMS);
          if (result.ok) assert.deepEqual(totalsOf(result.value.a, result.value.b), before);
          assert.deepEqual(totalsOf(a, b), before);
        }),
        { numRuns: 300 },
      );
    });
  });
});

import assert from 'node:assert/strict';
import fc from 'fast-check';
import { rollDrops } from '../../src/game/drops.ts';
import { checkConserved, totalsDifference, totalsOf } from '../../src/game/totals.ts';
import { bundledData } from './support/bundled-data.ts';
import { expectCode, expectOk } from './support/results.ts';

describe('drop tables', () => {
  it('rolls each entry by its chance, with a quantity from min to max', async () => {
    const goblin = (await bundledData()).npcsById.get('goblin')!;
    // Always-lucky rolls: every entry drops, at its minimum quantity.
    assert.deepEqual(rollDrops(goblin.drops, () => 0).map((d) => [d.itemId, d.quantity]), goblin.drops.map((d) => [d.itemId, d.min]));
    // Never-lucky rolls: only the certain drop (bones, chance 1) remains, then nothing at all.
    assert.deepEqual(rollDrops(goblin.drops, () => 0.999999).map((d) => d.itemId), ['bones']);
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 20, maxLength: 20 }), (draws) => {
        let i = 0;
        for (const drop of rollDrops(goblin.drops, () => draws[i++ % draws.length])) {
          const entry = goblin.drops.find((d) => d.itemId === drop.itemId)!;
          assert.ok(drop.quantity >= entry.min && drop.quantity <= entry.max);
        }
      }),
    );
  });
});

describe('totals', () => {
  it('adds up stacks across containers and reports differences', () => {
    const a = totalsOf([{ itemId: 'coins', quantity: 5 }, null], [{ itemId: 'coins', quantity: 2 }, { itemId: 'logs', quantity: 1 }]);
    assert.deepEqual(a, new Map([['coins', 7], ['logs', 1]]));
    assert.deepEqual(totalsDifference(a, new Map([['coins', 7]])), [{ itemId: 'logs', expected: 1, actual: 0 }]);
  });

  it('checks conservation with explicit sources and sinks', () => {
    const before = new Map([['coins', 100], ['shrimp', 1]]);
    expectOk(checkConserved(before, new Map([['coins', 94], ['shrimp', 2]]), new Map([['coins', -6], ['shrimp', 1]])));
    expectCode(checkConserved(before, new Map([['coins', 100], ['shrimp', 2]])), 'CONSERVATION_VIOLATED');
  });
});

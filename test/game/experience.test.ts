/**
 * Experience in tenths of a point (src/game/experience.ts, issue #38): sums of many small gains equal the exact
 * total, whatever their order, and combat's 4/3 per damage adds up with its remainder carried.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CONSTITUTION_XP_THIRDS_PER_DAMAGE } from '../../src/game/combat.ts';
import {
  MAX_XP_TENTHS, TENTHS_PER_POINT, addTenths, isWholeTenths, pointsOf, splitThirds, tenthsOf, wholePoints,
} from '../../src/game/experience.ts';
import { levelForXp } from '../../src/game/skills.ts';
import { bundledData } from './support/bundled-data.ts';

/** A one-decimal manifest rate, in tenths (0.1 … 500.0). */
const rate = fc.integer({ min: 1, max: 5_000 });

describe('experience in tenths of a point', () => {
  it('n gains of one one-decimal rate: the whole points are the floor of the exact total (0.6 × 240 = 144)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000 }), rate, fc.integer({ min: 1, max: 500 }), (start, tenths, n) => {
      let xp = start * TENTHS_PER_POINT;
      for (let i = 0; i < n; i++) xp = addTenths(xp, tenthsOf(tenths / 10));
      assert.equal(xp, start * 10 + n * tenths);
      assert.equal(wholePoints(xp), Math.floor((start * 10 + n * tenths) / 10));
    }), { seed: 38 });
  });

  it('any mix of gains sums to the exact total, in any order, capped at 200 million points', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_XP_TENTHS }), fc.array(rate, { minLength: 1, maxLength: 300 }), (start, gains) => {
      const forwards = gains.reduce(addTenths, start);
      const backwards = [...gains].reverse().reduce(addTenths, start);
      const exact = Math.min(MAX_XP_TENTHS, start + gains.reduce((a, b) => a + b, 0));
      assert.deepEqual([forwards, backwards], [exact, exact]);
    }), { seed: 38 });
  });

  it('combat: hits of 4/3 a point per damage add up exactly, the remainder under a tenth carried (three 1-damage hits = 4)', () => {
    let carried = 0;
    let tenths = 0;
    const amounts: number[] = [];
    for (let hit = 0; hit < 3; hit++) {
      const split = splitThirds(carried, CONSTITUTION_XP_THIRDS_PER_DAMAGE * 1);
      carried = split.carried;
      tenths += split.tenths;
      amounts.push(pointsOf(split.tenths));
    }
    assert.deepEqual(amounts, [1.3, 1.3, 1.4]);
    assert.deepEqual([tenths, carried, wholePoints(11_540 + tenths)], [40, 0, 1158]);

    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 300 }), (damages) => {
      let c = 0;
      let total = 0;
      for (const damage of damages) {
        const split = splitThirds(c, CONSTITUTION_XP_THIRDS_PER_DAMAGE * damage);
        assert.ok(split.carried >= 0 && split.carried < 3 && Number.isInteger(split.tenths));
        c = split.carried;
        total += split.tenths;
      }
      const dealt = damages.reduce((a, b) => a + b, 0);
      // Exactly 4/3 per damage: 40 thirds of a tenth each, nothing lost but the remainder still carried.
      assert.equal(total * 3 + c, 40 * dealt);
      assert.equal(wholePoints(total), Math.floor((4 * dealt) / 3));
    }), { seed: 38 });
  });

  it('whole points and levels follow the tenths; nonsense gains add nothing', () => {
    assert.equal(wholePoints(11_539), 1153);
    assert.equal(levelForXp(wholePoints(11_539)), 9);
    assert.equal(levelForXp(wholePoints(11_540)), 10);
    for (const bad of [0, -10, 0.5, Number.NaN, Infinity]) assert.equal(addTenths(100, bad), 100);
    assert.deepEqual(splitThirds(2, -5), { tenths: 0, carried: 2 });
  });

  it('reads one-decimal manifest values exactly and refuses finer ones', () => {
    assert.deepEqual([4.5, 37.5, 6.2, 33.3, 0.1, 0.7, 100].map(tenthsOf), [45, 375, 62, 333, 1, 7, 1000]);
    assert.throws(() => tenthsOf(6.25), RangeError);
    assert.equal(isWholeTenths(33.25), false);
  });

  it('every experience value of the bundled world is a whole number of tenths', async () => {
    const data = await bundledData();
    const values = [
      ...Object.values(data.gathering).flat().map((a) => a.xp),
      ...Object.values(data.recipes).flat().map((r) => r.xp),
      ...[...data.itemsById.values()].flatMap((i) => (i.prayerXp === undefined ? [] : [i.prayerXp])),
      ...[...data.questsById.values()].flatMap((q) => q.rewards.xp.map((x) => x.amount)),
    ];
    assert.ok(values.length > 30);
    for (const value of values) assert.ok(isWholeTenths(value), `${value}`);
  });
});

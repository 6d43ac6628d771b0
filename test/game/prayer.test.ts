import assert from 'node:assert/strict';
import fc from 'fast-check';
import { eat } from '../../src/game/food.ts';
import { countItem } from '../../src/game/inventory.ts';
import {
  TICKS_PER_MINUTE,
  activatePrayer,
  buryBones,
  deactivatePrayer,
  drainPrayer,
  initialPrayerState,
  prayerBoosts,
  prayerLevelChanged,
  restorePrayer,
  type PrayerDefinitions,
  type PrayerState,
} from '../../src/game/prayer.ts';
import { bundledData } from './support/bundled-data.ts';
import { ITEMS, frozen, inventoryOf } from './support/fixtures.ts';
import { expectCode, expectOk } from './support/results.ts';

describe('prayer', () => {
  let prayers: PrayerDefinitions;
  before(async () => {
    prayers = (await bundledData()).prayersById;
  });

  it('starts with points equal to the prayer level and nothing active', () => {
    assert.deepEqual(initialPrayerState(12), { points: 12, active: [], drainProgress: 0 });
  });

  it('activates prayers at or above their level', () => {
    const state = frozen(initialPrayerState(5));
    const on = expectOk(activatePrayer(state, prayers, 'ember_vigour', 5));
    assert.deepEqual(on.state.active, ['ember_vigour']);
    const refused = activatePrayer(state, prayers, 'keen_mind', 5);
    expectCode(refused, 'LEVEL_TOO_LOW');
    assert.match(!refused.ok ? refused.message : '', /prayer 7/);
    expectCode(activatePrayer(state, prayers, 'smite', 99), 'UNKNOWN_PRAYER');
    expectCode(activatePrayer({ ...state, points: 0 }, prayers, 'bark_hide', 5), 'NO_PRAYER_POINTS');
    assert.equal(expectOk(activatePrayer(on.state, prayers, 'ember_vigour', 5)).state, on.state);
  });

  it('allows one prayer per group: a new one switches the old one off', () => {
    let state: PrayerState = initialPrayerState(50);
    state = expectOk(activatePrayer(state, prayers, 'bark_hide', 50)).state;
    state = expectOk(activatePrayer(state, prayers, 'keen_mind', 50)).state;
    const swap = expectOk(activatePrayer(state, prayers, 'stone_hide', 50));
    assert.deepEqual(swap.deactivated, ['bark_hide']);
    assert.deepEqual([...swap.state.active].sort(), ['keen_mind', 'stone_hide']);
    const wards = expectOk(activatePrayer(expectOk(activatePrayer(swap.state, prayers, 'ward_of_blades', 50)).state, prayers, 'ward_of_arrows', 50));
    assert.deepEqual(wards.deactivated, ['ward_of_blades']);
  });

  it('deactivates', () => {
    const state = expectOk(activatePrayer(initialPrayerState(5), prayers, 'bark_hide', 5)).state;
    assert.deepEqual(expectOk(deactivatePrayer(state, 'bark_hide')).active, []);
    expectCode(deactivatePrayer(state, 'keen_mind'), 'NOT_ACTIVE');
  });

  it('drains drainPerMinute points per 100 ticks, summed over active prayers', () => {
    // bark_hide 5/min + ember_vigour 5/min = 10 points a minute = one point per 10 ticks.
    let state: PrayerState = initialPrayerState(10);
    state = expectOk(activatePrayer(state, prayers, 'bark_hide', 10)).state;
    state = expectOk(activatePrayer(state, prayers, 'ember_vigour', 10)).state;
    const nine = drainPrayer(state, prayers, 9);
    assert.equal(nine.state.points, 10);
    assert.equal(drainPrayer(nine.state, prayers, 1).state.points, 9);
    assert.equal(drainPrayer(state, prayers, TICKS_PER_MINUTE).state.points, 0);
    assert.equal(drainPrayer(initialPrayerState(10), prayers, 1000).state.points, 10);
  });

  it('switches every prayer off at 0 points', () => {
    let state: PrayerState = initialPrayerState(1);
    state = expectOk(activatePrayer(state, prayers, 'bark_hide', 1)).state;
    const out = drainPrayer(state, prayers, 20);
    assert.deepEqual(out, { state: { points: 0, active: [], drainProgress: 0 }, ranOut: true });
    assert.deepEqual(restorePrayer(out.state, 1), { points: 1, active: [], drainProgress: 0 });
  });

  it('moves the points with a changed prayer level, within 0 and the new level', () => {
    const state = frozen({ points: 7, active: ['bark_hide'], drainProgress: 40 });
    assert.deepEqual(prayerLevelChanged(state, 2, 12), { points: 9, active: ['bark_hide'], drainProgress: 40 });
    assert.deepEqual(prayerLevelChanged(state, 5, 8).points, 8);
    assert.equal(prayerLevelChanged(state, 0, 12), state);
    assert.deepEqual(prayerLevelChanged(state, -9, 1), { points: 0, active: [], drainProgress: 0 });
  });

  it('drains the same however the ticks are split, and slower with a prayer bonus', () => {
    const state = expectOk(activatePrayer(initialPrayerState(99), prayers, 'ward_of_blades', 99)).state;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 30 }), (parts) => {
        const stepwise = parts.reduce((s, t) => drainPrayer(s, prayers, t).state, state);
        const once = drainPrayer(state, prayers, parts.reduce((a, b) => a + b, 0)).state;
        assert.equal(stepwise.points, once.points);
      }),
    );
    assert.ok(drainPrayer(state, prayers, 500, 15).state.points > drainPrayer(state, prayers, 500, 0).state.points);
  });

  it('turns active prayers into combat multipliers and protections', () => {
    const boosts = prayerBoosts(['hawk_focus', 'iron_will', 'stone_hide', 'ward_of_blades'], prayers);
    assert.deepEqual(boosts, { attack: 1.1, strength: 1.1, defense: 1.1, ranged: 1, magic: 1, protectFrom: ['melee'] });
  });

  it('buries bones for their prayer XP, one at a time', () => {
    const inventory = frozen(inventoryOf([0, 'bones', 1], [1, 'bones', 1], [2, 'logs', 1]));
    const buried = expectOk(buryBones(inventory, ITEMS, 1));
    assert.equal(buried.xpTenths, 45, '4.5 XP, in tenths');
    assert.equal(countItem(buried.inventory, 'bones'), 1);
    assert.equal(buried.inventory[1], null);
    expectCode(buryBones(inventory, ITEMS, 2), 'NOT_BONES');
    expectCode(buryBones(inventory, ITEMS, 3), 'EMPTY_SLOT');
  });
});

describe('food', () => {
  it('eating removes one food and heals up to the maximum', () => {
    const inventory = frozen(inventoryOf([4, 'shrimp', 1], [5, 'logs', 1]));
    const ate = expectOk(eat(inventory, ITEMS, 4, 5, 10));
    assert.equal(ate.hitpoints, 8);
    assert.equal(ate.inventory[4], null);
    assert.equal(expectOk(eat(inventory, ITEMS, 4, 9, 10)).hitpoints, 10);
    expectCode(eat(inventory, ITEMS, 5, 5, 10), 'NOT_FOOD');
    expectCode(eat(inventory, ITEMS, 6, 5, 10), 'EMPTY_SLOT');
  });
});

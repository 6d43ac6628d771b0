/** Run energy's rules (src/game/run-energy.ts): drain and restore over ticks, weight, agility, running off at 0. */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { emptyEquipment } from '../../src/game/equipment.ts';
import { emptyInventory } from '../../src/game/inventory.ts';
import {
  MAX_RUN_ENERGY, canRun, carriedWeight, energyPercent, runDrain, runRestore, storedEnergy, tickRunEnergy, type RunState,
} from '../../src/game/run-energy.ts';
import { ITEMS } from './support/fixtures.ts';

function ticks(state: RunState, n: number, tick: { ran: boolean; weightKg?: number; agilityLevel?: number }): RunState {
  let s = state;
  for (let i = 0; i < n; i++) s = tickRunEnergy(s, { ran: tick.ran, weightKg: tick.weightKg ?? 0, agilityLevel: tick.agilityLevel ?? 1 });
  return s;
}

describe('run energy', () => {
  it('drains 0.67 % a tick of running carrying nothing: 100 % lasts 150 ticks (90 s, as in RuneScape)', () => {
    const full: RunState = { energy: MAX_RUN_ENERGY, running: true };
    assert.deepEqual(ticks(full, 10, { ran: true }), { energy: 10_000 - 670, running: true });
    assert.deepEqual(ticks(full, 149, { ran: true }), { energy: 17, running: true });
    assert.deepEqual(ticks(full, 150, { ran: true }), { energy: 0, running: false }, 'at 0 running switches off');
  });

  it('drains faster with weight: twice as fast at 64 kg, no faster beyond', () => {
    assert.deepEqual([runDrain(0), runDrain(16), runDrain(32), runDrain(64), runDrain(200), runDrain(-5)], [67, 83, 100, 134, 134, 67]);
    const loaded = ticks({ energy: MAX_RUN_ENERGY, running: true }, 10, { ran: true, weightKg: 64 });
    assert.equal(loaded.energy, 10_000 - 1340);
  });

  it('restores while walking or standing, faster with agility: 0.08 % a tick at 1, 0.24 % at 99', () => {
    assert.deepEqual([runRestore(1), runRestore(6), runRestore(50), runRestore(99)], [8, 9, 16, 24]);
    const empty: RunState = { energy: 0, running: false };
    assert.deepEqual(ticks(empty, 100, { ran: false }), { energy: 800, running: false });
    assert.deepEqual(ticks(empty, 100, { ran: false, agilityLevel: 99 }), { energy: 2400, running: false });
    assert.equal(ticks(empty, 1250, { ran: false }).energy, MAX_RUN_ENERGY, 'empty to full in 1,250 ticks (12.5 min) at agility 1');
    assert.equal(ticks({ energy: 9_995, running: false }, 3, { ran: false }).energy, MAX_RUN_ENERGY, 'never above 100 %');
  });

  it('keeps the energy within 0–100 % and never leaves running on at 0, whatever the ticks', () => {
    const tick = fc.record({ ran: fc.boolean(), weightKg: fc.double({ min: -10, max: 200, noNaN: true }), agilityLevel: fc.integer({ min: 1, max: 99 }) });
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_RUN_ENERGY }), fc.boolean(), fc.array(tick, { maxLength: 400 }), (energy, running, list) => {
      let state: RunState = { energy, running };
      for (const t of list) {
        const next = tickRunEnergy(state, t);
        assert.ok(Number.isInteger(next.energy) && next.energy >= 0 && next.energy <= MAX_RUN_ENERGY);
        assert.ok(!(next.running && next.energy === 0));
        assert.ok(!next.running || state.running, 'a tick never switches running on');
        state = next;
      }
    }), { seed: 38 });
  });

  it('shows whole percents, runs from 1 %, and reads a stored value safely', () => {
    assert.deepEqual([energyPercent(0), energyPercent(99), energyPercent(9_999), energyPercent(10_000)], [0, 0, 99, 100]);
    assert.deepEqual([canRun(99), canRun(100)], [false, true]);
    assert.deepEqual([storedEnergy(4_200), storedEnergy('4200'), storedEnergy(null), storedEnergy(-1), storedEnergy(10_001), storedEnergy(1.5)],
      [4_200, 4_200, MAX_RUN_ENERGY, MAX_RUN_ENERGY, MAX_RUN_ENERGY, MAX_RUN_ENERGY]);
  });

  it("weighs what is carried and worn: an item's weight, else 0 for a stackable and 1 kg for anything else", () => {
    const inventory = [...emptyInventory()];
    inventory[0] = { itemId: 'coins', quantity: 5_000 };
    inventory[1] = { itemId: 'logs', quantity: 1 };
    inventory[2] = { itemId: 'logs', quantity: 1 };
    const equipment = { ...emptyEquipment(), weapon: { itemId: 'sword', quantity: 1 } };
    assert.equal(carriedWeight({ inventory, equipment }, ITEMS), 3);
    const weighed = new Map(ITEMS).set('logs', { ...ITEMS.get('logs')!, weight: 2 }).set('coins', { ...ITEMS.get('coins')!, weight: 0.001 });
    assert.equal(carriedWeight({ inventory, equipment }, weighed), 2 + 2 + 1 + 5);
  });
});

import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  DEFAULT_GRAVESTONE_MS,
  checkDeathConservation,
  claimGravestone,
  die,
  expireGravestone,
  splitOnDeath,
  type Gravestone,
} from '../../src/game/death.ts';
import { EQUIPMENT_SLOTS, emptyEquipment, wornItems, type Loadout } from '../../src/game/equipment.ts';
import { groundPhase } from '../../src/game/ground-items.ts';
import { emptyInventory, inventoryTotals, type InventorySlot } from '../../src/game/inventory.ts';
import { totalsOf } from '../../src/game/totals.ts';
import { ITEMS, filledWithLogs, frozen, inventoryOf } from './support/fixtures.ts';
import { expectCode, expectOk } from './support/results.ts';

const T0 = 5_000_000;
const at = (id: string, now = T0) => ({ gravestoneId: id, ownerId: 'alice', x: 3, z: 4, now });

function loadoutOf(inventory: readonly InventorySlot[], equipment: Partial<Loadout['equipment']> = {}): Loadout {
  return frozen({ inventory, equipment: { ...emptyEquipment(), ...equipment } });
}

describe('death', () => {
  it('keeps the three most valuable items in place and loses the rest', () => {
    const before = loadoutOf(
      inventoryOf([0, 'coins', 1000], [1, 'gem', 1], [2, 'logs', 1], [5, 'gem', 1], [6, 'shrimp', 1]),
      { weapon: { itemId: 'sword', quantity: 1 }, head: { itemId: 'helm', quantity: 1 } },
    );
    const { kept, lost } = splitOnDeath(before, ITEMS);
    // The two gems (500 each) and the helm (44) are worth most; the sword (26) is lost.
    assert.deepEqual(inventoryTotals(kept.inventory), new Map([['gem', 2]]));
    assert.equal(kept.inventory[1]?.itemId, 'gem');
    assert.equal(kept.inventory[5]?.itemId, 'gem');
    assert.equal(kept.equipment.head?.itemId, 'helm');
    assert.equal(kept.equipment.weapon, null);
    assert.deepEqual(totalsOf(lost), new Map([['coins', 1000], ['logs', 1], ['shrimp', 1], ['sword', 1]]));
  });

  it('counts stackables per unit and can keep part of a stack', () => {
    const before = loadoutOf(inventoryOf([0, 'feather', 10], [1, 'bones', 1]));
    const { kept, lost } = splitOnDeath(before, ITEMS, 3);
    assert.deepEqual(kept.inventory[0], { itemId: 'feather', quantity: 3 });
    assert.deepEqual(totalsOf(lost), new Map([['feather', 7], ['bones', 1]]));
  });

  it('always keeps untradeable items, beyond K, and keeps nothing else with K = 0', () => {
    const before = loadoutOf(inventoryOf([0, 'locket', 1], [1, 'gem', 1]));
    const { kept, lost } = splitOnDeath(before, ITEMS, 0);
    assert.deepEqual(inventoryTotals(kept.inventory), new Map([['locket', 1]]));
    assert.deepEqual(totalsOf(lost), new Map([['gem', 1]]));
  });

  it('creates a gravestone with the lost items, or none when nothing was lost', () => {
    const before = loadoutOf(inventoryOf([0, 'gem', 1], [1, 'logs', 1], [2, 'logs', 1], [3, 'logs', 1], [4, 'logs', 1]));
    const death = die(before, ITEMS, at('grave-1'));
    assert.equal(death.gravestone?.expiresAt, T0 + DEFAULT_GRAVESTONE_MS);
    assert.deepEqual(totalsOf(death.gravestone!.items), new Map([['logs', 2]]));
    assert.ok(checkDeathConservation(before, death).ok);
    assert.equal(die(loadoutOf(inventoryOf([0, 'gem', 1])), ITEMS, at('grave-2')).gravestone, null);
  });

  it('dying again with an unclaimed gravestone neither duplicates nor loses items', () => {
    const start = loadoutOf(
      inventoryOf([0, 'coins', 300], [1, 'gem', 1], [2, 'logs', 1], [3, 'shrimp', 1], [4, 'shrimp', 1]),
      { weapon: { itemId: 'sword', quantity: 1 }, shield: { itemId: 'shield', quantity: 1 } },
    );
    const first = die(start, ITEMS, at('grave-1'));
    // Respawned with the kept items, picked up more, died again before claiming the first gravestone.
    const carried: Loadout = { ...first.loadout, inventory: first.loadout.inventory.map((s, i) => (i === 10 ? { itemId: 'bones', quantity: 1 } : s)) };
    const second = die(carried, ITEMS, at('grave-2', T0 + 1000));
    assert.notEqual(second.gravestone?.id, first.gravestone?.id);
    assert.deepEqual(first.gravestone?.items, die(start, ITEMS, at('grave-1')).gravestone?.items, 'the first gravestone is untouched');
    const everything = totalsOf(
      second.loadout.inventory,
      wornItems(second.loadout.equipment),
      first.gravestone?.items ?? [],
      second.gravestone?.items ?? [],
    );
    assert.deepEqual(everything, totalsOf(start.inventory, wornItems(start.equipment), [{ itemId: 'bones', quantity: 1 }]));
  });

  it('detects a broken split', () => {
    const before = loadoutOf(inventoryOf([0, 'gem', 1], [1, 'logs', 1]));
    const death = die(before, ITEMS, { ...at('g'), keep: 0 });
    const tampered = { ...death, gravestone: { ...death.gravestone!, items: [...death.gravestone!.items, { itemId: 'gem', quantity: 1 }] } };
    const result = checkDeathConservation(before, tampered);
    expectCode(result, 'CONSERVATION_VIOLATED');
    assert.match(!result.ok ? result.message : '', /gem: expected 1, found 2/);
  });

  describe('gravestones', () => {
    const stone: Gravestone = frozen({
      id: 'grave-1',
      ownerId: 'alice',
      x: 3,
      z: 4,
      items: [{ itemId: 'coins', quantity: 100 }, { itemId: 'logs', quantity: 1 }, { itemId: 'logs', quantity: 1 }, { itemId: 'gem', quantity: 1, metadata: { cut: true } }],
      createdAt: T0,
      expiresAt: T0 + 1000,
    });

    it('the owner claims what fits; the rest stays', () => {
      const partial = expectOk(claimGravestone(filledWithLogs(26), ITEMS, stone, 'alice', T0));
      assert.deepEqual(partial.claimed, [{ itemId: 'coins', quantity: 100 }, { itemId: 'logs', quantity: 1 }]);
      assert.deepEqual(partial.gravestone?.items, stone.items.slice(2));
      const all = expectOk(claimGravestone(emptyInventory(), ITEMS, stone, 'alice', T0));
      assert.equal(all.gravestone, null);
      assert.deepEqual(all.inventory[3], { itemId: 'gem', quantity: 1, metadata: { cut: true } });
    });

    it('refuses strangers, expired stones and a full inventory', () => {
      expectCode(claimGravestone(emptyInventory(), ITEMS, stone, 'bob', T0), 'NOT_YOUR_GRAVESTONE');
      expectCode(claimGravestone(emptyInventory(), ITEMS, stone, 'alice', T0 + 1000), 'EXPIRED');
      expectCode(claimGravestone(filledWithLogs(28), ITEMS, stone, 'alice', T0), 'INVENTORY_FULL');
    });

    it('turns into public ground items when it expires, one pile per unstackable', () => {
      let n = 0;
      expectCode(expireGravestone(stone, ITEMS, T0 + 999, () => `g${n++}`), 'NOT_EXPIRED');
      const piles = expectOk(expireGravestone(stone, ITEMS, T0 + 1000, () => `g${n++}`));
      assert.deepEqual(totalsOf(piles), totalsOf(stone.items));
      assert.equal(piles.length, 4);
      assert.ok(piles.every((p) => groundPhase(p, T0 + 1000) === 'public' && p.x === 3 && p.z === 4));
      assert.deepEqual(piles[3].metadata, { cut: true });
    });
  });

  it('conserves every item for any loadout and any K', () => {
    const ids = ['coins', 'feather', 'logs', 'shrimp', 'gem', 'locket', 'bones'];
    const slot = fc.option(fc.constantFrom(...ids).map((itemId) => ({ itemId, quantity: ITEMS.get(itemId)!.stackable ? 7 : 1 })), { nil: null });
    fc.assert(
      fc.property(fc.array(slot, { minLength: 28, maxLength: 28 }), fc.boolean(), fc.integer({ min: 0, max: 6 }), (inventory, armed, keep) => {
        const before = loadoutOf(inventory, armed ? { weapon: { itemId: 'sword', quantity: 1 }, ammunition: { itemId: 'arrows', quantity: 40 } } : {});
        const after = die(before, ITEMS, { ...at('g'), keep });
        assert.ok(checkDeathConservation(before, after).ok);
        const keptTradeableUnits = [...after.loadout.inventory, ...EQUIPMENT_SLOTS.map((s) => after.loadout.equipment[s])]
          .filter((s) => s && ITEMS.get(s.itemId)!.tradeable)
          .reduce((n, s) => n + s!.quantity, 0);
        assert.ok(keptTradeableUnits <= keep);
      }),
      { numRuns: 300 },
    );
  });
});

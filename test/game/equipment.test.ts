import assert from 'node:assert/strict';
import { emptyEquipment, equip, totalBonuses, unequip, type Equipment, type Loadout } from '../../src/game/equipment.ts';
import { countItem, freeSlotCount, inventoryTotals, type Inventory } from '../../src/game/inventory.ts';
import { MAX_STACK } from '../../src/game/quantity.ts';
import { startingLevels, type Levels } from '../../src/game/skills.ts';
import { bundledData } from './support/bundled-data.ts';
import { ITEMS, filledWithLogs, frozen, inventoryOf } from './support/fixtures.ts';
import { expectCode, expectOk } from './support/results.ts';

const NEWCOMER = startingLevels();
const RANGER: Levels = { ...NEWCOMER, ranged: 10 };

function loadout(inventory: Inventory, equipment: Partial<Equipment> = {}): Loadout {
  return frozen({ inventory, equipment: { ...emptyEquipment(), ...equipment } });
}

describe('equipment', () => {
  it('wears an item from an inventory slot', () => {
    const after = expectOk(equip(loadout(inventoryOf([3, 'sword', 1])), ITEMS, 3, NEWCOMER));
    assert.deepEqual(after.equipment.weapon, { itemId: 'sword', quantity: 1 });
    assert.equal(after.inventory[3], null);
  });

  it('swaps with the worn item, which takes the emptied slot', () => {
    const start = loadout(inventoryOf([0, 'logs', 1], [5, 'iron_sword', 1]), { weapon: { itemId: 'sword', quantity: 1 } });
    const after = expectOk(equip(start, ITEMS, 5, { ...NEWCOMER, attack: 10 }));
    assert.equal(after.equipment.weapon?.itemId, 'iron_sword');
    assert.deepEqual(after.inventory[5], { itemId: 'sword', quantity: 1 });
  });

  it('refuses items below the level requirement, naming it', () => {
    const result = equip(loadout(inventoryOf([0, 'iron_sword', 1])), ITEMS, 0, NEWCOMER);
    expectCode(result, 'LEVEL_TOO_LOW');
    assert.match(!result.ok ? result.message : '', /attack 10 \(you have 1\)/);
  });

  it('refuses items that cannot be worn and empty or invalid slots', () => {
    const start = loadout(inventoryOf([0, 'logs', 1]));
    expectCode(equip(start, ITEMS, 0, NEWCOMER), 'NOT_EQUIPABLE');
    expectCode(equip(start, ITEMS, 1, NEWCOMER), 'EMPTY_SLOT');
    expectCode(equip(start, ITEMS, 28, NEWCOMER), 'INVALID_SLOT');
  });

  describe('two-handed weapons and shields', () => {
    it('a two-handed weapon takes off the shield as well', () => {
      const start = loadout(inventoryOf([0, 'greatsword', 1]), {
        weapon: { itemId: 'sword', quantity: 1 },
        shield: { itemId: 'shield', quantity: 1 },
      });
      const after = expectOk(equip(start, ITEMS, 0, NEWCOMER));
      assert.equal(after.equipment.weapon?.itemId, 'greatsword');
      assert.equal(after.equipment.shield, null);
      assert.deepEqual(inventoryTotals(after.inventory), new Map([['sword', 1], ['shield', 1]]));
      assert.equal(after.inventory[0]?.itemId, 'sword');
    });

    it('is refused when the inventory cannot take the shield back', () => {
      const start = loadout(filledWithLogs(27, inventoryOf([0, 'greatsword', 1])), {
        weapon: { itemId: 'sword', quantity: 1 },
        shield: { itemId: 'shield', quantity: 1 },
      });
      expectCode(equip(start, ITEMS, 0, NEWCOMER), 'INVENTORY_FULL');
      // Without a weapon worn, the greatsword's slot takes the shield.
      const noWeapon = loadout(start.inventory, { shield: { itemId: 'shield', quantity: 1 } });
      const after = expectOk(equip(noWeapon, ITEMS, 0, NEWCOMER));
      assert.equal(after.inventory[0]?.itemId, 'shield');
      assert.equal(after.equipment.shield, null);
    });

    it('a shield takes off a two-handed weapon', () => {
      const start = loadout(inventoryOf([2, 'shield', 1]), { weapon: { itemId: 'greatsword', quantity: 1 } });
      const after = expectOk(equip(start, ITEMS, 2, NEWCOMER));
      assert.equal(after.equipment.weapon, null);
      assert.equal(after.equipment.shield?.itemId, 'shield');
      assert.equal(after.inventory[2]?.itemId, 'greatsword');
    });

    it('a shield keeps a one-handed weapon', () => {
      const start = loadout(inventoryOf([2, 'shield', 1]), { weapon: { itemId: 'sword', quantity: 1 } });
      const after = expectOk(equip(start, ITEMS, 2, NEWCOMER));
      assert.equal(after.equipment.weapon?.itemId, 'sword');
      assert.equal(freeSlotCount(after.inventory), 28);
    });
  });

  describe('ammunition', () => {
    it('stacks onto the same worn ammunition, up to the stack limit', () => {
      const start = loadout(inventoryOf([0, 'arrows', 50]), { ammunition: { itemId: 'arrows', quantity: 25 } });
      const after = expectOk(equip(start, ITEMS, 0, RANGER));
      assert.deepEqual(after.equipment.ammunition, { itemId: 'arrows', quantity: 75 });
      assert.equal(after.inventory[0], null);
      const overflowing = loadout(inventoryOf([0, 'arrows', 50]), { ammunition: { itemId: 'arrows', quantity: MAX_STACK - 10 } });
      expectCode(equip(overflowing, ITEMS, 0, RANGER), 'STACK_LIMIT');
    });

    it('swaps different ammunition back into the inventory, merging with a stack there', () => {
      const start = loadout(inventoryOf([0, 'iron_arrows', 10], [1, 'arrows', 5]), { ammunition: { itemId: 'arrows', quantity: 20 } });
      const after = expectOk(equip(start, ITEMS, 0, RANGER));
      assert.deepEqual(after.equipment.ammunition, { itemId: 'iron_arrows', quantity: 10 });
      assert.equal(countItem(after.inventory, 'arrows'), 25);
      assert.equal(after.inventory[0], null);
    });
  });

  describe('unequip', () => {
    it('puts the item into the inventory', () => {
      const after = expectOk(unequip(loadout(inventoryOf([0, 'logs', 1]), { head: { itemId: 'helm', quantity: 1 } }), ITEMS, 'head'));
      assert.equal(after.equipment.head, null);
      assert.equal(after.inventory[1]?.itemId, 'helm');
    });

    it('is refused when the inventory is full, an empty slot or an unknown slot', () => {
      const full = loadout(filledWithLogs(28), { head: { itemId: 'helm', quantity: 1 } });
      expectCode(unequip(full, ITEMS, 'head'), 'INVENTORY_FULL');
      expectCode(unequip(full, ITEMS, 'cape'), 'SLOT_EMPTY');
      expectCode(unequip(full, ITEMS, 'hat' as never), 'INVALID_EQUIPMENT_SLOT');
    });

    it('merges worn ammunition into the inventory stack even when full', () => {
      const full = loadout(filledWithLogs(27, inventoryOf([0, 'arrows', 3])), { ammunition: { itemId: 'arrows', quantity: 7 } });
      const after = expectOk(unequip(full, ITEMS, 'ammunition'));
      assert.equal(countItem(after.inventory, 'arrows'), 10);
    });
  });

  it('totals the bonuses of everything worn', () => {
    const equipment = { ...emptyEquipment(), weapon: { itemId: 'sword', quantity: 1 }, shield: { itemId: 'shield', quantity: 1 }, head: { itemId: 'helm', quantity: 1 } };
    const total = totalBonuses(equipment, ITEMS);
    assert.equal(total.attackSlash, 5);
    assert.equal(total.defenseSlash, 11);
    assert.equal(total.meleeStrength, 5);
    assert.equal(total.prayer, 0);
    assert.deepEqual(totalBonuses(emptyEquipment(), ITEMS).attackSlash, 0);
  });

  it('works with the bundled items: a ranger template can wear its kit', async () => {
    const data = await bundledData();
    const template = data.templatesById.get('ranger')!;
    let state: Loadout = { inventory: inventoryOf([0, 'oak_shortbow', 1], [1, 'bronze_arrows', 100], [2, 'bronze_kiteshield', 1]), equipment: emptyEquipment() };
    const levels = { ...NEWCOMER, ranged: template.skills.ranged ?? 1 };
    state = expectOk(equip(state, data.itemsById, 0, levels));
    state = expectOk(equip(state, data.itemsById, 1, levels));
    assert.equal(state.equipment.ammunition?.quantity, 100);
    // The shield displaces the two-handed bow.
    state = expectOk(equip(state, data.itemsById, 2, levels));
    assert.equal(state.equipment.weapon, null);
    assert.equal(totalBonuses(state.equipment, data.itemsById).rangedStrength, 7);
  });
});

import assert from 'node:assert/strict';
import {
  BANK_CAPACITY,
  MAX_BANK_TABS,
  addToBank,
  bankQuantity,
  bankTotals,
  createTab,
  deleteTab,
  deposit,
  depositEquipment,
  depositInventory,
  distinctItemCount,
  emptyBank,
  findEntry,
  moveToTab,
  renameTab,
  withdraw,
  type Bank,
} from '../../src/game/bank.ts';
import { emptyEquipment } from '../../src/game/equipment.ts';
import { countItem, emptyInventory, freeSlotCount, inventoryTotals } from '../../src/game/inventory.ts';
import { MAX_STACK } from '../../src/game/quantity.ts';
import { ITEMS, defineItems, filledWithLogs, frozen, inventoryOf } from './support/fixtures.ts';
import { expectCode, expectOk } from './support/results.ts';

function bankWith(...entries: [string, number][]): Bank {
  return frozen(expectOk(addToBank(emptyBank(), entries.map(([itemId, quantity]) => ({ itemId, quantity })))));
}

describe('bank', () => {
  describe('tabs', () => {
    it('starts with the main tab only and creates up to nine named tabs', () => {
      let bank = emptyBank();
      assert.deepEqual(bank.tabs.map((t) => t.name), ['main']);
      for (let i = 1; i < MAX_BANK_TABS; i++) bank = expectOk(createTab(bank, `Tab ${i}`));
      assert.equal(bank.tabs.length, 10);
      expectCode(createTab(bank, 'One more'), 'TAB_LIMIT');
    });

    it('validates tab names: trimmed, 1-20 characters, no control characters, unique ignoring case', () => {
      const bank = frozen(expectOk(createTab(emptyBank(), '  Ores  ')));
      assert.equal(bank.tabs[1].name, 'Ores');
      expectCode(createTab(bank, 'ores'), 'TAB_NAME_TAKEN');
      expectCode(createTab(bank, 'MAIN'), 'TAB_NAME_TAKEN');
      expectCode(createTab(bank, '   '), 'INVALID_TAB_NAME');
      expectCode(createTab(bank, 'x'.repeat(21)), 'INVALID_TAB_NAME');
      expectCode(createTab(bank, 'bad\u0007name'), 'INVALID_TAB_NAME');
      expectCode(createTab(bank, 42 as never), 'INVALID_TAB_NAME');
    });

    it('renames named tabs but never the main tab', () => {
      const bank = frozen(expectOk(createTab(emptyBank(), 'Ores')));
      assert.equal(expectOk(renameTab(bank, 1, 'Bars')).tabs[1].name, 'Bars');
      assert.equal(expectOk(renameTab(bank, 1, 'ORES')).tabs[1].name, 'ORES');
      expectCode(renameTab(bank, 0, 'Stuff'), 'MAIN_TAB');
      expectCode(renameTab(bank, 2, 'Stuff'), 'INVALID_TAB');
    });

    it('moves items between tabs and moves a deleted tab’s items to the main tab', () => {
      let bank = expectOk(createTab(bankWith(['coins', 100], ['logs', 5], ['gem', 1]), 'Ores'));
      bank = expectOk(moveToTab(bank, { itemId: 'logs' }, 1));
      bank = expectOk(moveToTab(bank, { tab: 0, index: 1 }, 1, 0));
      assert.deepEqual(bank.tabs[1].items.map((e) => e.itemId), ['gem', 'logs']);
      assert.deepEqual(bank.tabs[0].items.map((e) => e.itemId), ['coins']);
      const totals = bankTotals(bank);
      bank = expectOk(deleteTab(frozen(bank), 1));
      assert.equal(bank.tabs.length, 1);
      assert.deepEqual(bank.tabs[0].items.map((e) => e.itemId), ['coins', 'gem', 'logs']);
      assert.deepEqual(bankTotals(bank), totals);
      expectCode(deleteTab(bank, 0), 'MAIN_TAB');
      expectCode(moveToTab(bank, { itemId: 'feather' }, 0), 'NOT_IN_BANK');
      expectCode(moveToTab(bank, { itemId: 'coins' }, 3), 'INVALID_TAB');
    });
  });

  describe('deposit', () => {
    it('deposits part of a stack, all of it, and clamps to what is there', () => {
      const inventory = frozen(inventoryOf([2, 'coins', 500]));
      const part = expectOk(deposit(emptyBank(), inventory, ITEMS, 2, 200));
      assert.equal(bankQuantity(part.bank, 'coins'), 200);
      assert.equal(countItem(part.inventory, 'coins'), 300);
      const all = expectOk(deposit(part.bank, part.inventory, ITEMS, 2, 'all'));
      assert.equal(bankQuantity(all.bank, 'coins'), 500);
      assert.equal(all.inventory[2], null);
      const clamped = expectOk(deposit(emptyBank(), inventory, ITEMS, 2, 9999));
      assert.deepEqual(clamped.deposited, { itemId: 'coins', quantity: 500 });
    });

    it('deposits unstackables from the whole inventory, starting with the chosen slot; they stack in the bank', () => {
      const inventory = frozen(inventoryOf([0, 'logs', 1], [4, 'logs', 1], [9, 'logs', 1], [10, 'shrimp', 1]));
      const two = expectOk(deposit(emptyBank(), inventory, ITEMS, 9, 2));
      assert.equal(two.inventory[9], null);
      assert.equal(two.inventory[0], null);
      assert.deepEqual(two.inventory[4], { itemId: 'logs', quantity: 1 });
      assert.deepEqual(two.bank.tabs[0].items, [{ itemId: 'logs', quantity: 2 }]);
      const all = expectOk(deposit(emptyBank(), inventory, ITEMS, 4, 'all'));
      assert.equal(bankQuantity(all.bank, 'logs'), 3);
      assert.equal(countItem(all.inventory, 'shrimp'), 1);
    });

    it('keeps an item that is already banked in its tab, and puts a new one into the chosen tab', () => {
      const bank = frozen(expectOk(moveToTab(expectOk(createTab(bankWith(['logs', 1]), 'Wood')), { itemId: 'logs' }, 1)));
      const again = expectOk(deposit(bank, inventoryOf([0, 'logs', 1]), ITEMS, 0, 1, 0));
      assert.deepEqual(findEntry(again.bank, 'logs'), { tab: 1, index: 0, entry: { itemId: 'logs', quantity: 2 } });
      const fresh = expectOk(deposit(bank, inventoryOf([0, 'gem', 1]), ITEMS, 0, 1, 1));
      assert.equal(findEntry(fresh.bank, 'gem')?.tab, 1);
      expectCode(deposit(bank, inventoryOf([0, 'gem', 1]), ITEMS, 0, 1, 5), 'INVALID_TAB');
    });

    it('refuses bad input, metadata and overflow without changing anything', () => {
      const inventory = frozen([...inventoryOf([0, 'coins', 10]).slice(0, 1), { itemId: 'gem', quantity: 1, metadata: { cut: true } }, ...emptyInventory().slice(2)]);
      expectCode(deposit(emptyBank(), inventory, ITEMS, 5, 1), 'EMPTY_SLOT');
      expectCode(deposit(emptyBank(), inventory, ITEMS, 28, 1), 'INVALID_SLOT');
      expectCode(deposit(emptyBank(), inventory, ITEMS, 0, 0), 'INVALID_QUANTITY');
      expectCode(deposit(emptyBank(), inventory, ITEMS, 0, -5), 'INVALID_QUANTITY');
      expectCode(deposit(emptyBank(), inventory, ITEMS, 0, Number.NaN), 'INVALID_QUANTITY');
      expectCode(deposit(emptyBank(), inventory, ITEMS, 1, 1), 'HAS_METADATA');
      expectCode(deposit(bankWith(['coins', MAX_STACK - 5]), inventory, ITEMS, 0, 'all'), 'STACK_LIMIT');
    });

    it(`holds at most ${BANK_CAPACITY} different items`, () => {
      const many = defineItems(...Array.from({ length: BANK_CAPACITY + 1 }, (_, i) => ({ id: `item_${i}` })));
      const bank = frozen(expectOk(addToBank(emptyBank(), Array.from({ length: BANK_CAPACITY }, (_, i) => ({ itemId: `item_${i}`, quantity: 1 })))));
      assert.equal(distinctItemCount(bank), BANK_CAPACITY);
      expectCode(deposit(bank, inventoryOf([0, `item_${BANK_CAPACITY}`, 1]), many, 0, 1), 'BANK_FULL');
      assert.equal(bankQuantity(expectOk(deposit(bank, inventoryOf([0, 'item_7', 1]), many, 0, 1)).bank, 'item_7'), 2);
    });

    it('deposits the whole inventory, leaving items with metadata', () => {
      const inventory = frozen([...inventoryOf([0, 'coins', 10], [1, 'logs', 1], [2, 'logs', 1]).slice(0, 3), { itemId: 'gem', quantity: 1, metadata: { cut: true } }, ...emptyInventory().slice(4)]);
      const result = expectOk(depositInventory(emptyBank(), inventory));
      assert.deepEqual(bankTotals(result.bank), new Map([['coins', 10], ['logs', 2]]));
      assert.equal(freeSlotCount(result.inventory), 27);
      expectCode(depositInventory(emptyBank(), emptyInventory()), 'NOTHING_TO_DEPOSIT');
    });

    it('deposits worn equipment, one slot or all', () => {
      const equipment = frozen({ ...emptyEquipment(), weapon: { itemId: 'sword', quantity: 1 }, ammunition: { itemId: 'arrows', quantity: 30 } });
      const one = expectOk(depositEquipment(emptyBank(), equipment, 'weapon'));
      assert.equal(one.equipment.weapon, null);
      assert.equal(one.equipment.ammunition?.quantity, 30);
      const all = expectOk(depositEquipment(bankWith(['arrows', 5]), equipment, 'all'));
      assert.deepEqual(bankTotals(all.bank), new Map([['arrows', 35], ['sword', 1]]));
      assert.ok(Object.values(all.equipment).every((w) => w === null));
      expectCode(depositEquipment(emptyBank(), equipment, 'head'), 'SLOT_EMPTY');
      expectCode(depositEquipment(emptyBank(), emptyEquipment(), 'all'), 'NOTHING_TO_DEPOSIT');
      expectCode(depositEquipment(emptyBank(), equipment, 'pocket' as never), 'INVALID_EQUIPMENT_SLOT');
    });
  });

  describe('withdraw', () => {
    it('withdraws a stackable into one stack, merging with the inventory stack', () => {
      const bank = bankWith(['coins', 1000]);
      const result = expectOk(withdraw(bank, inventoryOf([7, 'coins', 5]), ITEMS, { itemId: 'coins' }, 300));
      assert.equal(countItem(result.inventory, 'coins'), 305);
      assert.equal(result.inventory[7]?.quantity, 305);
      assert.equal(bankQuantity(result.bank, 'coins'), 700);
    });

    it('withdraws unstackables one per free slot and removes an emptied entry', () => {
      const bank = bankWith(['logs', 3], ['coins', 1]);
      const result = expectOk(withdraw(bank, emptyInventory(), ITEMS, { tab: 0, index: 0 }, 'all'));
      assert.equal(countItem(result.inventory, 'logs'), 3);
      assert.ok(result.inventory.every((s) => s === null || s.quantity === 1));
      assert.equal(findEntry(result.bank, 'logs'), null);
      assert.deepEqual(result.bank.tabs[0].items, [{ itemId: 'coins', quantity: 1 }]);
    });

    it('withdraws only what fits when the inventory fills (partial), and clamps to the bank count', () => {
      const bank = bankWith(['logs', 10]);
      const result = expectOk(withdraw(bank, filledWithLogs(24, inventoryOf()), ITEMS, { itemId: 'logs' }, 8));
      assert.deepEqual(result.withdrawn, { itemId: 'logs', quantity: 4 });
      assert.equal(bankQuantity(result.bank, 'logs'), 6);
      assert.equal(freeSlotCount(result.inventory), 0);
      const clamped = expectOk(withdraw(bank, emptyInventory(), ITEMS, { itemId: 'logs' }, 50));
      assert.equal(clamped.withdrawn.quantity, 10);
    });

    it('refuses when nothing fits, nothing is there, or the amount is invalid', () => {
      const bank = bankWith(['logs', 10], ['coins', 5]);
      expectCode(withdraw(bank, filledWithLogs(28), ITEMS, { itemId: 'logs' }, 1), 'INVENTORY_FULL');
      expectCode(withdraw(bank, inventoryOf([0, 'coins', MAX_STACK]), ITEMS, { itemId: 'coins' }, 1), 'INVENTORY_FULL');
      expectCode(withdraw(bank, emptyInventory(), ITEMS, { itemId: 'gem' }, 1), 'NOT_IN_BANK');
      expectCode(withdraw(bank, emptyInventory(), ITEMS, { tab: 0, index: 9 }, 1), 'NOT_IN_BANK');
      expectCode(withdraw(bank, emptyInventory(), ITEMS, { tab: 4, index: 0 }, 1), 'INVALID_TAB');
      expectCode(withdraw(bank, emptyInventory(), ITEMS, { itemId: 'logs' }, 1.5), 'INVALID_QUANTITY');
    });

    it('fills a stack up to the limit and leaves the rest banked', () => {
      const bank = bankWith(['coins', 100]);
      const result = expectOk(withdraw(bank, inventoryOf([0, 'coins', MAX_STACK - 40]), ITEMS, { itemId: 'coins' }, 'all'));
      assert.equal(result.withdrawn.quantity, 40);
      assert.equal(bankQuantity(result.bank, 'coins'), 60);
    });
  });

  it('conserves every item over a deposit/withdraw round trip', () => {
    const inventory = frozen(inventoryOf([0, 'coins', 123], [1, 'logs', 1], [2, 'logs', 1], [3, 'shrimp', 1]));
    const deposited = expectOk(depositInventory(emptyBank(), inventory));
    let state = { bank: deposited.bank, inventory: deposited.inventory };
    for (const itemId of ['coins', 'logs', 'shrimp']) {
      const r = expectOk(withdraw(state.bank, state.inventory, ITEMS, { itemId }, 'all'));
      state = { bank: r.bank, inventory: r.inventory };
    }
    assert.deepEqual(inventoryTotals(state.inventory), inventoryTotals(inventory));
    assert.equal(distinctItemCount(state.bank), 0);
  });
});

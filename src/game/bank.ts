/**
 * The bank: a main tab plus up to nine named tabs. Every item stacks in the bank (unstackable items are counted),
 * each item id lives in exactly one tab, and the bank holds at most BANK_CAPACITY distinct items.
 *
 * Quantities larger than what is there are clamped (deposit 10 when 7 are held deposits 7); withdrawals are
 * partial when the inventory fills up; everything else is all-or-nothing.
 */
import type { EquipmentSlot } from '../manifests/schemas/items.ts';
import { EQUIPMENT_SLOTS, isEquipmentSlot, type Equipment } from './equipment.ts';
import {
  addAsMuchAsFits,
  applyTransfer,
  isValidSlot,
  type Inventory,
  type InventoryCode,
  type InventoryItem,
  type InventorySlot,
} from './inventory.ts';
import type { ItemAmount, ItemDefinitions } from './items.ts';
import { MAX_STACK, addQuantities, isValidQuantity } from './quantity.ts';
import { ok, refuse, type Refusal, type Result } from './result.ts';

export const BANK_CAPACITY = 400;
/** The main tab and nine named tabs. */
export const MAX_BANK_TABS = 10;
export const MAX_TAB_NAME_LENGTH = 20;
export const MAIN_TAB = 0;
export const MAIN_TAB_NAME = 'main';

export interface BankEntry {
  readonly itemId: string;
  readonly quantity: number;
}

export interface BankTab {
  readonly name: string;
  readonly items: readonly BankEntry[];
}

export interface Bank {
  /** Tab 0 is the main tab. */
  readonly tabs: readonly BankTab[];
}

export type BankCode =
  | InventoryCode
  | 'BANK_FULL'
  | 'NOT_IN_BANK'
  | 'INVALID_TAB'
  | 'TAB_LIMIT'
  | 'INVALID_TAB_NAME'
  | 'TAB_NAME_TAKEN'
  | 'MAIN_TAB'
  | 'HAS_METADATA'
  | 'INVALID_EQUIPMENT_SLOT'
  | 'SLOT_EMPTY'
  | 'NOTHING_TO_DEPOSIT';

/** A bank entry addressed by item id, or by its position (tab, index within the tab). */
export type BankRef = { readonly itemId: string } | { readonly tab: number; readonly index: number };

export type Amount = number | 'all';

export function emptyBank(): Bank {
  return { tabs: [{ name: MAIN_TAB_NAME, items: [] }] };
}

export function bankQuantity(bank: Bank, itemId: string): number {
  return findEntry(bank, itemId)?.entry.quantity ?? 0;
}

export function distinctItemCount(bank: Bank): number {
  return bank.tabs.reduce((n, tab) => n + tab.items.length, 0);
}

export function bankTotals(bank: Bank): Map<string, number> {
  return new Map(bank.tabs.flatMap((tab) => tab.items.map((e) => [e.itemId, e.quantity] as const)));
}

export function findEntry(bank: Bank, itemId: string): { tab: number; index: number; entry: BankEntry } | null {
  for (let tab = 0; tab < bank.tabs.length; tab++) {
    const index = bank.tabs[tab].items.findIndex((e) => e.itemId === itemId);
    if (index >= 0) return { tab, index, entry: bank.tabs[tab].items[index] };
  }
  return null;
}

// ── Tabs ───────────────────────────────────────────────────────────────────────────────────────────

export function createTab(bank: Bank, name: string): Result<Bank, BankCode> {
  if (bank.tabs.length >= MAX_BANK_TABS) return refuse('TAB_LIMIT', `a bank has at most ${MAX_BANK_TABS - 1} named tabs`);
  const checked = checkTabName(bank, name, -1);
  if (!checked.ok) return checked;
  return ok({ tabs: [...bank.tabs, { name: checked.value, items: [] }] });
}

export function renameTab(bank: Bank, tab: number, name: string): Result<Bank, BankCode> {
  const named = checkNamedTab(bank, tab);
  if (named) return named;
  const checked = checkTabName(bank, name, tab);
  if (!checked.ok) return checked;
  return ok({ tabs: bank.tabs.map((t, i) => (i === tab ? { ...t, name: checked.value } : t)) });
}

/** Deletes a named tab; its items move to the end of the main tab. */
export function deleteTab(bank: Bank, tab: number): Result<Bank, BankCode> {
  const named = checkNamedTab(bank, tab);
  if (named) return named;
  const tabs = bank.tabs.filter((_, i) => i !== tab);
  tabs[MAIN_TAB] = { ...tabs[MAIN_TAB], items: [...tabs[MAIN_TAB].items, ...bank.tabs[tab].items] };
  return ok({ tabs });
}

/** Moves an item to the end of another tab (or to `index` within it). */
export function moveToTab(bank: Bank, ref: BankRef, tab: number, index?: number): Result<Bank, BankCode> {
  const found = resolve(bank, ref);
  if (!found.ok) return found;
  if (!isTabIndex(bank, tab)) return refuse('INVALID_TAB', `no bank tab ${String(tab)}`);
  const without = removeEntryAt(bank, found.value.tab, found.value.index);
  const target = [...without.tabs[tab].items];
  const at = index !== undefined && Number.isInteger(index) && index >= 0 && index <= target.length ? index : target.length;
  target.splice(at, 0, found.value.entry);
  return ok({ tabs: without.tabs.map((t, i) => (i === tab ? { ...t, items: target } : t)) });
}

// ── Deposits ───────────────────────────────────────────────────────────────────────────────────────

/**
 * Deposits from an inventory slot. For a stackable, up to `amount` of that slot's stack; for an unstackable, up
 * to `amount` of that item from the whole inventory, starting with the given slot. Items carrying metadata
 * cannot be banked (the bank keeps counts only). A new item goes to `tab` (main by default); an item already in
 * the bank stays in its tab.
 */
export function deposit(
  bank: Bank,
  inventory: Inventory,
  items: ItemDefinitions,
  slot: number,
  amount: Amount,
  tab: number = MAIN_TAB,
): Result<{ bank: Bank; inventory: Inventory; deposited: ItemAmount }, BankCode> {
  if (!isValidSlot(inventory, slot)) return refuse('INVALID_SLOT', `slots must be whole numbers from 0 to ${inventory.length - 1}`);
  if (amount !== 'all' && !isValidQuantity(amount)) return invalidAmount(amount);
  const held = inventory[slot];
  if (held === null) return refuse('EMPTY_SLOT', `slot ${slot} is empty`);
  if (held.metadata !== undefined) return refuse('HAS_METADATA', `this ${held.itemId} carries data the bank cannot keep`);
  const definition = items.get(held.itemId);
  if (!definition) return refuse('UNKNOWN_ITEM', `no item '${held.itemId}'`);

  const wanted = amount === 'all' ? Infinity : amount;
  const slots = definition.stackable ? [slot] : [slot, ...bankableSlotsOf(inventory, held.itemId).filter((i) => i !== slot)];
  const removals: { slot: number; quantity: number }[] = [];
  let total = 0;
  for (const i of slots) {
    if (total >= wanted) break;
    const take = Math.min(wanted - total, inventory[i]!.quantity);
    removals.push({ slot: i, quantity: take });
    total += take;
  }
  const deposited = { itemId: held.itemId, quantity: total };
  const nextBank = addToBank(bank, [deposited], tab);
  if (!nextBank.ok) return nextBank;
  const nextInventory = applyTransfer(inventory, items, removals, []);
  if (!nextInventory.ok) return nextInventory;
  return ok({ bank: nextBank.value, inventory: nextInventory.value, deposited });
}

/** Deposits every bankable inventory item, all-or-nothing. Items carrying metadata stay in the inventory. */
export function depositInventory(
  bank: Bank,
  inventory: Inventory,
): Result<{ bank: Bank; inventory: Inventory; deposited: ItemAmount[] }, BankCode> {
  const deposited = mergeAmounts(inventory.filter(isBankable));
  if (deposited.length === 0) return refuse('NOTHING_TO_DEPOSIT', 'the inventory holds nothing that can be banked');
  const nextBank = addToBank(bank, deposited, MAIN_TAB);
  if (!nextBank.ok) return nextBank;
  return ok({ bank: nextBank.value, inventory: inventory.map((s) => (isBankable(s) ? null : s)), deposited });
}

/** Deposits one worn item, or everything worn (`'all'`), all-or-nothing. */
export function depositEquipment(
  bank: Bank,
  equipment: Equipment,
  slot: EquipmentSlot | 'all',
): Result<{ bank: Bank; equipment: Equipment; deposited: ItemAmount[] }, BankCode> {
  if (slot !== 'all' && !isEquipmentSlot(slot)) return refuse('INVALID_EQUIPMENT_SLOT', `no equipment slot '${String(slot)}'`);
  const slots = slot === 'all' ? EQUIPMENT_SLOTS.filter((s) => equipment[s] !== null) : [slot];
  if (slots.length === 0) return refuse('NOTHING_TO_DEPOSIT', 'nothing is worn');
  const worn = slots.map((s) => equipment[s]);
  if (worn[0] === null) return refuse('SLOT_EMPTY', `nothing is worn in the ${String(slot)} slot`);
  const withMetadata = worn.find((w) => w?.metadata !== undefined);
  if (withMetadata) return refuse('HAS_METADATA', `this ${withMetadata.itemId} carries data the bank cannot keep`);
  const deposited = mergeAmounts(worn as InventoryItem[]);
  const nextBank = addToBank(bank, deposited, MAIN_TAB);
  if (!nextBank.ok) return nextBank;
  const nextEquipment = { ...equipment };
  for (const s of slots) nextEquipment[s] = null;
  return ok({ bank: nextBank.value, equipment: nextEquipment, deposited });
}

/**
 * Adds amounts to the bank (rewards sent to the bank, moves from other containers). New items go to `tab`.
 * Refused when the bank would hold more than BANK_CAPACITY distinct items or a count would pass MAX_STACK.
 */
export function addToBank(bank: Bank, amounts: readonly ItemAmount[], tab: number = MAIN_TAB): Result<Bank, BankCode> {
  if (!isTabIndex(bank, tab)) return refuse('INVALID_TAB', `no bank tab ${String(tab)}`);
  const tabs = bank.tabs.map((t) => ({ name: t.name, items: [...t.items] }));
  let distinct = distinctItemCount(bank);
  for (const { itemId, quantity } of amounts) {
    if (!isValidQuantity(quantity)) return invalidAmount(quantity);
    const where = findEntry({ tabs }, itemId);
    if (where) {
      const total = addQuantities(where.entry.quantity, quantity);
      if (total === null) return refuse('STACK_LIMIT', `the bank cannot hold more than ${MAX_STACK} ${itemId}`);
      tabs[where.tab].items[where.index] = { itemId, quantity: total };
    } else {
      if (distinct >= BANK_CAPACITY) return refuse('BANK_FULL', `the bank holds at most ${BANK_CAPACITY} different items`);
      tabs[tab].items.push({ itemId, quantity });
      distinct++;
    }
  }
  return ok({ tabs });
}

// ── Withdrawals ────────────────────────────────────────────────────────────────────────────────────

/**
 * Withdraws up to `amount` (or everything) of one bank entry: a stackable into one stack, an unstackable one per
 * free slot. When the inventory fills first, what fits is withdrawn and the rest stays in the bank
 * (`withdrawn.quantity` tells how many); refused with INVENTORY_FULL only when nothing fits. An entry that
 * reaches zero leaves the bank.
 */
export function withdraw(
  bank: Bank,
  inventory: Inventory,
  items: ItemDefinitions,
  ref: BankRef,
  amount: Amount,
): Result<{ bank: Bank; inventory: Inventory; withdrawn: ItemAmount }, BankCode> {
  if (amount !== 'all' && !isValidQuantity(amount)) return invalidAmount(amount);
  const found = resolve(bank, ref);
  if (!found.ok) return found;
  const { entry, tab, index } = found.value;
  const wanted = amount === 'all' ? entry.quantity : Math.min(amount, entry.quantity);
  const added = addAsMuchAsFits(inventory, items, [{ itemId: entry.itemId, quantity: wanted }]);
  if (!added.ok) return added;
  const moved = added.value.added[0]?.quantity ?? 0;
  if (moved === 0) return refuse('INVENTORY_FULL', `no room in the inventory for ${entry.itemId}`);
  const nextBank =
    moved === entry.quantity
      ? removeEntryAt(bank, tab, index)
      : replaceEntryAt(bank, tab, index, { itemId: entry.itemId, quantity: entry.quantity - moved });
  return ok({ bank: nextBank, inventory: added.value.inventory, withdrawn: { itemId: entry.itemId, quantity: moved } });
}

/** What `bank:state` shows: the tabs with their items, the distinct item count and the capacity. */
export function bankState(bank: Bank): Record<string, unknown> {
  return {
    tabs: bank.tabs.map((tab, index) => ({ index, name: tab.name, items: tab.items.map((e) => ({ itemId: e.itemId, quantity: e.quantity })) })),
    distinctItems: distinctItemCount(bank),
    capacity: BANK_CAPACITY,
  };
}

/** A withdrawal by item id that names a tab: refused when the item is banked in another tab (ok when not banked). */
export function checkInTab(bank: Bank, itemId: string, tab: number): Result<true, BankCode> {
  const where = findEntry(bank, itemId);
  if (where && where.tab !== tab) return refuse('NOT_IN_BANK', `${itemId} is not in tab ${tab}`);
  return ok(true);
}

// ── Helpers ────────────────────────────────────────────────────────────────────────────────────────

function isTabIndex(bank: Bank, tab: unknown): tab is number {
  return typeof tab === 'number' && Number.isInteger(tab) && tab >= 0 && tab < bank.tabs.length;
}

function checkNamedTab(bank: Bank, tab: number): Refusal<BankCode> | null {
  if (!isTabIndex(bank, tab)) return refuse('INVALID_TAB', `no bank tab ${String(tab)}`);
  if (tab === MAIN_TAB) return refuse('MAIN_TAB', 'the main tab cannot be renamed or deleted');
  return null;
}

function checkTabName(bank: Bank, name: unknown, ownIndex: number): Result<string, BankCode> {
  if (typeof name !== 'string' || /[\u0000-\u001f\u007f-\u009f]/.test(name)) {
    return refuse('INVALID_TAB_NAME', 'a tab name is text without control characters');
  }
  const trimmed = name.trim();
  if (trimmed.length === 0 || [...trimmed].length > MAX_TAB_NAME_LENGTH) {
    return refuse('INVALID_TAB_NAME', `a tab name has 1 to ${MAX_TAB_NAME_LENGTH} characters`);
  }
  const taken = bank.tabs.some((t, i) => i !== ownIndex && t.name.toLowerCase() === trimmed.toLowerCase());
  if (taken) return refuse('TAB_NAME_TAKEN', `there is already a tab named '${trimmed}'`);
  return ok(trimmed);
}

function resolve(bank: Bank, ref: BankRef): Result<{ tab: number; index: number; entry: BankEntry }, BankCode> {
  if ('itemId' in ref) {
    const found = findEntry(bank, ref.itemId);
    return found ? ok(found) : refuse('NOT_IN_BANK', `no ${String(ref.itemId)} in the bank`);
  }
  if (!isTabIndex(bank, ref.tab)) return refuse('INVALID_TAB', `no bank tab ${String(ref.tab)}`);
  const entry = Number.isInteger(ref.index) ? bank.tabs[ref.tab].items[ref.index] : undefined;
  if (!entry) return refuse('NOT_IN_BANK', `tab ${ref.tab} has nothing at position ${String(ref.index)}`);
  return ok({ tab: ref.tab, index: ref.index, entry });
}

function removeEntryAt(bank: Bank, tab: number, index: number): Bank {
  return { tabs: bank.tabs.map((t, i) => (i === tab ? { ...t, items: t.items.filter((_, j) => j !== index) } : t)) };
}

function replaceEntryAt(bank: Bank, tab: number, index: number, entry: BankEntry): Bank {
  return { tabs: bank.tabs.map((t, i) => (i === tab ? { ...t, items: t.items.map((e, j) => (j === index ? entry : e)) } : t)) };
}

function isBankable(slot: InventorySlot): slot is InventoryItem {
  return slot !== null && slot.metadata === undefined;
}

function bankableSlotsOf(inventory: Inventory, itemId: string): number[] {
  return inventory.flatMap((s, i) => (isBankable(s) && s.itemId === itemId ? [i] : []));
}

function mergeAmounts(stacks: readonly InventoryItem[]): ItemAmount[] {
  const totals = new Map<string, number>();
  for (const s of stacks) totals.set(s.itemId, (totals.get(s.itemId) ?? 0) + s.quantity);
  return [...totals].map(([itemId, quantity]) => ({ itemId, quantity }));
}

function invalidAmount(amount: unknown): Refusal<'INVALID_QUANTITY'> {
  return refuse('INVALID_QUANTITY', `amount must be 'all' or a whole number from 1 to ${MAX_STACK}, got ${String(amount)}`);
}

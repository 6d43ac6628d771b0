/**
 * A character's items as the REST player-data routes list them (GET /api/player/inventory, equipment, bank): the
 * stored rows as they are, read outside any item transaction. Moving items is item-transaction.ts, alone.
 */
import { BankItem, BankTab, EquipmentSlot, InventorySlot } from './entities/index.ts';
import type { Transaction } from './transaction.ts';

/** The occupied inventory slots, by slot number. */
export function listInventorySlots(tx: Transaction, characterId: string): Promise<InventorySlot[]> {
  return tx.find(InventorySlot, { characterId }, { orderBy: { slot: 'asc' } });
}

/** The worn items, one row per occupied equipment slot. */
export function listEquipmentSlots(tx: Transaction, characterId: string): Promise<EquipmentSlot[]> {
  return tx.find(EquipmentSlot, { characterId });
}

/** The bank's tabs, by tab index. */
export function listBankTabs(tx: Transaction, characterId: string): Promise<BankTab[]> {
  return tx.find(BankTab, { characterId }, { orderBy: { tabIndex: 'asc' } });
}

/** One page of banked items by tab and position, and how many there are in all. */
export function pageBankItems(tx: Transaction, characterId: string, limit: number, offset: number): Promise<[BankItem[], number]> {
  return tx.findAndCount(BankItem, { characterId }, { orderBy: { tabIndex: 'asc', position: 'asc', id: 'asc' }, limit, offset });
}

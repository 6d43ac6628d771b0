/**
 * The one way items move: a database transaction that locks every character involved (their `characters`
 * rows, in sorted id order so two transactions never wait on each other in a cycle), reads their containers
 * from the database — never from memory — lets the caller compute the new containers with the pure rules of
 * src/game, writes only the slots that changed, and commits. Memory is updated by the caller from the returned
 * committed containers. Deadlocks and serialization failures are retried a bounded number of times.
 */
import { DeadlockException, LockWaitTimeoutException } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { EQUIPMENT_SLOTS, emptyEquipment, type Equipment, type EquipmentSlot } from '../game/equipment.ts';
import { INVENTORY_SIZE, emptyInventory, type Inventory, type InventoryItem, type ItemMetadata } from '../game/inventory.ts';
import type { Database } from './database.ts';

export interface Containers {
  readonly inventory: Inventory;
  readonly equipment: Equipment;
}

export type ContainersById = ReadonlyMap<string, Containers>;

export interface ItemWork<T> {
  /** The result handed back to the caller after the commit. */
  value: T;
  /** New containers for the characters whose items changed (others are left as loaded). */
  write: ContainersById;
}

/** Thrown by work that refuses: the transaction rolls back and the error reaches the caller unchanged. */
export class ItemTransactionRefused extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'ItemTransactionRefused';
    this.code = code;
  }
}

const RETRYABLE = new Set(['40P01', '40001']); // deadlock detected, serialization failure
const MAX_ATTEMPTS = 4;

interface SlotRow {
  character_id: string;
  slot: number;
  item_id: string;
  quantity: number;
  metadata: ItemMetadata | string | null;
}

interface EquipmentRow {
  character_id: string;
  slot_type: string;
  item_id: string;
  quantity: number;
  metadata: ItemMetadata | string | null;
}

function toItem(row: { item_id: string; quantity: number; metadata: ItemMetadata | string | null }): InventoryItem {
  const metadata = typeof row.metadata === 'string' ? JSON.parse(row.metadata) as ItemMetadata : row.metadata;
  return metadata ? { itemId: row.item_id, quantity: Number(row.quantity), metadata } : { itemId: row.item_id, quantity: Number(row.quantity) };
}

function sameItem(a: InventoryItem | null, b: InventoryItem | null): boolean {
  if (a === null || b === null) return a === b;
  return a.itemId === b.itemId && a.quantity === b.quantity && JSON.stringify(a.metadata ?? null) === JSON.stringify(b.metadata ?? null);
}

/**
 * Reads the characters' inventories and equipment. Inside a transaction with `lock`, their `characters` rows
 * are locked first (sorted order), so nothing else moves their items until the commit.
 */
export async function loadContainers(em: SqlEntityManager, characterIds: readonly string[], lock: boolean): Promise<Map<string, Containers>> {
  const ids = [...new Set(characterIds)].sort();
  const placeholders = ids.map(() => '?').join(', ');
  const locked = await em.execute<Array<{ id: string }>>(`select id from characters where id in (${placeholders}) order by id${lock ? ' for update' : ''}`, ids);
  if (locked.length !== ids.length) throw new ItemTransactionRefused('CHARACTER_NOT_FOUND', 'A character of this operation no longer exists');
  const slots = await em.execute<SlotRow[]>(`select character_id, slot, item_id, quantity, metadata from inventory where character_id in (${placeholders})`, ids);
  const worn = await em.execute<EquipmentRow[]>(`select character_id, slot_type, item_id, quantity, metadata from equipment where character_id in (${placeholders})`, ids);
  const loaded = new Map<string, { inventory: Array<InventoryItem | null>; equipment: Record<EquipmentSlot, InventoryItem | null> }>();
  for (const id of ids) loaded.set(id, { inventory: [...emptyInventory()], equipment: { ...emptyEquipment() } });
  for (const row of slots) loaded.get(row.character_id)!.inventory[row.slot] = toItem(row);
  for (const row of worn) loaded.get(row.character_id)!.equipment[row.slot_type as EquipmentSlot] = toItem(row);
  return loaded;
}

/** Writes the slots that differ between `before` and `after` for one character. */
export async function writeContainers(tx: SqlEntityManager, characterId: string, before: Containers, after: Containers): Promise<void> {
  for (let slot = 0; slot < INVENTORY_SIZE; slot++) {
    const was = before.inventory[slot] ?? null;
    const now = after.inventory[slot] ?? null;
    if (sameItem(was, now)) continue;
    if (now === null) {
      await tx.execute('delete from inventory where character_id = ? and slot = ?', [characterId, slot]);
    } else {
      await tx.execute(
        `insert into inventory (character_id, slot, item_id, quantity, metadata) values (?, ?, ?, ?, ?)
         on conflict (character_id, slot) do update set item_id = excluded.item_id, quantity = excluded.quantity, metadata = excluded.metadata`,
        [characterId, slot, now.itemId, now.quantity, now.metadata ? JSON.stringify(now.metadata) : null],
      );
    }
  }
  for (const slotType of EQUIPMENT_SLOTS) {
    const was = before.equipment[slotType] ?? null;
    const now = after.equipment[slotType] ?? null;
    if (sameItem(was, now)) continue;
    if (now === null) {
      await tx.execute('delete from equipment where character_id = ? and slot_type = ?', [characterId, slotType]);
    } else {
      await tx.execute(
        `insert into equipment (character_id, slot_type, item_id, quantity, metadata) values (?, ?, ?, ?, ?)
         on conflict (character_id, slot_type) do update set item_id = excluded.item_id, quantity = excluded.quantity, metadata = excluded.metadata`,
        [characterId, slotType, now.itemId, now.quantity, now.metadata ? JSON.stringify(now.metadata) : null],
      );
    }
  }
}

/**
 * Runs `work` in one transaction over the locked, freshly read containers of `characterIds`, writes what it
 * returns and commits; returns the value and the committed containers of every character involved.
 * `work` may write other rows through `tx` (audit records, bank rows…): they commit or roll back together.
 */
export async function runItemTransaction<T>(
  db: Database,
  characterIds: readonly string[],
  work: (tx: SqlEntityManager, loaded: ContainersById) => Promise<ItemWork<T>>,
): Promise<{ value: T; containers: ContainersById }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.em.fork().transactional(async (tx) => {
        const loaded = await loadContainers(tx, characterIds, true);
        const { value, write } = await work(tx, loaded);
        const committed = new Map<string, Containers>(loaded);
        for (const [id, after] of write) {
          const before = loaded.get(id);
          if (!before) throw new Error(`item transaction wrote character ${id}, which it did not lock`);
          await writeContainers(tx, id, before, after);
          committed.set(id, after);
        }
        return { value, containers: committed };
      });
    } catch (error) {
      const code = (error as { code?: string }).code;
      const retryable = error instanceof DeadlockException || error instanceof LockWaitTimeoutException || (code !== undefined && RETRYABLE.has(code));
      if (attempt < MAX_ATTEMPTS && retryable) continue;
      throw error;
    }
  }
}

/**
 * The one way items move: a database transaction that locks every character involved (their `characters`
 * rows, in sorted id order so two transactions never wait on each other in a cycle), reads their containers
 * from the database — never from memory — lets the caller compute the new containers with the pure rules of
 * src/game, writes only the slots that changed, and commits. Memory is updated by the caller from the returned
 * committed containers. Deadlocks and serialization failures are retried a bounded number of times.
 *
 * With `{ bank: true }` the characters' banks are read and written the same way (bank_tabs, bank_items), and
 * whenever an inventory's coin total changes, `characters.coins` (a mirror of it) is updated in the same commit.
 */
import { DeadlockException, LockWaitTimeoutException } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { MAIN_TAB_NAME, type Bank, type BankEntry, type BankTab } from '../game/bank.ts';
import { EQUIPMENT_SLOTS, emptyEquipment, type Equipment, type EquipmentSlot } from '../game/equipment.ts';
import { INVENTORY_SIZE, countItem, emptyInventory, type Inventory, type InventoryItem, type ItemMetadata } from '../game/inventory.ts';
import { COINS } from '../game/shop.ts';
import { traceItemTransaction } from '../observability/channels.ts';
import type { Database } from './database.ts';
import { GameError } from '../game/refusal.ts';
import { parseJson } from './row-values.ts';
import { isDatabaseUnreachable } from './unreachable.ts';
import { assertWorldFence, type WorldFence } from './worlds.ts';

export interface Containers {
  readonly inventory: Inventory;
  readonly equipment: Equipment;
  /** Present when the transaction was asked to load banks (`{ bank: true }`). */
  readonly bank?: Bank;
}

export interface ItemTransactionOptions {
  /** Also lock-read and write the characters' banks. */
  bank?: boolean;
  /** The `operation` label of game_db_transaction_seconds: a fixed name per caller (default `items`). */
  operation?: string;
  /**
   * The world making the move: refused (WORLD_UNAVAILABLE, nothing written) unless it still holds its lease with this
   * epoch and claims each of `claimed` (src/db/worlds.ts `assertWorldFence`).
   */
  fence?: WorldFence;
  claimed?: readonly string[];
}

export type ContainersById = ReadonlyMap<string, Containers>;

export interface ItemWork<T> {
  /** The result handed back to the caller after the commit. */
  value: T;
  /** New containers for the characters whose items changed (others are left as loaded). */
  write: ContainersById;
  /**
   * Further rows this operation writes (an audit record…), sent in the same statement as the container writes, so
   * they must not touch the characters, inventory or equipment rows of this transaction.
   */
  alsoWrite?: readonly SqlStatement[];
}

/** One data-modifying SQL statement with `?` placeholders. */
export interface SqlStatement {
  sql: string;
  params: unknown[];
}

const RETRYABLE = new Set(['40P01', '40001']); // deadlock detected, serialization failure

/**
 * The database went away while the transaction was committing: it may or may not have committed. The client is told
 * so (OUTCOME_UNKNOWN), never that nothing changed; the next item transaction reads what the database holds.
 */
export function outcomeUnknown(): GameError {
  return new GameError('OUTCOME_UNKNOWN', 'The server lost its database while saving this; it may or may not have happened. Your inventory shows what did', { retryAfterSeconds: 5 });
}
const MAX_ATTEMPTS = 4;

/** One row of a containers read: a `character` marker per character found, then its inventory and equipment rows. */
interface ContainerRow {
  container: 'character' | 'inventory' | 'equipment';
  character_id: string;
  slot: string;
  item_id: string;
  quantity: number;
  metadata: ItemMetadata | string | null;
}

interface BankTabRow {
  character_id: string;
  tab_index: number;
  name: string;
}

interface BankItemRow {
  character_id: string;
  tab_index: number;
  position: number;
  item_id: string;
  quantity: number;
}

function toItem(row: { item_id: string; quantity: number; metadata: ItemMetadata | string | null }): InventoryItem {
  const metadata = row.metadata === null ? null : parseJson<ItemMetadata>(row.metadata);
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
export async function loadContainers(
  em: SqlEntityManager,
  characterIds: readonly string[],
  lock: boolean,
  options: ItemTransactionOptions = {},
): Promise<Map<string, Containers>> {
  const ids = [...new Set(characterIds)].sort();
  const placeholders = ids.map(() => '?').join(', ');
  // Locking: one round trip through lock_item_owners (see its migration for why a plain join would read stale rows).
  const rows = await em.execute<ContainerRow[]>(
    lock
      ? `select * from lock_item_owners(array[${placeholders}]::text[])`
      : `select 'character' as container, id as character_id, null as slot, null as item_id, null as quantity, null as metadata from characters where id in (${placeholders})
         union all
         select 'inventory', character_id, slot::text, item_id, quantity, metadata from inventory where character_id in (${placeholders})
         union all
         select 'equipment', character_id, slot_type, item_id, quantity, metadata from equipment where character_id in (${placeholders})`,
    lock ? ids : [...ids, ...ids, ...ids],
  );
  const found = rows.filter((row) => row.container === 'character').length;
  if (found !== ids.length) throw new GameError('CHARACTER_NOT_FOUND', 'A character of this operation no longer exists');
  const loaded = new Map<string, { inventory: Array<InventoryItem | null>; equipment: Record<EquipmentSlot, InventoryItem | null> }>();
  for (const id of ids) loaded.set(id, { inventory: [...emptyInventory()], equipment: { ...emptyEquipment() } });
  for (const row of rows) {
    const containers = loaded.get(row.character_id)!;
    if (row.container === 'inventory') containers.inventory[Number(row.slot)] = toItem(row);
    else if (row.container === 'equipment') containers.equipment[row.slot as EquipmentSlot] = toItem(row);
  }
  if (!options.bank) return loaded;
  const banks = await loadBanks(em, ids);
  return new Map([...loaded].map(([id, containers]) => [id, { ...containers, bank: banks.get(id)! }]));
}

/** Reads banks: tabs in order (main first), each tab's items in position order. */
export async function loadBanks(em: SqlEntityManager, characterIds: readonly string[]): Promise<Map<string, Bank>> {
  const ids = [...new Set(characterIds)].sort();
  const banks = new Map<string, Bank>();
  if (ids.length === 0) return banks;
  const placeholders = ids.map(() => '?').join(', ');
  const tabRows = await em.execute<BankTabRow[]>(`select character_id, tab_index, name from bank_tabs where character_id in (${placeholders}) order by character_id, tab_index`, ids);
  const itemRows = await em.execute<BankItemRow[]>(`select character_id, tab_index, position, item_id, quantity from bank_items where character_id in (${placeholders}) order by character_id, tab_index, position`, ids);
  const tabs = new Map<string, Array<{ name: string; items: BankEntry[] }>>();
  for (const id of ids) tabs.set(id, [{ name: MAIN_TAB_NAME, items: [] }]);
  for (const row of tabRows) {
    const list = tabs.get(row.character_id)!;
    if (Number(row.tab_index) === 0) list[0].name = row.name;
    else list.push({ name: row.name, items: [] });
  }
  for (const row of itemRows) {
    const list = tabs.get(row.character_id)!;
    // Tabs are stored densely (0..n-1); an item pointing past them is kept in the main tab rather than lost.
    const tab = list[Number(row.tab_index)] ?? list[0];
    tab.items.push({ itemId: row.item_id, quantity: Number(row.quantity) });
  }
  for (const id of ids) banks.set(id, { tabs: tabs.get(id)! });
  return banks;
}

function sameTabs(a: readonly BankTab[], b: readonly BankTab[]): boolean {
  return a.length === b.length && a.every((tab, i) => tab.name === b[i].name);
}

function bankPlaces(bank: Bank): Map<string, { tab: number; position: number; quantity: number }> {
  const places = new Map<string, { tab: number; position: number; quantity: number }>();
  bank.tabs.forEach((tab, t) => tab.items.forEach((entry, position) => places.set(entry.itemId, { tab: t, position, quantity: entry.quantity })));
  return places;
}

/** Writes the bank rows that differ between `before` and `after` for one character. */
export async function writeBank(tx: SqlEntityManager, characterId: string, before: Bank, after: Bank): Promise<void> {
  if (!sameTabs(before.tabs, after.tabs)) {
    await tx.execute('delete from bank_tabs where character_id = ?', [characterId]);
    const values = after.tabs.map(() => '(?, ?, ?)').join(', ');
    await tx.execute(`insert into bank_tabs (character_id, tab_index, name) values ${values}`, after.tabs.flatMap((tab, i) => [characterId, i, tab.name]));
  }
  const was = bankPlaces(before);
  const now = bankPlaces(after);
  const gone = [...was.keys()].filter((itemId) => !now.has(itemId));
  if (gone.length > 0) {
    await tx.execute(`delete from bank_items where character_id = ? and item_id in (${gone.map(() => '?').join(', ')})`, [characterId, ...gone]);
  }
  const changed = [...now].filter(([itemId, place]) => {
    const old = was.get(itemId);
    return !old || old.tab !== place.tab || old.position !== place.position || old.quantity !== place.quantity;
  });
  if (changed.length > 0) {
    await tx.execute(
      `insert into bank_items (character_id, tab_index, position, item_id, quantity) values ${changed.map(() => '(?, ?, ?, ?, ?)').join(', ')}
       on conflict (character_id, item_id) do update set tab_index = excluded.tab_index, position = excluded.position, quantity = excluded.quantity`,
      changed.flatMap(([itemId, place]) => [characterId, place.tab, place.position, itemId, place.quantity]),
    );
  }
}

/** The container rows that differ between `before` and `after`, as data-modifying statements. */
function containerChanges(characterId: string, before: Containers, after: Containers): SqlStatement[] {
  const statements: SqlStatement[] = [];
  const coinsBefore = countItem(before.inventory, COINS);
  const coinsAfter = countItem(after.inventory, COINS);
  if (coinsBefore !== coinsAfter) statements.push({ sql: 'update characters set coins = ? where id = ?', params: [coinsAfter, characterId] });
  const inventorySlots = Array.from({ length: INVENTORY_SIZE }, (_, slot) => slot);
  statements.push(...slotChanges('inventory', 'slot', characterId, inventorySlots, (slot) => before.inventory[slot as number] ?? null, (slot) => after.inventory[slot as number] ?? null));
  statements.push(...slotChanges('equipment', 'slot_type', characterId, [...EQUIPMENT_SLOTS], (slot) => before.equipment[slot as EquipmentSlot] ?? null, (slot) => after.equipment[slot as EquipmentSlot] ?? null));
  return statements;
}

/**
 * The changed slots of one container table as at most two statements: one delete for the slots that emptied and
 * one multi-row upsert for the slots that changed.
 */
function slotChanges(
  table: 'inventory' | 'equipment',
  slotColumn: 'slot' | 'slot_type',
  characterId: string,
  slots: ReadonlyArray<number | string>,
  was: (slot: number | string) => InventoryItem | null,
  now: (slot: number | string) => InventoryItem | null,
): SqlStatement[] {
  const emptied: Array<number | string> = [];
  const changed: Array<[number | string, InventoryItem]> = [];
  for (const slot of slots) {
    const after = now(slot);
    if (sameItem(was(slot), after)) continue;
    if (after === null) emptied.push(slot);
    else changed.push([slot, after]);
  }
  const statements: SqlStatement[] = [];
  if (emptied.length > 0) {
    statements.push({
      sql: `delete from ${table} where character_id = ? and ${slotColumn} in (${emptied.map(() => '?').join(', ')})`,
      params: [characterId, ...emptied],
    });
  }
  if (changed.length > 0) {
    statements.push({
      sql: `insert into ${table} (character_id, ${slotColumn}, item_id, quantity, metadata) values ${changed.map(() => '(?, ?, ?, ?, ?)').join(', ')}
       on conflict (character_id, ${slotColumn}) do update set item_id = excluded.item_id, quantity = excluded.quantity, metadata = excluded.metadata`,
      params: changed.flatMap(([slot, item]) => [characterId, slot, item.itemId, item.quantity, item.metadata ? JSON.stringify(item.metadata) : null]),
    });
  }
  return statements;
}

/**
 * Runs the statements in one round trip: a single statement as it is, several as data-modifying CTEs of one
 * statement. They touch disjoint rows (each slot and each character's coins at most once), which is what
 * PostgreSQL requires of sub-statements sharing one snapshot.
 */
async function runTogether(tx: SqlEntityManager, statements: readonly SqlStatement[]): Promise<void> {
  if (statements.length === 0) return;
  if (statements.length === 1) {
    await tx.execute(statements[0].sql, statements[0].params);
    return;
  }
  const ctes = statements.map((statement, i) => `w${i} as (${statement.sql})`).join(',\n');
  await tx.execute(`with ${ctes}\nselect 1`, statements.flatMap((statement) => statement.params));
}

/** Writes every character's changes (inventories, equipment, coin mirrors) and `alsoWrite` in one round trip. */
async function writeAllContainers(tx: SqlEntityManager, changes: ReadonlyArray<{ characterId: string; before: Containers; after: Containers }>, alsoWrite: readonly SqlStatement[]): Promise<void> {
  for (const { characterId, before, after } of changes) {
    if (after.bank && after.bank !== before.bank) {
      if (!before.bank) throw new Error(`item transaction wrote the bank of ${characterId} without loading it ({ bank: true })`);
      await writeBank(tx, characterId, before.bank, after.bank);
    }
  }
  await runTogether(tx, [...changes.flatMap(({ characterId, before, after }) => containerChanges(characterId, before, after)), ...alsoWrite]);
}

/**
 * Runs `work` in one transaction over the locked, freshly read containers of `characterIds`, writes what it
 * returns and commits; returns the value and the committed containers of every character involved.
 * `work` may write other rows through `tx` (audit records, bank rows…): they commit or roll back together.
 * `work` refuses by throwing the one refusal type, a GameError (src/game/refusal.ts): everything rolls back and the
 * error reaches the caller unchanged, to be sent as it is.
 */
export async function runItemTransaction<T>(
  db: Database,
  characterIds: readonly string[],
  work: (tx: SqlEntityManager, loaded: ContainersById) => Promise<ItemWork<T>>,
  options: ItemTransactionOptions = {},
): Promise<{ value: T; containers: ContainersById }> {
  return traceItemTransaction(db, options.operation ?? 'items', () => runWithRetries(db, characterIds, work, options));
}

async function runWithRetries<T>(
  db: Database,
  characterIds: readonly string[],
  work: (tx: SqlEntityManager, loaded: ContainersById) => Promise<ItemWork<T>>,
  options: ItemTransactionOptions,
): Promise<{ value: T; containers: ContainersById }> {
  for (let attempt = 1; ; attempt++) {
    // Set once the work is written and only the commit is left: a lost database from then on leaves the outcome unknown.
    let committing = false;
    try {
      return await db.em.fork().transactional(async (tx) => {
        if (options.fence) await assertWorldFence(tx, options.fence, options.claimed);
        const loaded = await loadContainers(tx, characterIds, true, options);
        const { value, write, alsoWrite = [] } = await work(tx, loaded);
        const committed = new Map<string, Containers>(loaded);
        const changes = [...write].map(([id, after]) => {
          const before = loaded.get(id);
          if (!before) throw new Error(`item transaction wrote character ${id}, which it did not lock`);
          committed.set(id, before.bank && !after.bank ? { ...after, bank: before.bank } : after);
          return { characterId: id, before, after };
        });
        await writeAllContainers(tx, changes, alsoWrite);
        committing = true;
        return { value, containers: committed };
      });
    } catch (error) {
      if (committing && isDatabaseUnreachable(error)) throw outcomeUnknown();
      const code = (error as { code?: string }).code;
      const retryable = error instanceof DeadlockException || error instanceof LockWaitTimeoutException || (code !== undefined && RETRYABLE.has(code));
      if (attempt < MAX_ATTEMPTS && retryable) continue;
      throw error;
    }
  }
}

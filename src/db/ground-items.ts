/**
 * The `ground_items` rows: what lies on the ground, each row the only home of its items. A drop or a pick-up writes
 * its row inside the item transaction that changes the inventory (pass its handle), so an item is always in exactly
 * one of them; a world reloads its rows when it starts and deletes its expired ones (the ground-item sink). Every row
 * belongs to the world it lies in (`world`, its number): a world never reads or touches another world's rows.
 */
import type { GroundItem } from '../game/ground-items.ts';
import type { ItemMetadata } from '../game/inventory.ts';
import type { Database } from './database.ts';
import { iso, millis, parseJson } from './row-values.ts';
import type { Transaction } from './transaction.ts';

interface GroundRow {
  id: string;
  item_id: string;
  quantity: number;
  metadata: ItemMetadata | string | null;
  x: number;
  z: number;
  owner_id: string | null;
  dropped_at: unknown;
  public_at: unknown;
  expires_at: unknown;
}

const GROUND_COLUMNS = 'id, item_id, quantity, metadata, x, z, owner_id, dropped_at, public_at, expires_at';

function groundItemFromRow(row: GroundRow): GroundItem {
  const metadata = row.metadata === null ? undefined : parseJson<ItemMetadata>(row.metadata);
  return {
    id: row.id, itemId: row.item_id, quantity: Number(row.quantity), ...(metadata ? { metadata } : {}),
    x: Number(row.x), z: Number(row.z), ownerId: row.owner_id,
    droppedAt: millis(row.dropped_at), publicAt: millis(row.public_at), expiresAt: millis(row.expires_at),
  };
}

/** Every ground item lying in world `world` (the world's startup). */
export async function loadGroundItems(db: Database, world: number): Promise<GroundItem[]> {
  const rows = await db.em.fork().execute<GroundRow[]>(`select ${GROUND_COLUMNS} from ground_items where world = ?`, [world]);
  return rows.map(groundItemFromRow);
}

/** Puts items on the ground of world `world`. */
export async function insertGroundItems(tx: Transaction, world: number, items: readonly GroundItem[]): Promise<void> {
  if (items.length === 0) return;
  await tx.execute(
    `insert into ground_items (${GROUND_COLUMNS}, world) values ${items.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    items.flatMap((i) => [
      i.id, i.itemId, i.quantity, i.metadata ? JSON.stringify(i.metadata) : null, i.x, i.z, i.ownerId,
      iso(i.droppedAt), iso(i.publicAt), iso(i.expiresAt), world,
    ]),
  );
}

/** Locks a ground item's row and returns it, or null when it is gone (picked up or expired). */
export async function lockGroundItem(tx: Transaction, id: string): Promise<GroundItem | null> {
  const [row] = await tx.execute<GroundRow[]>(`select ${GROUND_COLUMNS} from ground_items where id = ? for update`, [id]);
  return row ? groundItemFromRow(row) : null;
}

/** Takes a (locked) ground item off the ground: its items went into an inventory in the same transaction. */
export async function deleteGroundItem(tx: Transaction, id: string): Promise<void> {
  await tx.execute('delete from ground_items where id = ?', [id]);
}

/**
 * The sink: deletes those of world `world`'s rows that have expired by `now` (a row a pick-up already took is not
 * there).
 */
export async function deleteExpiredGroundItems(tx: Transaction, world: number, ids: readonly string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(
    `delete from ground_items where world = ? and id in (${ids.map(() => '?').join(', ')}) and expires_at <= ?`,
    [world, ...ids, iso(now)],
  );
}

/**
 * The `player_deaths` rows: a death lock holds the items a player lost (status `locked`) until the owner reclaims
 * them (`reclaimed`) or the gravestone expires into public ground items (`released`). Positions are stored in world
 * units (tile × tileSize) like the characters' own. A gravestone belongs to the world it stands in (`world`, its
 * number): only that world loads it. Writers take the open transaction.
 */
import type { Gravestone } from '../game/death.ts';
import type { InventoryItem } from '../game/inventory.ts';
import type { Database } from './database.ts';
import { iso, millis, parseJson } from './row-values.ts';
import type { Transaction } from './transaction.ts';

interface DeathRow {
  id: string;
  character_id: string;
  position_x: number;
  position_z: number;
  items: unknown;
  created_at: unknown;
  expires_at: unknown;
  name?: string;
}

const DEATH_COLUMNS = 'id, character_id, position_x, position_z, items, created_at, expires_at';

function gravestoneFromRow(row: DeathRow, tileSize: number): Gravestone {
  return {
    id: row.id, ownerId: row.character_id,
    x: Math.round(Number(row.position_x) / tileSize), z: Math.round(Number(row.position_z) / tileSize),
    items: parseJson<InventoryItem[]>(row.items),
    createdAt: millis(row.created_at), expiresAt: millis(row.expires_at),
  };
}

export interface OpenGravestone {
  readonly gravestone: Gravestone;
  readonly ownerName: string;
}

/** Every open death lock in world `world` with its owner's name (the world's startup). */
export async function loadOpenGravestones(db: Database, world: number, tileSize: number): Promise<OpenGravestone[]> {
  const rows = await db.em.fork().execute<DeathRow[]>(
    `select d.id, d.character_id, d.position_x, d.position_z, d.items, d.created_at, d.expires_at, c.name
     from player_deaths d join characters c on c.id = d.character_id where d.status = 'locked' and d.world = ?`,
    [world],
  );
  return rows.map((row) => ({ gravestone: gravestoneFromRow(row, tileSize), ownerName: row.name ?? '' }));
}

/** Writes the death lock of a new gravestone in world `world` (in the transaction that empties the slots). */
export async function insertDeathLock(tx: Transaction, world: number, gravestone: Gravestone, tileSize: number, now: number): Promise<void> {
  await tx.execute(
    `insert into player_deaths (id, character_id, position_x, position_y, position_z, items, status, created_at, expires_at, world)
     values (?, ?, ?, ?, ?, ?, 'locked', ?, ?, ?)`,
    [gravestone.id, gravestone.ownerId, gravestone.x * tileSize, 0, gravestone.z * tileSize, JSON.stringify(gravestone.items), iso(now), iso(gravestone.expiresAt), world],
  );
}

/** Locks an open death lock (status `locked`) and returns its gravestone, or null when it was reclaimed or released. */
export async function lockGravestone(tx: Transaction, id: string, tileSize: number): Promise<Gravestone | null> {
  const [row] = await tx.execute<DeathRow[]>(`select ${DEATH_COLUMNS} from player_deaths where id = ? and status = 'locked' for update`, [id]);
  return row ? gravestoneFromRow(row, tileSize) : null;
}

/** What is left in a partly claimed gravestone. */
export async function writeGravestoneItems(tx: Transaction, id: string, items: readonly InventoryItem[]): Promise<void> {
  await tx.execute('update player_deaths set items = ? where id = ?', [JSON.stringify(items), id]);
}

/** The owner took everything back. */
export async function markReclaimed(tx: Transaction, id: string, now: number): Promise<void> {
  await tx.execute(`update player_deaths set status = 'reclaimed', resolved_at = ?, items = ? where id = ?`, [iso(now), '[]', id]);
}

/** The gravestone expired: its items became ground items (written in the same transaction). */
export async function markReleased(tx: Transaction, id: string, now: number): Promise<void> {
  await tx.execute(`update player_deaths set status = 'released', resolved_at = ? where id = ?`, [iso(now), id]);
}

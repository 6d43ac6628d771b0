/**
 * What the economy keeps in the world: ground items and gravestones (mirrors of committed rows, placed in the area
 * of interest), shop stock (memory only, restocked on the tick) and home-teleport casts and cooldowns.
 * Ground items and gravestones are reloaded from the database when the world starts; expiring them is a
 * transaction too (the ground-item sink, the gravestone → ground items release).
 */
import { randomUUID } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { GravestoneState, GroundItemState } from '../../../../schema/world-state.ts';
import { expireGravestone, type Gravestone } from '../../../../src/game/death.ts';
import { isVisibleTo, type GroundItem, type GroundItemTimings } from '../../../../src/game/ground-items.ts';
import type { InventoryItem, ItemMetadata } from '../../../../src/game/inventory.ts';
import { createStoreState, type StoreState } from '../../../../src/game/shop.ts';
import type { TrackedEntity } from '../../interest.ts';
import type { WorldApi } from '../../world-api.ts';
import { iso, millis, parseJson } from './common.ts';

export class GroundItemEntity implements TrackedEntity {
  readonly kind = 'groundItem' as const;
  readonly id: string;
  readonly state: GroundItemState;
  readonly item: GroundItem;

  constructor(item: GroundItem) {
    this.id = item.id;
    this.item = item;
    this.state = new GroundItemState();
    Object.assign(this.state, { id: item.id, itemId: item.itemId, quantity: item.quantity, x: item.x, z: item.z, ownerId: item.ownerId ?? '' });
  }

  get x(): number {
    return this.item.x;
  }

  get z(): number {
    return this.item.z;
  }

  visibleTo(observerId: string): boolean {
    return isVisibleTo(this.item, observerId, Date.now());
  }

  snapshot(): Record<string, unknown> {
    const i = this.item;
    return { kind: 'groundItem', id: i.id, itemId: i.itemId, quantity: i.quantity, x: i.x, z: i.z, ownerId: i.ownerId, publicAt: i.publicAt, expiresAt: i.expiresAt };
  }

  delta(): Record<string, unknown> {
    return { kind: 'groundItem', id: this.item.id, quantity: this.item.quantity };
  }
}

export class GravestoneEntity implements TrackedEntity {
  readonly kind = 'gravestone' as const;
  readonly id: string;
  readonly state: GravestoneState;
  gravestone: Gravestone;
  readonly ownerName: string;

  constructor(gravestone: Gravestone, ownerName: string) {
    this.id = gravestone.id;
    this.gravestone = gravestone;
    this.ownerName = ownerName;
    this.state = new GravestoneState();
    Object.assign(this.state, { id: gravestone.id, ownerId: gravestone.ownerId, ownerName, x: gravestone.x, z: gravestone.z, expiresAt: gravestone.expiresAt });
  }

  get x(): number {
    return this.gravestone.x;
  }

  get z(): number {
    return this.gravestone.z;
  }

  snapshot(): Record<string, unknown> {
    const g = this.gravestone;
    return { kind: 'gravestone', id: g.id, ownerId: g.ownerId, ownerName: this.ownerName, x: g.x, z: g.z, expiresAt: g.expiresAt };
  }

  delta(): Record<string, unknown> {
    return { kind: 'gravestone', id: this.gravestone.id, expiresAt: this.gravestone.expiresAt };
  }
}

export interface TeleportCast {
  readonly completesAtTick: number;
  readonly fromX: number;
  readonly fromZ: number;
}

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

export function groundItemFromRow(row: GroundRow): GroundItem {
  const metadata = row.metadata === null ? undefined : parseJson<ItemMetadata>(row.metadata);
  return {
    id: row.id, itemId: row.item_id, quantity: Number(row.quantity), ...(metadata ? { metadata } : {}),
    x: Number(row.x), z: Number(row.z), ownerId: row.owner_id,
    droppedAt: millis(row.dropped_at), publicAt: millis(row.public_at), expiresAt: millis(row.expires_at),
  };
}

export function gravestoneFromRow(row: DeathRow, tileSize: number): Gravestone {
  return {
    id: row.id, ownerId: row.character_id,
    x: Math.round(Number(row.position_x) / tileSize), z: Math.round(Number(row.position_z) / tileSize),
    items: parseJson<InventoryItem[]>(row.items),
    createdAt: millis(row.created_at), expiresAt: millis(row.expires_at),
  };
}

export const GROUND_COLUMNS = 'id, item_id, quantity, metadata, x, z, owner_id, dropped_at, public_at, expires_at';
export const DEATH_COLUMNS = 'id, character_id, position_x, position_z, items, created_at, expires_at';

export async function insertGroundItems(tx: SqlEntityManager, items: readonly GroundItem[]): Promise<void> {
  if (items.length === 0) return;
  await tx.execute(
    `insert into ground_items (${GROUND_COLUMNS}) values ${items.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    items.flatMap((i) => [
      i.id, i.itemId, i.quantity, i.metadata ? JSON.stringify(i.metadata) : null, i.x, i.z, i.ownerId,
      iso(i.droppedAt), iso(i.publicAt), iso(i.expiresAt),
    ]),
  );
}

/** Locks a ground item's row and returns it, or null when it is gone (picked up or expired). */
export async function lockGroundItem(tx: SqlEntityManager, id: string): Promise<GroundItem | null> {
  const [row] = await tx.execute<GroundRow[]>(`select ${GROUND_COLUMNS} from ground_items where id = ? for update`, [id]);
  return row ? groundItemFromRow(row) : null;
}

/** Locks an open death lock (status `locked`) and returns its gravestone, or null when it was reclaimed or released. */
export async function lockGravestone(tx: SqlEntityManager, id: string, tileSize: number): Promise<Gravestone | null> {
  const [row] = await tx.execute<DeathRow[]>(`select ${DEATH_COLUMNS} from player_deaths where id = ? and status = 'locked' for update`, [id]);
  return row ? gravestoneFromRow(row, tileSize) : null;
}

export class EconomyWorld {
  readonly world: WorldApi;
  readonly ground = new Map<string, GroundItemEntity>();
  readonly gravestones = new Map<string, GravestoneEntity>();
  readonly stores = new Map<string, StoreState>();
  readonly teleports = new Map<string, TeleportCast>();
  /** Character id → time (ms) from which the next home teleport is allowed. */
  readonly teleportReadyAt = new Map<string, number>();
  private sweeping = false;

  constructor(world: WorldApi) {
    this.world = world;
    for (const store of world.data.storesById.values()) this.stores.set(store.id, createStoreState(store));
  }

  groundTimings(): GroundItemTimings {
    const { config } = this.world.context();
    return { privateMs: config.groundItemPrivateSeconds * 1000, publicMs: config.groundItemPublicSeconds * 1000 };
  }

  placeGround(items: readonly GroundItem[]): void {
    for (const item of items) {
      const entity = new GroundItemEntity(item);
      this.ground.set(item.id, entity);
      this.world.addEntity(entity);
    }
  }

  removeGround(id: string): void {
    const entity = this.ground.get(id);
    if (!entity) return;
    this.ground.delete(id);
    this.world.removeEntity(entity);
  }

  placeGravestone(gravestone: Gravestone, ownerName: string): void {
    const entity = new GravestoneEntity(gravestone, ownerName);
    this.gravestones.set(gravestone.id, entity);
    this.world.addEntity(entity);
  }

  removeGravestone(id: string): void {
    const entity = this.gravestones.get(id);
    if (!entity) return;
    this.gravestones.delete(id);
    this.world.removeEntity(entity);
  }

  /** Startup: every ground item row and every open death lock comes back into the world. */
  async load(): Promise<void> {
    const em = this.world.context().db.em.fork();
    const ground = await em.execute<GroundRow[]>(`select ${GROUND_COLUMNS} from ground_items`);
    this.placeGround(ground.map(groundItemFromRow));
    const deaths = await em.execute<DeathRow[]>(
      `select d.id, d.character_id, d.position_x, d.position_z, d.items, d.created_at, d.expires_at, c.name
       from player_deaths d join characters c on c.id = d.character_id where d.status = 'locked'`,
    );
    for (const row of deaths) this.placeGravestone(gravestoneFromRow(row, this.world.data.world.tileSize), row.name ?? '');
  }

  /** Expires what is due: ground items leave the game; gravestones turn into public ground items. One at a time. */
  sweep(now: number): void {
    if (this.sweeping) return;
    const dueGround = [...this.ground.values()].filter((e) => now >= e.item.expiresAt).map((e) => e.id);
    const dueGraves = [...this.gravestones.values()].filter((e) => now >= e.gravestone.expiresAt).map((e) => e.id);
    if (dueGround.length === 0 && dueGraves.length === 0) return;
    this.sweeping = true;
    void this.expire(dueGround, dueGraves, now)
      .catch((error) => this.world.context().logger.error({ err: error }, 'expiring ground items or gravestones failed'))
      .finally(() => (this.sweeping = false));
  }

  private async expire(groundIds: string[], graveIds: string[], now: number): Promise<void> {
    const { db } = this.world.context();
    if (groundIds.length > 0) {
      // The sink: a row that a pick-up already took is simply not there any more.
      await db.em.fork().execute(
        `delete from ground_items where id in (${groundIds.map(() => '?').join(', ')}) and expires_at <= ?`,
        [...groundIds, iso(now)],
      );
      for (const id of groundIds) this.removeGround(id);
    }
    for (const id of graveIds) {
      const piles = await db.em.fork().transactional(async (tx) => {
        const gravestone = await lockGravestone(tx, id, this.world.data.world.tileSize);
        if (!gravestone) return [];
        const released = expireGravestone(gravestone, this.world.data.itemsById, now, () => randomUUID(), this.groundTimings());
        if (!released.ok) return null;
        await insertGroundItems(tx, released.value);
        await tx.execute(`update player_deaths set status = 'released', resolved_at = ? where id = ?`, [iso(now), id]);
        return released.value;
      });
      if (piles === null) continue;
      this.removeGravestone(id);
      this.placeGround(piles);
    }
  }
}

const economies = new WeakMap<WorldApi, EconomyWorld>();

export function installEconomyWorld(world: WorldApi): EconomyWorld {
  const economy = new EconomyWorld(world);
  economies.set(world, economy);
  return economy;
}

export function economyOf(world: WorldApi): EconomyWorld {
  const economy = economies.get(world);
  if (!economy) throw new Error('the economy feature is not installed in this world');
  return economy;
}

/**
 * What the economy keeps once per world (the `worldEconomy` slot): ground items and gravestones (mirrors of committed
 * rows, placed in the area of interest) and shop stock (memory only, restocked on the tick by the shops area).
 * Ground items and gravestones are reloaded from the database when the world starts; expiring them is a
 * transaction too (the ground-item sink, the gravestone → ground items release), run by the death area's sweep.
 */
import { randomUUID } from 'node:crypto';
import { GravestoneState, GroundItemState } from '../../../../schema/world-state.ts';
import { deleteExpiredGroundItems, insertGroundItems, loadGroundItems } from '../../../../src/db/ground-items.ts';
import { loadOpenGravestones, lockGravestone, markReleased } from '../../../../src/db/player-deaths.ts';
import { fencedTransaction } from '../../../../src/db/transaction.ts';
import { expireGravestone, type Gravestone } from '../../../../src/game/death.ts';
import { isVisibleTo, type GroundItem, type GroundItemTimings } from '../../../../src/game/ground-items.ts';
import { createStoreState, type StoreState } from '../../../../src/game/shop.ts';
import { WorldSlot } from '../../area.ts';
import { InterestScratch, type TrackedEntity } from '../../interest.ts';
import type { WorldApi } from '../../world-api.ts';

/** How often (in ticks) expired ground items and gravestones are swept. */
export const SWEEP_EVERY_TICKS = 2;

export class GroundItemEntity extends InterestScratch implements TrackedEntity {
  readonly kind = 'groundItem' as const;
  readonly id: string;
  readonly state: GroundItemState;
  readonly item: GroundItem;

  constructor(item: GroundItem) {
    super();
    this.id = item.id;
    this.item = item;
    this.state = new GroundItemState();
    Object.assign(this.state, { id: item.id, itemId: item.itemId, quantity: item.quantity, x: item.x, z: item.z, ownerId: item.ownerId ?? '', publicAt: item.publicAt, expiresAt: item.expiresAt });
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

export class GravestoneEntity extends InterestScratch implements TrackedEntity {
  readonly kind = 'gravestone' as const;
  readonly id: string;
  readonly state: GravestoneState;
  gravestone: Gravestone;
  readonly ownerName: string;

  constructor(gravestone: Gravestone, ownerName: string) {
    super();
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

export class EconomyWorld {
  readonly world: WorldApi;
  readonly ground = new Map<string, GroundItemEntity>();
  readonly gravestones = new Map<string, GravestoneEntity>();
  readonly stores = new Map<string, StoreState>();
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

  /** Startup: every ground item row and every open death lock of this world comes back into it. */
  async load(): Promise<void> {
    const { db } = this.world.context();
    this.placeGround(await loadGroundItems(db, this.world.worldNumber));
    for (const { gravestone, ownerName } of await loadOpenGravestones(db, this.world.worldNumber, this.world.data.world.tileSize)) this.placeGravestone(gravestone, ownerName);
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
      await fencedTransaction(db, this.world.fence(), (tx) => deleteExpiredGroundItems(tx, this.world.worldNumber, groundIds, now));
      for (const id of groundIds) this.removeGround(id);
    }
    for (const id of graveIds) {
      const piles = await fencedTransaction(db, this.world.fence(), async (tx) => {
        const gravestone = await lockGravestone(tx, id, this.world.data.world.tileSize);
        if (!gravestone) return [];
        const released = expireGravestone(gravestone, this.world.data.itemsById, now, () => randomUUID(), this.groundTimings());
        if (!released.ok) return null;
        await insertGroundItems(tx, this.world.worldNumber, released.value);
        await markReleased(tx, id, now);
        return released.value;
      });
      if (piles === null) continue;
      this.removeGravestone(id);
      this.placeGround(piles);
    }
  }
}

/** The world's economy state (made when the first economy area installs). */
export const worldEconomy = new WorldSlot<EconomyWorld>('economy', (world) => new EconomyWorld(world));

/**
 * Death: the player keeps the K most valuable items (by item value per unit; untradeable items are always kept
 * and do not count toward K) where they were, in the inventory or worn; everything else goes into a new
 * gravestone at the place of death. Gravestones are independent records: dying again creates another one from
 * what the player carries then, and never touches an earlier one. An unclaimed gravestone turns into public
 * ground items when it expires.
 */
import { EQUIPMENT_SLOTS, type EquipmentSlot } from '../manifests/schemas/items.ts';
import { wornItems, type Loadout } from './equipment.ts';
import { DEFAULT_GROUND_TIMINGS, placeGroundItem, type GroundItem, type GroundItemTimings } from './ground-items.ts';
import { addAsMuchAsFits, type Inventory, type InventoryItem, type InventorySlot } from './inventory.ts';
import type { ItemAmount, ItemDefinitions } from './items.ts';
import { ok, refuse, type Result } from './result.ts';
import { checkConserved, totalsOf } from './totals.ts';

export const DEFAULT_KEPT_ON_DEATH = 3;
export const DEFAULT_GRAVESTONE_MS = 15 * 60_000;

export interface Gravestone {
  readonly id: string;
  readonly ownerId: string;
  readonly x: number;
  readonly z: number;
  readonly items: readonly InventoryItem[];
  readonly createdAt: number;
  readonly expiresAt: number;
}

export type DeathCode = 'NOT_YOUR_GRAVESTONE' | 'EXPIRED' | 'NOT_EXPIRED' | 'INVENTORY_FULL' | 'CONSERVATION_VIOLATED';

type Place = { kind: 'inventory'; slot: number } | { kind: 'equipment'; slot: EquipmentSlot };

/** Splits a loadout: what stays (in place) and what is lost. `keep` is K (0 when skulled, for example). */
export function splitOnDeath(
  loadout: Loadout,
  items: ItemDefinitions,
  keep: number = DEFAULT_KEPT_ON_DEATH,
): { kept: Loadout; lost: InventoryItem[] } {
  const places: { place: Place; stack: InventoryItem; order: number }[] = [];
  EQUIPMENT_SLOTS.forEach((slot) => {
    const stack = loadout.equipment[slot];
    if (stack) places.push({ place: { kind: 'equipment', slot }, stack, order: places.length });
  });
  loadout.inventory.forEach((stack, slot) => {
    if (stack) places.push({ place: { kind: 'inventory', slot }, stack, order: places.length });
  });

  const keptUnits = new Map<number, number>();
  const valueOf = (stack: InventoryItem) => items.get(stack.itemId)?.value ?? 0;
  let left = Math.max(0, Math.floor(keep));
  for (const entry of places) if (items.get(entry.stack.itemId)?.tradeable === false) keptUnits.set(entry.order, entry.stack.quantity);
  const byValue = places
    .filter((e) => !keptUnits.has(e.order))
    .sort((a, b) => valueOf(b.stack) - valueOf(a.stack) || a.order - b.order);
  for (const entry of byValue) {
    if (left === 0) break;
    const units = Math.min(left, entry.stack.quantity);
    keptUnits.set(entry.order, units);
    left -= units;
  }

  const inventory: InventorySlot[] = loadout.inventory.map(() => null);
  const equipment: Record<EquipmentSlot, InventoryItem | null> = { ...loadout.equipment };
  const lost: InventoryItem[] = [];
  for (const { place, stack, order } of places) {
    const kept = keptUnits.get(order) ?? 0;
    const keptStack = kept > 0 ? { ...stack, quantity: kept } : null;
    if (place.kind === 'inventory') inventory[place.slot] = keptStack;
    else equipment[place.slot] = keptStack;
    if (kept < stack.quantity) lost.push({ ...stack, quantity: stack.quantity - kept });
  }
  return { kept: { inventory, equipment }, lost };
}

export interface DeathOptions {
  readonly gravestoneId: string;
  readonly ownerId: string;
  readonly x: number;
  readonly z: number;
  readonly now: number;
  readonly keep?: number;
  readonly gravestoneMs?: number;
}

/** The loadout after death and the new gravestone (null when nothing was lost). */
export function die(
  loadout: Loadout,
  items: ItemDefinitions,
  options: DeathOptions,
): { loadout: Loadout; gravestone: Gravestone | null } {
  const { kept, lost } = splitOnDeath(loadout, items, options.keep);
  const gravestone =
    lost.length === 0
      ? null
      : {
          id: options.gravestoneId,
          ownerId: options.ownerId,
          x: options.x,
          z: options.z,
          items: lost,
          createdAt: options.now,
          expiresAt: options.now + (options.gravestoneMs ?? DEFAULT_GRAVESTONE_MS),
        };
  return { loadout: kept, gravestone };
}

/**
 * Items before death = items kept + items in the gravestone, per item id. The room calls this before
 * committing a death; a refusal means a bug, and nothing must be written.
 */
export function checkDeathConservation(
  before: Loadout,
  after: { loadout: Loadout; gravestone: Gravestone | null },
): Result<true, 'CONSERVATION_VIOLATED'> {
  const expected = totalsOf(before.inventory, wornItems(before.equipment));
  const actual = totalsOf(after.loadout.inventory, wornItems(after.loadout.equipment), after.gravestone?.items ?? []);
  return checkConserved(expected, actual);
}

/**
 * The owner takes from their gravestone as much as fits into the inventory; the rest stays in it.
 * The gravestone comes back null once empty. Refused when it has expired or nothing fits.
 */
export function claimGravestone(
  inventory: Inventory,
  items: ItemDefinitions,
  gravestone: Gravestone,
  playerId: string,
  now: number,
): Result<{ inventory: Inventory; gravestone: Gravestone | null; claimed: ItemAmount[] }, DeathCode> {
  if (gravestone.ownerId !== playerId) return refuse('NOT_YOUR_GRAVESTONE', 'this gravestone belongs to someone else');
  if (now >= gravestone.expiresAt) return refuse('EXPIRED', 'the gravestone has crumbled');
  let work: Inventory = inventory;
  const claimed: ItemAmount[] = [];
  const remaining: InventoryItem[] = [];
  for (const stack of gravestone.items) {
    const added = addAsMuchAsFits(work, items, [stack]);
    const moved = added.ok ? (added.value.added[0]?.quantity ?? 0) : 0;
    if (added.ok) work = added.value.inventory;
    if (moved > 0) claimed.push({ itemId: stack.itemId, quantity: moved });
    if (moved < stack.quantity) remaining.push({ ...stack, quantity: stack.quantity - moved });
  }
  if (claimed.length === 0) return refuse('INVENTORY_FULL', 'no room in the inventory');
  return ok({ inventory: work, gravestone: remaining.length === 0 ? null : { ...gravestone, items: remaining }, claimed });
}

/**
 * An expired gravestone becomes ground items on its tile, visible to everyone at once (untradeable items, which
 * are kept on death, would stay private to the owner). Refused before it expires.
 */
export function expireGravestone(
  gravestone: Gravestone,
  items: ItemDefinitions,
  now: number,
  nextId: () => string,
  timings: GroundItemTimings = DEFAULT_GROUND_TIMINGS,
): Result<GroundItem[], DeathCode> {
  if (now < gravestone.expiresAt) return refuse('NOT_EXPIRED', 'the gravestone has not expired yet');
  const piles: GroundItem[] = [];
  for (const stack of gravestone.items) {
    const definition = items.get(stack.itemId);
    const stackable = definition?.stackable ?? true;
    const tradeable = definition?.tradeable ?? true;
    const ownerId = tradeable ? null : gravestone.ownerId;
    for (let i = 0; i < (stackable ? 1 : stack.quantity); i++) {
      const pile = stackable ? stack : { ...stack, quantity: 1 };
      piles.push(placeGroundItem(pile, tradeable, { id: nextId(), x: gravestone.x, z: gravestone.z, ownerId, now, timings }));
    }
  }
  return ok(piles);
}

/** The items a loadout holds (inventory stacks, then worn items): what a player kept through a death. */
export function keptItems(loadout: Loadout): InventoryItem[] {
  return [...loadout.inventory, ...Object.values(loadout.equipment)].filter((s): s is InventoryItem => s !== null);
}

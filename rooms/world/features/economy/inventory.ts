/**
 * `inventory:use` (eat, wield/wear, bury), `inventory:move`, `inventory:drop` and `groundItem:pickup`. Drops and
 * pick-ups write the ground_items row in the same transaction as the inventory, so an item is always in exactly
 * one of them.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { eat } from '../../../../src/game/food.ts';
import { pickUp, placeGroundItem, type GroundItem } from '../../../../src/game/ground-items.ts';
import { moveSlot, removeFromSlot } from '../../../../src/game/inventory.ts';
import { buryBones } from '../../../../src/game/prayer.ts';
import { MAX_XP, levelForXp } from '../../../../src/game/skills.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { grantXp } from '../skills/skill-book.ts';
import { HEALTH_SCALE, ItemId, QuantityValue, SlotNumber, checkQuantity, heldIn, moveOwnItems, refuse, unwrap, withinReach } from './common.ts';
import { equipFromSlot } from './equipment.ts';
import { economyOf, insertGroundItems, lockGroundItem } from './state.ts';

export const UseRequest = z.object({ slot: SlotNumber, itemId: ItemId }).strict();
export const MoveSlotRequest = z.object({ from: SlotNumber, to: SlotNumber }).strict();
export const DropRequest = z.object({ slot: SlotNumber, quantity: QuantityValue.optional() }).strict();
export const PickupRequest = z.object({ groundItemId: z.string().min(1).max(64) }).strict();

async function eatFrom(world: WorldApi, player: OnlinePlayer, slot: number, itemId: string): Promise<void> {
  const healed = await moveOwnItems(world, player, 'eat', async (tx, containers) => {
    heldIn(containers.inventory, slot, itemId);
    const before = player.state.health;
    const ate = unwrap(eat(containers.inventory, world.data.itemsById, slot, before, player.state.maxHealth));
    const heal = world.data.itemsById.get(itemId)!.heal! * HEALTH_SCALE;
    const health = Math.min(player.state.maxHealth, before + heal);
    await tx.execute('update characters set health = ? where id = ?', [health, player.id]);
    return { value: health - before, after: { ...containers, inventory: ate.inventory } };
  });
  player.state.health = Math.min(player.state.maxHealth, player.state.health + healed);
  world.markChanged(player);
  player.client.send('player:sync', player.sync());
  player.client.send('inventory:used', { slot, itemId, effect: 'eaten', healed, health: player.state.health });
}

/**
 * Burying bones (a sink) gives their prayer XP: its whole part is written with the bones' removal (never lost),
 * then the skill book gains the exact amount (`skill:xp`, level-ups) and its batched save keeps the greater value.
 */
async function bury(world: WorldApi, player: OnlinePlayer, slot: number, itemId: string): Promise<void> {
  const gained = await moveOwnItems(world, player, 'bury bones', async (tx, containers) => {
    heldIn(containers.inventory, slot, itemId);
    const buried = unwrap(buryBones(containers.inventory, world.data.itemsById, slot));
    const [row] = await tx.execute<Array<{ prayer_xp: number }>>('select prayer_xp from characters where id = ?', [player.id]);
    const xp = Math.min(MAX_XP, Number(row.prayer_xp) + Math.floor(buried.xp));
    await tx.execute('update characters set prayer_xp = ?, prayer_level = ? where id = ?', [xp, levelForXp(xp), player.id]);
    return { value: buried.xp, after: { ...containers, inventory: buried.inventory } };
  });
  player.client.send('inventory:used', { slot, itemId, effect: 'buried', prayerXp: gained });
  grantXp(world, player, 'prayer', gained);
}

async function use(world: WorldApi, player: OnlinePlayer, slot: number, itemId: string): Promise<void> {
  player.assertFree('use items');
  const definition = world.data.itemsById.get(itemId);
  if (!definition) throw new GameError('UNKNOWN_ITEM', `no item '${itemId}'`);
  if (definition.heal !== undefined) return eatFrom(world, player, slot, itemId);
  if (definition.equipment) {
    await equipFromSlot(world, player, slot, itemId);
    player.client.send('inventory:used', { slot, itemId, effect: 'equipped' });
    return;
  }
  if (definition.prayerXp !== undefined) return bury(world, player, slot, itemId);
  throw new GameError('NOTHING_TO_DO', `Nothing interesting happens with ${definition.name}`);
}

async function drop(world: WorldApi, player: OnlinePlayer, slot: number, quantity: number | undefined): Promise<void> {
  player.assertFree('drop items');
  if (quantity !== undefined) checkQuantity(quantity);
  const economy = economyOf(world);
  const dropped = await moveOwnItems(world, player, 'drop items', async (tx, containers) => {
    const held = heldIn(containers.inventory, slot);
    const definition = world.data.itemsById.get(held.itemId);
    if (!definition) refuse('UNKNOWN_ITEM', `no item '${held.itemId}'`);
    // Amounts above the stack are clamped (as in the bank and shops); an unstackable slot holds exactly one.
    const amount = Math.min(quantity ?? held.quantity, held.quantity);
    const taken = unwrap(removeFromSlot(containers.inventory, slot, amount));
    const groundItem = placeGroundItem(taken.removed, definition.tradeable, {
      id: randomUUID(), x: player.x, z: player.z, ownerId: player.id, now: Date.now(), timings: economy.groundTimings(),
    });
    await insertGroundItems(tx, [groundItem]);
    return { value: groundItem, after: { ...containers, inventory: taken.inventory } };
  });
  economy.placeGround([dropped]);
  player.client.send('inventory:dropped', { groundItemId: dropped.id, itemId: dropped.itemId, quantity: dropped.quantity, x: dropped.x, z: dropped.z });
}

async function pickup(world: WorldApi, player: OnlinePlayer, groundItemId: string): Promise<void> {
  const economy = economyOf(world);
  player.assertFree('pick up items');
  const entity = economy.ground.get(groundItemId);
  if (!entity || !entity.visibleTo(player.id)) throw new GameError('NOT_FOUND', 'There is no such item here');
  if (!withinReach(player, entity.x, entity.z)) throw new GameError('OUT_OF_REACH', 'Walk closer to pick that up');
  let taken: GroundItem | null = null;
  try {
    await moveOwnItems(world, player, 'pick up items', async (tx, containers) => {
      const item = await lockGroundItem(tx, groundItemId);
      if (!item) refuse('EXPIRED', 'the item is gone');
      const inventory = unwrap(pickUp(containers.inventory, world.data.itemsById, item, player.id, Date.now()));
      await tx.execute('delete from ground_items where id = ?', [groundItemId]);
      taken = item;
      return { value: null, after: { ...containers, inventory } };
    });
  } catch (error) {
    if (error instanceof GameError && error.code === 'EXPIRED') economy.removeGround(groundItemId);
    throw error;
  }
  economy.removeGround(groundItemId);
  const item = taken as GroundItem | null;
  player.client.send('groundItem:pickedUp', { groundItemId, itemId: item?.itemId, quantity: item?.quantity });
}

export function installInventory(world: WorldApi): void {
  world.handle('inventory:use', UseRequest, (player, { slot, itemId }) => use(world, player, slot, itemId));
  world.handle('inventory:move', MoveSlotRequest, async (player, { from, to }) => {
    await moveOwnItems(world, player, 'move items', async (_tx, containers) => ({
      value: null, after: { ...containers, inventory: unwrap(moveSlot(containers.inventory, from, to)) },
    }));
  });
  world.handle('inventory:drop', DropRequest, (player, { slot, quantity }) => drop(world, player, slot, quantity));
  world.handle('groundItem:pickup', PickupRequest, (player, { groundItemId }) => pickup(world, player, groundItemId));
}

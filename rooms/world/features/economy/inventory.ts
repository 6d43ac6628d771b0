/**
 * `inventory:use` (eat, wield/wear, bury), `inventory:move`, `inventory:drop` and `groundItem:pickup`. Drops and
 * pick-ups write the ground_items row in the same transaction as the inventory, so an item is always in exactly
 * one of them.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { loadPrayerXp, writeHealth, writePrayerXp } from '../../../../src/db/character-stats.ts';
import { deleteGroundItem, insertGroundItems, lockGroundItem } from '../../../../src/db/ground-items.ts';
import { eat, healthAfterEating } from '../../../../src/game/food.ts';
import { dropFromInventory, pickUp, type GroundItem } from '../../../../src/game/ground-items.ts';
import { moveSlot, stackIn } from '../../../../src/game/inventory.ts';
import { buryBones } from '../../../../src/game/prayer.ts';
import { addTenths, pointsOf } from '../../../../src/game/experience.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { defineArea, on } from '../../area.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { grantXp } from '../../skill-book.ts';
import { ItemId, QuantityValue, SlotNumber, checkQuantity, moveOwnItems, refuse, unwrap, withinReach } from './common.ts';
import { equipFromSlot } from './equipment.ts';
import { worldEconomy } from './state.ts';

export const UseRequest = z.object({ slot: SlotNumber, itemId: ItemId }).strict();
export const MoveSlotRequest = z.object({ from: SlotNumber, to: SlotNumber }).strict();
export const DropRequest = z.object({ slot: SlotNumber, quantity: QuantityValue.optional() }).strict();
export const PickupRequest = z.object({ groundItemId: z.string().min(1).max(64) }).strict();

/** Eating: the food leaves the game and the health is written in one transaction; one `player:sync` shows both. */
async function eatFrom(world: WorldApi, player: OnlinePlayer, slot: number, itemId: string): Promise<void> {
  const healed = await moveOwnItems(world, player, 'eat', async (tx, containers) => {
    unwrap(stackIn(containers.inventory, slot, itemId));
    const before = player.state.health;
    const ate = unwrap(eat(containers.inventory, world.data.itemsById, slot, before, player.state.maxHealth));
    const health = healthAfterEating(before, player.state.maxHealth, world.data.itemsById.get(itemId)!.heal!);
    await writeHealth(tx, player.id, health);
    return { value: health - before, after: { ...containers, inventory: ate.inventory } };
  }, {
    afterCommit: (gained) => {
      player.state.health = Math.min(player.state.maxHealth, player.state.health + gained);
      world.markChanged(player);
    },
  });
  player.client.send('inventory:used', { slot, itemId, effect: 'eaten', healed, health: player.state.health });
}

/**
 * Burying bones (a sink) gives their prayer XP: written (in tenths, exactly) with the bones' removal, so it is never
 * lost, then the skill book gains the same amount (`skill:xp`, level-ups) and its batched save keeps the greater value.
 */
async function bury(world: WorldApi, player: OnlinePlayer, slot: number, itemId: string): Promise<void> {
  const gained = await moveOwnItems(world, player, 'bury bones', async (tx, containers) => {
    unwrap(stackIn(containers.inventory, slot, itemId));
    const buried = unwrap(buryBones(containers.inventory, world.data.itemsById, slot));
    await writePrayerXp(tx, player.id, addTenths(await loadPrayerXp(tx, player.id), buried.xpTenths));
    return { value: buried.xpTenths, after: { ...containers, inventory: buried.inventory } };
  });
  player.client.send('inventory:used', { slot, itemId, effect: 'buried', prayerXp: pointsOf(gained) });
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
  const economy = worldEconomy.of(world);
  const dropped = await moveOwnItems(world, player, 'drop items', async (tx, containers) => {
    // Amounts above the stack are clamped (as in the bank and shops); an unstackable slot holds exactly one.
    const { inventory, groundItem } = unwrap(dropFromInventory(containers.inventory, world.data.itemsById, slot, {
      id: randomUUID(), x: player.x, z: player.z, ownerId: player.id, now: Date.now(), timings: economy.groundTimings(),
    }, quantity));
    await insertGroundItems(tx, world.worldNumber, [groundItem]);
    return { value: groundItem, after: { ...containers, inventory } };
  }, {
    check: () => {
      if (quantity !== undefined) checkQuantity(quantity);
    },
  });
  economy.placeGround([dropped]);
  player.client.send('inventory:dropped', { groundItemId: dropped.id, itemId: dropped.itemId, quantity: dropped.quantity, x: dropped.x, z: dropped.z });
}

async function pickup(world: WorldApi, player: OnlinePlayer, groundItemId: string): Promise<void> {
  const economy = worldEconomy.of(world);
  const check = () => {
    const entity = economy.ground.get(groundItemId);
    if (!entity || !entity.visibleTo(player.id)) throw new GameError('NOT_FOUND', 'There is no such item here');
    if (!withinReach(player, entity.x, entity.z)) throw new GameError('OUT_OF_REACH', 'Walk closer to pick that up');
  };
  let taken: GroundItem | null = null;
  try {
    await moveOwnItems(world, player, 'pick up items', async (tx, containers) => {
      const item = await lockGroundItem(tx, groundItemId);
      if (!item) refuse('EXPIRED', 'the item is gone');
      const inventory = unwrap(pickUp(containers.inventory, world.data.itemsById, item, player.id, Date.now()));
      await deleteGroundItem(tx, groundItemId);
      taken = item;
      return { value: null, after: { ...containers, inventory } };
    }, { check });
  } catch (error) {
    if (error instanceof GameError && error.code === 'EXPIRED') economy.removeGround(groundItemId);
    throw error;
  }
  economy.removeGround(groundItemId);
  const item = taken as GroundItem | null;
  player.client.send('groundItem:pickedUp', { groundItemId, itemId: item?.itemId, quantity: item?.quantity });
}

export const inventory = defineArea({
  name: 'inventory',
  messages: {
    'inventory:use': on(UseRequest, ({ world, player }, { slot, itemId }) => use(world, player, slot, itemId)),
    'inventory:move': on(MoveSlotRequest, async ({ world, player }, { from, to }) => {
      await moveOwnItems(world, player, 'move items', async (_tx, containers) => ({
        value: null, after: { ...containers, inventory: unwrap(moveSlot(containers.inventory, from, to)) },
      }));
    }),
    'inventory:drop': on(DropRequest, ({ world, player }, { slot, quantity }) => drop(world, player, slot, quantity)),
    'groundItem:pickup': on(PickupRequest, ({ world, player }, { groundItemId }) => pickup(world, player, groundItemId)),
  },
  // Burying bones gains prayer experience through the skill book (skill:xp, skill:levelUp, prayer:state).
  sends: ['inventory:used', 'inventory:dropped', 'groundItem:pickedUp', 'player:sync', 'skill:xp', 'skill:levelUp', 'prayer:state'],
});

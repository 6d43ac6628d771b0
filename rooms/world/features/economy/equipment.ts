/** `equipment:equip {inventorySlot}` and `equipment:unequip {slot}`: level requirements, two-handed rules. */
import { z } from 'zod';
import { equip, unequip, type EquipmentSlot } from '../../../../src/game/equipment.ts';
import { defineArea, on } from '../../area.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { stackIn } from '../../../../src/game/inventory.ts';
import { SlotNumber, loadLevels, moveOwnItems, unwrap } from './common.ts';

export const EquipRequest = z.object({ inventorySlot: SlotNumber, itemId: z.string().optional() }).strict();
export const UnequipRequest = z.object({ slot: z.string().max(32) }).strict();

/** Wears the item in an inventory slot (optionally checking which item it is); returns the item id. */
export function equipFromSlot(world: WorldApi, player: OnlinePlayer, inventorySlot: number, itemId?: string): Promise<string> {
  return moveOwnItems(world, player, 'equip items', async (tx, containers) => {
    const held = unwrap(stackIn(containers.inventory, inventorySlot, itemId));
    const levels = await loadLevels(tx, player.id);
    const after = unwrap(equip(containers, world.data.itemsById, inventorySlot, levels));
    return { value: held.itemId, after: { ...containers, ...after } };
  });
}

export const equipment = defineArea({
  name: 'equipment',
  messages: {
    'equipment:equip': on(EquipRequest, async ({ world, player }, { inventorySlot, itemId }) => {
      await equipFromSlot(world, player, inventorySlot, itemId);
    }),
    'equipment:unequip': on(UnequipRequest, async ({ world, player }, { slot }) => {
      await moveOwnItems(world, player, 'unequip items', async (_tx, containers) => {
        const after = unwrap(unequip(containers, world.data.itemsById, slot as EquipmentSlot));
        return { value: null, after: { ...containers, ...after } };
      });
    }),
  },
  sends: ['player:sync'],
});

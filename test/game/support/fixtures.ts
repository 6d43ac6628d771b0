import type { z } from 'zod';
import { Item } from '../../../src/manifests/schemas/items.ts';
import type { ItemDefinitions } from '../../../src/game/items.ts';
import { emptyInventory, type Inventory, type InventoryItem } from '../../../src/game/inventory.ts';

type ItemInput = Partial<z.input<typeof Item>> & { id: string };

/** Item definitions from short descriptions (schema defaults fill the rest). */
export function defineItems(...inputs: ItemInput[]): ItemDefinitions {
  return new Map(
    inputs.map((input) => {
      const item = Item.parse({ name: input.id, value: 1, stackable: false, tradeable: true, ...input });
      return [item.id, item];
    }),
  );
}

/** A small catalogue used across the unit tests. */
export const ITEMS = defineItems(
  { id: 'coins', stackable: true, value: 1 },
  { id: 'feather', stackable: true, value: 2 },
  { id: 'logs', value: 4 },
  { id: 'shrimp', value: 6, heal: 3 },
  { id: 'bones', value: 1, prayerXp: 4.5 },
  { id: 'locket', value: 0, tradeable: false, questItem: true },
  { id: 'gem', value: 500 },
  { id: 'sword', value: 26, equipment: { slot: 'weapon', requirements: { attack: 1 }, bonuses: { attackSlash: 5, attackStab: 4, meleeStrength: 5 }, attackSpeed: 4, style: 'melee' } },
  { id: 'iron_sword', value: 91, equipment: { slot: 'weapon', requirements: { attack: 10 }, bonuses: { attackSlash: 8, meleeStrength: 7 }, attackSpeed: 4, style: 'melee' } },
  { id: 'greatsword', value: 80, equipment: { slot: 'weapon', twoHanded: true, bonuses: { attackSlash: 9, meleeStrength: 10 }, attackSpeed: 7, style: 'melee' } },
  { id: 'bow', value: 100, equipment: { slot: 'weapon', twoHanded: true, requirements: { ranged: 5 }, bonuses: { attackRanged: 14 }, attackSpeed: 4, style: 'ranged' } },
  { id: 'shield', value: 68, equipment: { slot: 'shield', requirements: { defense: 1 }, bonuses: { defenseSlash: 6, defenseStab: 5 } } },
  { id: 'helm', value: 44, equipment: { slot: 'head', bonuses: { defenseSlash: 5 } } },
  { id: 'arrows', value: 1, stackable: true, equipment: { slot: 'ammunition', requirements: { ranged: 1 }, bonuses: { rangedStrength: 7 } } },
  { id: 'iron_arrows', value: 3, stackable: true, equipment: { slot: 'ammunition', requirements: { ranged: 10 }, bonuses: { rangedStrength: 10 } } },
);

/** An inventory from a sparse list: `[slot, itemId, quantity]`. */
export function inventoryOf(...entries: [number, string, number][]): Inventory {
  const inventory = [...emptyInventory()];
  for (const [slot, itemId, quantity] of entries) inventory[slot] = { itemId, quantity };
  return inventory;
}

/** An inventory whose first `count` slots hold one log each. */
export function filledWithLogs(count: number, base: Inventory = emptyInventory()): Inventory {
  const inventory = [...base];
  let left = count;
  for (let i = 0; i < inventory.length && left > 0; i++) {
    if (inventory[i] === null) {
      inventory[i] = { itemId: 'logs', quantity: 1 } satisfies InventoryItem;
      left--;
    }
  }
  return inventory;
}

/** Deep-freezes a value so a test fails loudly if a rule mutates its input. */
export function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const key of Reflect.ownKeys(value)) frozen((value as Record<PropertyKey, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

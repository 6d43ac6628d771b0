/**
 * Worn equipment: one item per slot (a stack in the ammunition slot, or any stackable). Equipping and unequipping
 * move items between the inventory and the slots all-or-nothing.
 */
import { EQUIPMENT_SLOTS, EquipmentBonuses, type EquipmentSlot } from '../manifests/schemas/items.ts';
import { applyTransfer, isValidSlot, type Inventory, type InventoryCode, type InventoryItem, type InventorySlot } from './inventory.ts';
import type { ItemDefinitions } from './items.ts';
import { MAX_STACK, addQuantities } from './quantity.ts';
import { ok, refuse, type Result } from './result.ts';
import { describeUnmet, unmetRequirements, type Levels } from './skills.ts';

export { EQUIPMENT_SLOTS, type EquipmentSlot };

export type Equipment = Readonly<Record<EquipmentSlot, InventoryItem | null>>;

/** What equipping and unequipping change together. */
export interface Loadout {
  readonly inventory: Inventory;
  readonly equipment: Equipment;
}

export type EquipCode = InventoryCode | 'NOT_EQUIPABLE' | 'LEVEL_TOO_LOW' | 'INVALID_EQUIPMENT_SLOT' | 'SLOT_EMPTY';

export function emptyEquipment(): Equipment {
  return Object.fromEntries(EQUIPMENT_SLOTS.map((slot) => [slot, null])) as Record<EquipmentSlot, null>;
}

export function isEquipmentSlot(value: unknown): value is EquipmentSlot {
  return typeof value === 'string' && (EQUIPMENT_SLOTS as readonly string[]).includes(value);
}

/** The worn items, in slot order. */
export function wornItems(equipment: Equipment): InventoryItem[] {
  return EQUIPMENT_SLOTS.flatMap((slot) => (equipment[slot] ? [equipment[slot]] : []));
}

/**
 * Wears the item in an inventory slot. Whatever it displaces goes back to the inventory: the item already in that
 * slot, the shield when a two-handed weapon goes on, a two-handed weapon when a shield goes on. Refused (and
 * nothing changes) when a level requirement is not met or the inventory cannot take the displaced items back.
 * Wearing more of a stackable that is already worn (arrows) adds to the worn stack.
 */
export function equip(loadout: Loadout, items: ItemDefinitions, inventorySlot: number, levels: Levels): Result<Loadout, EquipCode> {
  const { inventory, equipment } = loadout;
  if (!isValidSlot(inventory, inventorySlot)) {
    return refuse('INVALID_SLOT', `slots must be whole numbers from 0 to ${inventory.length - 1}`);
  }
  const held = inventory[inventorySlot];
  if (held === null) return refuse('EMPTY_SLOT', `slot ${inventorySlot} is empty`);
  const definition = items.get(held.itemId);
  if (!definition?.equipment) return refuse('NOT_EQUIPABLE', `${held.itemId} cannot be worn`);
  const unmet = unmetRequirements(definition.equipment.requirements, levels);
  if (unmet.length > 0) return refuse('LEVEL_TOO_LOW', `${held.itemId} needs ${describeUnmet(unmet)}`);

  const slot = definition.equipment.slot;
  const current = equipment[slot];
  let worn: InventoryItem = held;
  const displaced: EquipmentSlot[] = [];
  if (current && current.itemId === held.itemId && definition.stackable) {
    const total = addQuantities(current.quantity, held.quantity);
    if (total === null) return refuse('STACK_LIMIT', `a worn stack of ${held.itemId} cannot exceed ${MAX_STACK}`);
    worn = { ...current, quantity: total };
  } else if (current) displaced.push(slot);
  if (slot === 'weapon' && definition.equipment.twoHanded && equipment.shield) displaced.push('shield');
  if (slot === 'shield' && equipment.weapon && items.get(equipment.weapon.itemId)?.equipment?.twoHanded) displaced.push('weapon');

  const after = returnToInventory(inventory, items, inventorySlot, held, displaced.map((s) => equipment[s]!));
  if (!after.ok) return after;
  const nextEquipment: Record<EquipmentSlot, InventoryItem | null> = { ...equipment };
  for (const s of displaced) nextEquipment[s] = null;
  nextEquipment[slot] = worn;
  return ok({ inventory: after.value, equipment: nextEquipment });
}

/** Takes off the item in a slot into the inventory; refused when the inventory cannot take it. */
export function unequip(loadout: Loadout, items: ItemDefinitions, slot: EquipmentSlot): Result<Loadout, EquipCode> {
  if (!isEquipmentSlot(slot)) return refuse('INVALID_EQUIPMENT_SLOT', `no equipment slot '${String(slot)}'`);
  const worn = loadout.equipment[slot];
  if (!worn) return refuse('SLOT_EMPTY', `nothing is worn in the ${slot} slot`);
  const inventory = applyTransfer(loadout.inventory, items, [], [worn]);
  if (!inventory.ok) return inventory;
  return ok({ inventory: inventory.value, equipment: { ...loadout.equipment, [slot]: null } });
}

/** The sum of the bonuses of everything worn (items without a definition count as nothing). */
export function totalBonuses(equipment: Equipment, items: ItemDefinitions): EquipmentBonuses {
  const total: Record<keyof EquipmentBonuses, number> = { ...EquipmentBonuses.parse({}) };
  for (const worn of wornItems(equipment)) {
    const bonuses = items.get(worn.itemId)?.equipment?.bonuses;
    if (!bonuses) continue;
    for (const key of Object.keys(total) as (keyof EquipmentBonuses)[]) total[key] += bonuses[key];
  }
  return total;
}

/**
 * Empties the inventory slot and puts the displaced items back. The first displaced item takes the emptied slot
 * (a swap stays in place); the rest go wherever the inventory rules put them.
 */
function returnToInventory(
  inventory: Inventory,
  items: ItemDefinitions,
  slot: number,
  held: InventoryItem,
  displaced: readonly InventoryItem[],
): Result<Inventory, InventoryCode> {
  const removed = applyTransfer(inventory, items, [{ slot, quantity: held.quantity, itemId: held.itemId }], []);
  if (!removed.ok) return removed;
  const work: InventorySlot[] = [...removed.value];
  const [first, ...rest] = displaced;
  if (first && !(items.get(first.itemId)?.stackable && work.some((s) => s?.itemId === first.itemId))) {
    work[slot] = first;
    return applyTransfer(work, items, [], rest);
  }
  return applyTransfer(work, items, [], displaced);
}

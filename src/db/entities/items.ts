import { defineEntity, p } from '@mikro-orm/core';
import { Character } from './character.ts';

/** Item definitions, mirrored from the item manifests so SQL checks can join on them. */
export const ItemSchema = defineEntity({
  name: 'Item',
  tableName: 'items',
  properties: {
    id: p.text().primary(),
    name: p.text(),
    value: p.integer().default(0),
    stackable: p.boolean().default(false),
    tradeable: p.boolean().default(true),
    definition: p.json<Record<string, unknown>>().nullable(),
  },
});
export class Item extends ItemSchema.class {}
ItemSchema.setClass(Item);

/** One occupied inventory slot (0–27). Empty slots have no row. */
export const InventorySlotSchema = defineEntity({
  name: 'InventorySlot',
  tableName: 'inventory',
  uniques: [{ name: 'inventory_character_slot_unique', properties: ['characterId', 'slot'] }],
  checks: [
    { name: 'inventory_slot_range', expression: 'slot >= 0 and slot < 28' },
    { name: 'inventory_quantity_positive', expression: 'quantity >= 1' },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    characterId: () => p.manyToOne(Character).mapToPk().fieldName('character_id').deleteRule('cascade'),
    slot: p.smallint(),
    itemId: p.text(),
    quantity: p.integer(),
    metadata: p.json<Record<string, unknown>>().nullable(),
  },
});
export class InventorySlot extends InventorySlotSchema.class {}
InventorySlotSchema.setClass(InventorySlot);

/** A worn item, one per slot type. */
export const EquipmentSlotSchema = defineEntity({
  name: 'EquipmentSlot',
  tableName: 'equipment',
  uniques: [{ name: 'equipment_character_slot_unique', properties: ['characterId', 'slotType'] }],
  checks: [{ name: 'equipment_quantity_positive', expression: 'quantity >= 1' }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    characterId: () => p.manyToOne(Character).mapToPk().fieldName('character_id').deleteRule('cascade'),
    slotType: p.text(),
    itemId: p.text(),
    quantity: p.integer().default(1),
    metadata: p.json<Record<string, unknown>>().nullable(),
  },
});
export class EquipmentSlot extends EquipmentSlotSchema.class {}
EquipmentSlotSchema.setClass(EquipmentSlot);

import { defineEntity, p } from '@mikro-orm/core';
import { Character } from './character.ts';

/** A bank tab of a character: index 0 is the main tab, 1–9 the named ones. Written with its bank_items. */
export const BankTabSchema = defineEntity({
  name: 'BankTab',
  tableName: 'bank_tabs',
  uniques: [{ name: 'bank_tabs_character_tab_unique', properties: ['characterId', 'tabIndex'] }],
  checks: [{ name: 'bank_tabs_tab_range', expression: 'tab_index >= 0 and tab_index < 10' }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    characterId: () => p.manyToOne(Character).mapToPk().fieldName('character_id').deleteRule('cascade'),
    tabIndex: p.smallint(),
    name: p.text(),
  },
});
export class BankTab extends BankTabSchema.class {}
BankTabSchema.setClass(BankTab);

/** One banked item: each item id appears once per bank (everything stacks in the bank). */
export const BankItemSchema = defineEntity({
  name: 'BankItem',
  tableName: 'bank_items',
  uniques: [{ name: 'bank_items_character_item_unique', properties: ['characterId', 'itemId'] }],
  checks: [
    { name: 'bank_items_tab_range', expression: 'tab_index >= 0 and tab_index < 10' },
    { name: 'bank_items_quantity_positive', expression: 'quantity >= 1' },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    characterId: () => p.manyToOne(Character).mapToPk().fieldName('character_id').deleteRule('cascade'),
    tabIndex: p.smallint(),
    position: p.integer(),
    itemId: p.text(),
    quantity: p.integer(),
  },
});
export class BankItem extends BankItemSchema.class {}
BankItemSchema.setClass(BankItem);

/**
 * An item lying on a tile (dropped, or left by an expired gravestone). Written in the transaction that took it out
 * of an inventory or gravestone and deleted in the one that picks it up; deleting an expired row is the sink.
 */
export const GroundItemRowSchema = defineEntity({
  name: 'GroundItemRow',
  tableName: 'ground_items',
  checks: [{ name: 'ground_items_quantity_positive', expression: 'quantity >= 1' }],
  properties: {
    id: p.text().primary(),
    itemId: p.text(),
    quantity: p.integer(),
    metadata: p.json<Record<string, unknown>>().nullable(),
    x: p.integer(),
    z: p.integer(),
    ownerId: p.text().nullable(),
    droppedAt: p.datetime(),
    publicAt: p.datetime(),
    expiresAt: p.datetime().index(),
    /** The world the item lies in (docs/worlds.md). */
    world: p.integer().default(1).index(),
  },
});
export class GroundItemRow extends GroundItemRowSchema.class {}
GroundItemRowSchema.setClass(GroundItemRow);

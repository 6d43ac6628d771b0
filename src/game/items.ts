import type { Item } from '../manifests/schemas/items.ts';

/** Item definitions by id (GameData.itemsById). */
export type ItemDefinitions = ReadonlyMap<string, Item>;

/** A quantity of one item, as rules pass them around. */
export interface ItemAmount {
  readonly itemId: string;
  readonly quantity: number;
}

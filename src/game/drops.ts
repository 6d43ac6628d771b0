/** NPC drop tables (a source): each entry drops independently with its chance, a quantity from min to max. */
import type { Drop } from '../manifests/schemas/npcs.ts';
import type { ItemAmount } from './items.ts';

export function rollDrops(drops: readonly Drop[], rng: () => number): ItemAmount[] {
  const loot: ItemAmount[] = [];
  for (const drop of drops) {
    if (!(rng() < drop.chance)) continue;
    const quantity = drop.min + Math.min(drop.max - drop.min, Math.floor(rng() * (drop.max - drop.min + 1)));
    loot.push({ itemId: drop.itemId, quantity });
  }
  return loot;
}

import { z } from 'zod';
import { Id, NonNegativeInt, PositiveInt, uniqueById } from './common.ts';

export const Store = z.object({
  id: Id,
  name: z.string().min(1),
  npcId: Id,
  areaId: Id,
  /** `general` stores buy any tradeable item; `specialist` stores buy only what they stock. */
  kind: z.enum(['general', 'specialist']),
  /** Price the store sells at, as a multiple of the item value. */
  sellMultiplier: z.number().positive(),
  /** Price the store pays, as a multiple of the item value. */
  buyMultiplier: z.number().nonnegative(),
  stock: z
    .array(z.object({ itemId: Id, quantity: NonNegativeInt, restockTicks: PositiveInt.default(100) }))
    .min(1),
});
export type Store = z.infer<typeof Store>;
export const StoresFile = uniqueById(Store);

import { z } from 'zod';
import { Id, ItemStack, SkillLevels, uniqueById } from './common.ts';
import { EquipmentSlot } from './items.ts';

/** templates.json: character templates (starting kits) offered at character creation. */
export const CharacterTemplate = z.object({
  id: Id,
  name: z.string().min(1),
  description: z.string().min(1),
  /** Starting levels; unlisted skills start at 1 (constitution at 10). */
  skills: SkillLevels.default({}),
  inventory: z.array(ItemStack).max(28),
  equipment: z.partialRecord(EquipmentSlot, Id).default({}),
});
export type CharacterTemplate = z.infer<typeof CharacterTemplate>;
export const TemplatesFile = uniqueById(CharacterTemplate);

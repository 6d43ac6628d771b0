import { z } from 'zod';
import { Level, SkillName } from './common.ts';

export const SKILL_UNLOCK_TYPES = ['item', 'ability', 'area', 'quest', 'activity'] as const;

export const SkillUnlock = z.object({
  level: Level,
  description: z.string().min(1),
  type: z.enum(SKILL_UNLOCK_TYPES),
});
export type SkillUnlock = z.infer<typeof SkillUnlock>;

/** skill-unlocks.json: every one of the 17 skills → its unlocks (any order). */
export const SkillUnlocksFile = z.record(SkillName, z.array(SkillUnlock).min(1));
export type SkillUnlocksFile = z.infer<typeof SkillUnlocksFile>;

import { z } from 'zod';
import { Id, Level, uniqueById } from './common.ts';

/** Multipliers in percent added to a combat stat while the prayer is active. */
export const PrayerEffects = z.object({
  attackPercent: z.int().min(0).max(100).default(0),
  strengthPercent: z.int().min(0).max(100).default(0),
  defensePercent: z.int().min(0).max(100).default(0),
  rangedPercent: z.int().min(0).max(100).default(0),
  magicPercent: z.int().min(0).max(100).default(0),
  /** Blocks (most of) the damage of one attack style. */
  protectFrom: z.enum(['melee', 'ranged', 'magic']).optional(),
});

export const Prayer = z.object({
  id: Id,
  name: z.string().min(1),
  description: z.string().min(1),
  level: Level,
  /** Prayer points drained per minute while active. */
  drainPerMinute: z.number().positive(),
  effects: PrayerEffects,
  /** Prayers in the same group cannot be active together. */
  group: z.enum(['attack', 'strength', 'defense', 'protection']),
});
export type Prayer = z.infer<typeof Prayer>;
export const PrayersFile = uniqueById(Prayer);

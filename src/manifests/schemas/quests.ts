import { z } from 'zod';
import { Id, ItemStack, NonNegativeInt, PositiveInt, PositiveXpPoints, SkillLevels, SkillName, uniqueById } from './common.ts';

/**
 * One stage of a quest. What moves a quest on from a stage: `completeWhen.holding` — the player holds these items
 * in the inventory (checked by the world, nothing is taken); `handIn` — the dialogue step that advances from this
 * stage takes these items from the inventory. A stage without either moves on by dialogue alone.
 */
export const QuestStage = z
  .object({
    stage: NonNegativeInt,
    description: z.string().min(1),
    completeWhen: z.object({ holding: z.array(ItemStack).min(1) }).optional(),
    handIn: z.array(ItemStack).min(1).optional(),
  })
  .refine((s) => !(s.completeWhen && s.handIn), 'a stage moves on either by completeWhen or by a handIn, not both');
export type QuestStage = z.infer<typeof QuestStage>;

export const Quest = z
  .object({
    id: Id,
    name: z.string().min(1),
    description: z.string().min(1),
    startNpcId: Id,
    difficulty: z.enum(['novice', 'intermediate', 'experienced']),
    requirements: z
      .object({
        skills: SkillLevels.default({}),
        quests: z.array(Id).default([]),
        questPoints: NonNegativeInt.default(0),
      })
      .default({ skills: {}, quests: [], questPoints: 0 }),
    /** Stages in order; the last one means "completed". */
    stages: z.array(QuestStage).min(2),
    rewards: z.object({
      questPoints: PositiveInt,
      items: z.array(ItemStack).default([]),
      xp: z.array(z.object({ skill: SkillName, amount: PositiveXpPoints })).default([]),
    }),
  })
  .refine((q) => q.stages.every((s, i) => s.stage === i), 'stages must be numbered 0, 1, 2, … in order')
  .refine(
    (q) => [q.stages[0], q.stages[q.stages.length - 1]].every((s) => !s.completeWhen && !s.handIn),
    'stage 0 (not started) and the last stage (completed) have no objective',
  );
export type Quest = z.infer<typeof Quest>;
export const QuestsFile = uniqueById(Quest);

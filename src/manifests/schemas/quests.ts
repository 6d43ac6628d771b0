import { z } from 'zod';
import { Id, ItemStack, NonNegativeInt, PositiveInt, SkillLevels, SkillName, uniqueById } from './common.ts';

export const QuestStage = z.object({
  stage: NonNegativeInt,
  description: z.string().min(1),
});

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
      xp: z.array(z.object({ skill: SkillName, amount: z.number().positive() })).default([]),
    }),
  })
  .refine((q) => q.stages.every((s, i) => s.stage === i), 'stages must be numbered 0, 1, 2, … in order');
export type Quest = z.infer<typeof Quest>;
export const QuestsFile = uniqueById(Quest);

import { defineEntity, p } from '@mikro-orm/core';
import { Character } from './character.ts';

/**
 * A character's progress in one quest: the stage reached (1 … the quest's last stage; no row = not started),
 * when it was started and when completed. Written in the transaction that changes it (with the reward items,
 * experience and `characters.quest_points` on completion).
 */
export const QuestProgressSchema = defineEntity({
  name: 'QuestProgress',
  tableName: 'quest_progress',
  uniques: [{ name: 'quest_progress_character_quest_unique', properties: ['characterId', 'questId'] }],
  checks: [{ name: 'quest_progress_stage_positive', expression: 'stage >= 1' }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    characterId: () => p.manyToOne(Character).mapToPk().fieldName('character_id').deleteRule('cascade'),
    questId: p.text(),
    stage: p.integer(),
    startedAt: p.datetime(),
    completedAt: p.datetime().nullable(),
  },
});
export class QuestProgress extends QuestProgressSchema.class {}
QuestProgressSchema.setClass(QuestProgress);

/**
 * Reading and writing a character's quest progress (`quest_progress` rows and `characters.quest_points`). The
 * world calls the writers inside its item transaction, so a stage change, the hand-in, the reward items, the
 * reward experience and the quest points commit together; the REST API only reads.
 */
import type { SqlEntityManager } from '@mikro-orm/sql';
import { questJournal, type QuestDefinitions, type QuestJournalEntry, type QuestLog } from '../game/quests.ts';
import { addTenths, wholePoints } from '../game/experience.ts';
import { SKILLS, combatLevel, levelForXp, type Skill } from '../game/skills.ts';
import { xpColumn } from './skill-stats.ts';
import { iso, millis } from './row-values.ts';

export interface QuestTimes {
  readonly startedAt: string;
  readonly completedAt: string | null;
}

export interface QuestProgressRecord {
  /** questId → stage (the rules' quest log). */
  readonly log: QuestLog;
  readonly times: ReadonlyMap<string, QuestTimes>;
  readonly questPoints: number;
}

export type JournalEntry = QuestJournalEntry & { readonly startedAt: string | null; readonly completedAt: string | null };

interface ProgressRow {
  quest_id: string;
  stage: number;
  started_at: unknown;
  completed_at: unknown;
}

/** The character's progress; null when the character does not exist. Inside a transaction, use its manager. */
export async function loadQuestProgress(em: SqlEntityManager, characterId: string): Promise<QuestProgressRecord | null> {
  const [character] = await em.execute<Array<{ quest_points: number }>>('select quest_points from characters where id = ?', [characterId]);
  if (!character) return null;
  const rows = await em.execute<ProgressRow[]>('select quest_id, stage, started_at, completed_at from quest_progress where character_id = ? order by id', [characterId]);
  const log: Record<string, number> = {};
  const times = new Map<string, QuestTimes>();
  for (const row of rows) {
    log[row.quest_id] = Number(row.stage);
    times.set(row.quest_id, { startedAt: iso(millis(row.started_at)), completedAt: row.completed_at === null ? null : iso(millis(row.completed_at)) });
  }
  return { log, times, questPoints: Number(character.quest_points) };
}

/** Every quest of the manifests with the character's status, stage and times. */
export function journalOf(progress: QuestProgressRecord, quests: QuestDefinitions): JournalEntry[] {
  return questJournal(progress.log, quests).map((entry) => {
    const times = entry.status === 'not-started' ? undefined : progress.times.get(entry.questId);
    return { ...entry, startedAt: times?.startedAt ?? null, completedAt: times?.completedAt ?? null };
  });
}

/** Writes the stage a quest moved to: a new row when it starts, the stage (and completion time) otherwise. */
export async function writeQuestStage(
  tx: SqlEntityManager,
  characterId: string,
  questId: string,
  stage: number,
  completed: boolean,
  now: Date,
): Promise<void> {
  const completedAt = completed ? now.toISOString() : null;
  await tx.execute(
    `insert into quest_progress (character_id, quest_id, stage, started_at, completed_at) values (?, ?, ?, ?, ?)
     on conflict (character_id, quest_id) do update set stage = excluded.stage, completed_at = excluded.completed_at`,
    [characterId, questId, stage, now.toISOString(), completedAt],
  );
}

/** Adds quest points; returns the new total. */
export async function addQuestPoints(tx: SqlEntityManager, characterId: string, points: number): Promise<number> {
  await tx.execute('update characters set quest_points = quest_points + ? where id = ?', [points, characterId]);
  const [row] = await tx.execute<Array<{ quest_points: number }>>('select quest_points from characters where id = ?', [characterId]);
  return Number(row.quest_points);
}

/**
 * Adds reward experience to the stored columns (`tenths`: tenths of a point; levels and the combat level follow).
 * The world then adds the same amounts to its in-memory skill book, whose later saves keep the greater value, so
 * nothing is counted twice and a crash right after the commit loses nothing.
 */
export async function addRewardXp(tx: SqlEntityManager, characterId: string, xp: readonly { skill: Skill; tenths: number }[]): Promise<void> {
  if (xp.length === 0) return;
  const columns = SKILLS.flatMap((s) => [xpColumn(s), `${s}_level`]).join(', ');
  const [row] = await tx.execute<Array<Record<string, number>>>(`select ${columns} from characters where id = ?`, [characterId]);
  const levels = Object.fromEntries(SKILLS.map((s) => [s, Number(row[`${s}_level`])])) as Record<Skill, number>;
  const gained = new Map<Skill, number>();
  for (const { skill, tenths } of xp) gained.set(skill, (gained.get(skill) ?? 0) + tenths);
  const sets: string[] = [];
  const params: number[] = [];
  for (const [skill, tenths] of gained) {
    const total = addTenths(Number(row[xpColumn(skill)]), tenths);
    levels[skill] = Math.max(levels[skill], levelForXp(wholePoints(total)));
    sets.push(`${xpColumn(skill)} = ?`, `${skill}_level = ?`);
    params.push(total, levels[skill]);
  }
  sets.push('combat_level = ?');
  params.push(combatLevel(levels));
  await tx.execute(`update characters set ${sets.join(', ')} where id = ?`, [...params, characterId]);
}

/**
 * The skill columns of a character (`<skill>_xp_tenths`, `<skill>_level`, `combat_level`) and, saved in the same
 * statement with them, the world's batched `health` and `prayer_points`. Experience is stored in tenths of a point,
 * exactly as the world counts it (src/game/experience.ts).
 */
import type { Database } from './database.ts';
import { heldBy, type WorldFence } from './worlds.ts';
import { SKILLS, type Skill } from '../game/skills.ts';

/** The column holding a skill's experience, in tenths of a point (Migration…XpTenths). */
export function xpColumn(skill: Skill): string {
  return `${skill}_xp_tenths`;
}

export interface SkillStatsRecord {
  /** Experience in tenths of a point. */
  readonly xp: Record<Skill, number>;
  /** The level columns as stored (may be above the XP's level: set by hand). */
  readonly levels: Record<Skill, number>;
  /** null: never written. */
  readonly prayerPoints: number | null;
}

/** A character's experience, stored levels and prayer points. */
export async function loadSkillStats(db: Database, characterId: string): Promise<SkillStatsRecord> {
  const columns = SKILLS.flatMap((s) => [xpColumn(s), `${s}_level`]).join(', ');
  const [row] = await db.em.fork().execute<Array<Record<string, number | null>>>(`select ${columns}, health, prayer_points from characters where id = ?`, [characterId]);
  const xp = {} as Record<Skill, number>;
  const levels = {} as Record<Skill, number>;
  for (const skill of SKILLS) {
    xp[skill] = Number(row[xpColumn(skill)]);
    levels[skill] = Number(row[`${skill}_level`]);
  }
  return { xp, levels, prayerPoints: row.prayer_points === null ? null : Number(row.prayer_points) };
}

export interface SkillStatsWrite {
  /** The skills to write, with their experience (tenths of a point) and level. */
  readonly skills: ReadonlyArray<{ readonly skill: Skill; readonly xpTenths: number; readonly level: number }>;
  /**
   * Overwrite the columns (after an admin /setlevel); otherwise greatest() keeps experience another writer (burying
   * bones) added in the meantime.
   */
  readonly force: boolean;
  readonly combatLevel: number;
  readonly health?: number;
  readonly prayerPoints?: number;
}

/**
 * Writes the given skills, the combat level and (when given) health and prayer points in one statement, only while
 * the world of `fence` holds the character (src/db/worlds.ts).
 */
export async function writeSkillStats(db: Database, fence: WorldFence, characterId: string, write: SkillStatsWrite): Promise<void> {
  const sets = write.skills.flatMap(({ skill: s }) => write.force
    ? [`${xpColumn(s)} = ?`, `${s}_level = ?`]
    : [`${xpColumn(s)} = greatest(${xpColumn(s)}, ?)`, `${s}_level = greatest(${s}_level, ?)`]);
  const params: Array<number | string> = write.skills.flatMap((s) => [s.xpTenths, s.level]);
  sets.push('combat_level = ?');
  params.push(write.combatLevel);
  if (write.health !== undefined) {
    sets.push('health = ?');
    params.push(write.health);
  }
  if (write.prayerPoints !== undefined) {
    sets.push('prayer_points = ?');
    params.push(write.prayerPoints);
  }
  const held = heldBy(fence, 'characters');
  await db.em.fork().execute(`update characters set ${sets.join(', ')} where id = ? and ${held.sql}`, [...params, characterId, ...held.params]);
}

/** The 17 skills and the classic experience curve (levels 1–99). Pure: no I/O. */
import { SKILL_NAMES, type SkillName } from '../manifests/skills.ts';

/** The skill names of the manifests' vocabulary, under the rules' names. */
export const SKILLS = SKILL_NAMES;
export type Skill = SkillName;

export const MAX_LEVEL = 99;

/** Experience (whole points) needed to reach each level; index = level. Classic formula, floored per level. */
const XP_TABLE: readonly number[] = (() => {
  const table = [0, 0];
  let points = 0;
  for (let level = 1; level < MAX_LEVEL; level++) {
    points += Math.floor(level + 300 * Math.pow(2, level / 7));
    table.push(Math.floor(points / 4));
  }
  return table;
})();

export function xpForLevel(level: number): number {
  if (!Number.isInteger(level) || level < 1 || level > MAX_LEVEL) {
    throw new RangeError(`level must be an integer from 1 to ${MAX_LEVEL}`);
  }
  return XP_TABLE[level];
}

export function levelForXp(xp: number): number {
  let level = 1;
  while (level < MAX_LEVEL && XP_TABLE[level + 1] <= xp) level++;
  return level;
}

/** Starting level of each skill for a new character (constitution starts at 10, the rest at 1). */
export function startingLevel(skill: Skill): number {
  return skill === 'constitution' ? 10 : 1;
}

/** A character's level in every skill. */
export type Levels = Readonly<Record<Skill, number>>;

/** The levels of a new character. */
export function startingLevels(): Levels {
  return Object.fromEntries(SKILLS.map((skill) => [skill, startingLevel(skill)])) as Record<Skill, number>;
}

/** The skills whose level is below the requirement, with both numbers. */
export function unmetRequirements(
  requirements: Readonly<Partial<Record<Skill, number>>>,
  levels: Levels,
): { skill: Skill; required: number; level: number }[] {
  const unmet: { skill: Skill; required: number; level: number }[] = [];
  for (const skill of SKILLS) {
    const required = requirements[skill];
    if (required !== undefined && levels[skill] < required) unmet.push({ skill, required, level: levels[skill] });
  }
  return unmet;
}

/** "attack 10 (you have 5), ranged 5 (you have 1)" */
export function describeUnmet(unmet: readonly { skill: Skill; required: number; level: number }[]): string {
  return unmet.map((u) => `${u.skill} ${u.required} (you have ${u.level})`).join(', ');
}

/** Experience per skill stops growing here (in points; experience.ts counts it in tenths). */
export const MAX_XP = 200_000_000;

/**
 * Combat level (classic formula):
 *   base   = 0.25 × (defense + constitution + floor(prayer / 2))
 *   melee  = 0.325 × (attack + strength)
 *   ranged = 0.325 × floor(ranged × 1.5)
 *   magic  = 0.325 × floor(magic × 1.5)
 *   level  = floor(base + max(melee, ranged, magic))
 * A new character (constitution 10, the rest 1) is level 3; all 99s give 126.
 */
export function combatLevel(levels: Pick<Levels, 'attack' | 'strength' | 'defense' | 'constitution' | 'ranged' | 'magic' | 'prayer'>): number {
  const base = 0.25 * (levels.defense + levels.constitution + Math.floor(levels.prayer / 2));
  const melee = 0.325 * (levels.attack + levels.strength);
  const ranged = 0.325 * Math.floor(levels.ranged * 1.5);
  const magic = 0.325 * Math.floor(levels.magic * 1.5);
  // The small epsilon keeps exact results such as 3.0 from landing on 2.999… in floating point.
  return Math.floor(base + Math.max(melee, ranged, magic) + 1e-9);
}

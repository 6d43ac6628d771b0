/** The 17 skills and the classic experience curve (levels 1–99). Pure: no I/O. */

export const SKILLS = [
  'attack', 'strength', 'defense', 'constitution', 'ranged', 'magic', 'prayer',
  'woodcutting', 'mining', 'fishing', 'firemaking', 'cooking', 'smithing',
  'agility', 'crafting', 'fletching', 'runecrafting',
] as const;

export type Skill = (typeof SKILLS)[number];

export const MAX_LEVEL = 99;

/** Experience needed to reach each level; index = level. Classic formula, floored per level. */
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

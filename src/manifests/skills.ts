/** The 17 lower-case skill names: the manifests' vocabulary, which the rules (src/game/skills.ts) build on. */
export const SKILL_NAMES = [
  'attack', 'strength', 'defense', 'constitution', 'ranged', 'magic', 'prayer',
  'woodcutting', 'mining', 'fishing', 'firemaking', 'cooking', 'smithing',
  'agility', 'crafting', 'fletching', 'runecrafting',
] as const;

export type SkillName = (typeof SKILL_NAMES)[number];

export function isSkillName(value: string): value is SkillName {
  return (SKILL_NAMES as readonly string[]).includes(value);
}

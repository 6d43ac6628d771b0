import { SKILLS, type Skill } from '../game/skills.ts';

/** The 17 lower-case skill names (single source: src/game/skills.ts). */
export const SKILL_NAMES = SKILLS;
export type SkillName = Skill;

export function isSkillName(value: string): value is SkillName {
  return (SKILL_NAMES as readonly string[]).includes(value);
}

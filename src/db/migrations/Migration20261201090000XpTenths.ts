import { Migration } from '@mikro-orm/migrations';

/** The 17 skills, as the rules name them (src/manifests/skills.ts), fixed here as this migration saw them. */
const SKILLS = [
  'attack', 'strength', 'defense', 'constitution', 'ranged', 'magic', 'prayer',
  'woodcutting', 'mining', 'fishing', 'firemaking', 'cooking', 'smithing',
  'agility', 'crafting', 'fletching', 'runecrafting',
] as const;

/**
 * Experience in tenths of a point (issue #38, src/game/experience.ts): `<skill>_xp` (whole points, the floor of a
 * fractional total) becomes `<skill>_xp_tenths`, and every existing value is multiplied by 10 — exact, and within
 * the 32-bit column (200,000,000 points is 2,000,000,000 tenths; a larger value, set by hand, is capped first).
 * Renamed rather than reused, so that code still reading `<skill>_xp` fails loudly instead of reading tenths as
 * points. Plain SQL of PostgreSQL 15 and PGlite alike.
 */
export class Migration20261201090000XpTenths extends Migration {

  override name = 'Migration20261201090000XpTenths';

  override up(): void | Promise<void> {
    for (const skill of SKILLS) this.addSql(`alter table "characters" rename column "${skill}_xp" to "${skill}_xp_tenths";`);
    this.addSql(`update "characters" set ${SKILLS.map((s) => `"${s}_xp_tenths" = least("${s}_xp_tenths", 200000000) * 10`).join(', ')};`);
    this.addSql(`alter table "characters" alter column "constitution_xp_tenths" set default 11540;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`update "characters" set ${SKILLS.map((s) => `"${s}_xp_tenths" = "${s}_xp_tenths" / 10`).join(', ')};`);
    for (const skill of SKILLS) this.addSql(`alter table "characters" rename column "${skill}_xp_tenths" to "${skill}_xp";`);
    this.addSql(`alter table "characters" alter column "constitution_xp" set default 1154;`);
  }

}

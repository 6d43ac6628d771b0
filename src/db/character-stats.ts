/**
 * The `characters` columns the economy reads and writes inside its item transactions: the skill levels an item
 * requires, the stored health (eating, respawning), the prayer experience buried bones give. Skill training's own
 * columns are written by the skills' store. Every function takes the open transaction.
 */
import { wholePoints } from '../game/experience.ts';
import { SKILLS, levelForXp, type Levels, type Skill } from '../game/skills.ts';
import type { Transaction } from './transaction.ts';

/** The character's skill levels as committed, or null when the character no longer exists. */
export async function loadSkillLevels(tx: Transaction, characterId: string): Promise<Levels | null> {
  const columns = SKILLS.map((skill) => `${skill}_level`).join(', ');
  const [row] = await tx.execute<Array<Record<string, number>>>(`select ${columns} from characters where id = ?`, [characterId]);
  if (!row) return null;
  return Object.fromEntries(SKILLS.map((skill: Skill) => [skill, Number(row[`${skill}_level`])])) as Record<Skill, number>;
}

export async function writeHealth(tx: Transaction, characterId: string, health: number): Promise<void> {
  await tx.execute('update characters set health = ? where id = ?', [health, characterId]);
}

/** A respawn: full health and the saved position on the respawn tile (world units: tile × tileSize). */
export async function writeRespawn(tx: Transaction, characterId: string, health: number, tile: { x: number; z: number }, tileSize: number): Promise<void> {
  await tx.execute('update characters set health = ?, position_x = ?, position_z = ? where id = ?',
    [health, tile.x * tileSize, tile.z * tileSize, characterId]);
}

/** The committed prayer experience, in tenths of a point (0 when the character no longer exists). */
export async function loadPrayerXp(tx: Transaction, characterId: string): Promise<number> {
  const [row] = await tx.execute<Array<{ prayer_xp_tenths: number }>>('select prayer_xp_tenths from characters where id = ?', [characterId]);
  return Number(row?.prayer_xp_tenths ?? 0);
}

/** Writes the prayer experience (tenths of a point) and the level it gives. */
export async function writePrayerXp(tx: Transaction, characterId: string, xpTenths: number): Promise<void> {
  await tx.execute('update characters set prayer_xp_tenths = ?, prayer_level = ? where id = ?', [xpTenths, levelForXp(wholePoints(xpTenths)), characterId]);
}

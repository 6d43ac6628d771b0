/**
 * Skills of the players online: experience in tenths of a point (src/game/experience.ts — whole numbers from the
 * gain to the column, so nothing is lost to rounding), levels derived from it, `skill:xp` / `skill:levelUp` (whole
 * points shown), the combat level, prayer points, and the batched saves. A level-up is written at once; other
 * gains every SAVE_EVERY_TICKS ticks, on the auto-save and on leaving.
 *
 * It lives below the areas, not in features/skills, because many areas read or grant skills (skills, economy when
 * bones are buried, quests, movement, agents, admin): kept in one area it made that area and economy import each
 * other (the folder-cycle check of test/architecture/layers.test.ts).
 */
import { loadSkillStats, writeSkillStats } from '../../src/db/skill-stats.ts';
import { HEALTH_SCALE } from '../../src/game/constants.ts';
import { prayerLevelChanged, type PrayerState } from '../../src/game/prayer.ts';
import { addTenths, pointsOf, splitThirds, wholePoints } from '../../src/game/experience.ts';
import { SKILLS, combatLevel, levelForXp, type Levels, type Skill } from '../../src/game/skills.ts';
import { PlayerSlot } from './area.ts';
import type { OnlinePlayer } from './online-player.ts';
import type { WorldApi } from './world-api.ts';

/** Ticks between batched XP writes (levels are written on the level-up itself). */
export const SAVE_EVERY_TICKS = 10;

export class SkillBook {
  /** Experience in tenths of a point (what the `<skill>_xp_tenths` columns hold). */
  readonly xp: Record<Skill, number>;
  /** Combat's remainder under a tenth (thirds of a tenth, 0–2), carried to the next hit; memory only. */
  readonly thirds = Object.fromEntries(SKILLS.map((skill) => [skill, 0])) as Record<Skill, number>;
  readonly levels: Record<Skill, number>;
  /** Skills gained since the last write. */
  readonly dirty = new Set<Skill>();
  /** Health differs from what was last written. */
  healthDirty = false;
  /** Prayer points (persisted) and the active prayers (off at every login). */
  prayer: PrayerState;
  /** Prayer points differ from what was last written. */
  prayerDirty = false;

  constructor(xp: Record<Skill, number>, levels: Record<Skill, number>, prayerPoints: number) {
    this.xp = xp;
    this.levels = levels;
    this.prayer = { points: prayerPoints, active: [], drainProgress: 0 };
  }

  /** Replaces the prayer state; a change of points is written with the next batch. */
  setPrayer(next: PrayerState): void {
    if (next.points !== this.prayer.points) this.prayerDirty = true;
    this.prayer = next;
  }

  snapshot(): Levels {
    return { ...this.levels };
  }
}

/** The skill book of a player in the world: loaded on join (`loadSkills`); reading it before is a programming error. */
export const skillBooks = new PlayerSlot<SkillBook>('skills', (player) => {
  throw new Error(`no skills loaded for ${player.id}`);
});

/** The player's last skill write: the next one waits for it (writes are serialised per player). */
export const skillSaves = new PlayerSlot<Promise<void>>('skill-saves', () => Promise.resolve());

export function combatLevelOf(book: SkillBook): number {
  return combatLevel(book.levels);
}

/** Loads a joining player's experience and levels (a level column above its XP's level is kept: set by hand). */
export async function loadSkills(world: WorldApi, player: OnlinePlayer): Promise<SkillBook> {
  const stored = await loadSkillStats(world.context().db, player.id);
  const xp = stored.xp;
  const levels = {} as Record<Skill, number>;
  for (const skill of SKILLS) levels[skill] = Math.max(stored.levels[skill], levelForXp(wholePoints(xp[skill])));
  // null (never written) is full; points above the level (it was set lower by hand) are cut to it.
  const prayerPoints = stored.prayerPoints === null ? levels.prayer : Math.min(stored.prayerPoints, levels.prayer);
  const book = new SkillBook(xp, levels, prayerPoints);
  skillBooks.set(player, book);
  player.state.maxHealth = levels.constitution * HEALTH_SCALE;
  player.state.health = Math.min(player.state.health, player.state.maxHealth);
  player.state.combatLevel = combatLevelOf(book);
  return book;
}

/** The levels as sent in `skills:state` (experience in whole points). */
export function skillsState(book: SkillBook): Record<string, unknown> {
  return {
    skills: SKILLS.map((skill) => ({ skill, level: book.levels[skill], xp: wholePoints(book.xp[skill]) })),
    combatLevel: combatLevelOf(book),
  };
}

/** The payload of `prayer:state`. */
export function prayerState(book: SkillBook): Record<string, unknown> {
  return { points: book.prayer.points, maxPoints: book.levels.prayer, active: [...book.prayer.active] };
}

/**
 * Adds experience (`tenths`: tenths of a point, a whole number): `skill:xp` always (`amount` in points, exact to the
 * tenth; `xp` the whole points), `skill:levelUp` and a prompt save on a new level, combat level kept current.
 */
export function grantXp(world: WorldApi, player: OnlinePlayer, skill: Skill, tenths: number): void {
  if (!Number.isSafeInteger(tenths) || tenths <= 0) return;
  const book = skillBooks.of(player);
  book.xp[skill] = addTenths(book.xp[skill], tenths);
  const level = Math.max(book.levels[skill], levelForXp(wholePoints(book.xp[skill])));
  const levelledUp = level > book.levels[skill];
  const gainedLevels = level - book.levels[skill];
  book.levels[skill] = level;
  book.dirty.add(skill);
  player.client.send('skill:xp', { skill, amount: pointsOf(tenths), xp: wholePoints(book.xp[skill]), level });
  if (!levelledUp) return;
  player.client.send('skill:levelUp', { skill, level });
  afterLevelChange(world, player, skill, gainedLevels);
  void saveSkills(world, player);
}

/**
 * Adds combat experience (`thirds`: thirds of a tenth, combat's unit): the whole tenths now, the remainder carried to
 * the player's next hit, so 4/3 a point per damage adds up exactly.
 */
export function grantCombatXp(world: WorldApi, player: OnlinePlayer, skill: Skill, thirds: number): void {
  const book = skillBooks.of(player);
  const split = splitThirds(book.thirds[skill], thirds);
  book.thirds[skill] = split.carried;
  grantXp(world, player, skill, split.tenths);
}

/** Keeps combat level and (for constitution) maximum health in step with a changed level. */
export function afterLevelChange(world: WorldApi, player: OnlinePlayer, skill: Skill, gainedLevels: number): void {
  const book = skillBooks.of(player);
  if (skill === 'constitution') {
    player.state.maxHealth = book.levels.constitution * HEALTH_SCALE;
    player.state.health = Math.max(0, Math.min(player.state.maxHealth, player.state.health + gainedLevels * HEALTH_SCALE));
    book.healthDirty = true;
  }
  if (skill === 'prayer') {
    book.setPrayer(prayerLevelChanged(book.prayer, gainedLevels, book.levels.prayer));
    player.client.send('prayer:state', prayerState(book));
  }
  const combat = combatLevelOf(book);
  if (combat !== player.state.combatLevel) {
    player.state.combatLevel = combat;
    player.client.send('player:sync', player.sync());
  }
  world.markChanged(player);
}

/** Writes what changed for one player (serialised per player). `force` writes every skill (after /setlevel). */
export function saveSkills(world: WorldApi, player: OnlinePlayer, force = false): Promise<void> {
  const previous = skillSaves.of(player);
  const next = previous.then(() => writeSkills(world, player, force)).catch((error) => {
    world.context().logger.error({ err: error, characterId: player.id }, 'saving skills failed');
  });
  skillSaves.set(player, next);
  return next;
}

async function writeSkills(world: WorldApi, player: OnlinePlayer, force: boolean): Promise<void> {
  const book = skillBooks.peek(player);
  if (!book) return;
  const skills = force ? [...SKILLS] : [...book.dirty];
  if (skills.length === 0 && !book.healthDirty && !book.prayerDirty) return;
  book.dirty.clear();
  const health = book.healthDirty;
  book.healthDirty = false;
  const prayer = book.prayerDirty;
  book.prayerDirty = false;
  // Without `force`, the store keeps experience another writer (burying bones) added in the meantime.
  await writeSkillStats(world.context().db, world.fence(), player.id, {
    skills: skills.map((skill) => ({ skill, xpTenths: book.xp[skill], level: book.levels[skill] })),
    force,
    combatLevel: combatLevelOf(book),
    ...(health ? { health: player.state.health } : {}),
    ...(prayer ? { prayerPoints: book.prayer.points } : {}),
  });
}

/** Drops the player's book when it leaves (a later save finds nothing to write). */
export function forgetSkills(player: OnlinePlayer): void {
  skillBooks.clear(player);
}

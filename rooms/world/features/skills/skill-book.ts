/**
 * Skills of the players online: experience (kept fractional in memory, persisted as its floor — the fraction is
 * safe to lose), levels derived from it, `skill:xp` / `skill:levelUp`, the combat level, prayer points, and the
 * batched saves. A level-up is written at once; other gains every SAVE_EVERY_TICKS ticks, on the auto-save and on
 * leaving.
 */
import { prayerLevelChanged, type PrayerState } from '../../../../src/game/prayer.ts';
import { SKILLS, addXp, combatLevel, levelForXp, type Levels, type Skill } from '../../../../src/game/skills.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { HITPOINTS_SCALE } from '../../world-entities.ts';

/** Ticks between batched XP writes (levels are written on the level-up itself). */
export const SAVE_EVERY_TICKS = 10;

export class SkillBook {
  readonly xp: Record<Skill, number>;
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

const books = new WeakMap<OnlinePlayer, SkillBook>();
const saving = new WeakMap<OnlinePlayer, Promise<void>>();

export function skillsOf(player: OnlinePlayer): SkillBook {
  const book = books.get(player);
  if (!book) throw new Error(`no skills loaded for ${player.id}`);
  return book;
}

export function combatLevelOf(book: SkillBook): number {
  return combatLevel(book.levels);
}

/** Loads a joining player's experience and levels (a level column above its XP's level is kept: set by hand). */
export async function loadSkills(world: WorldApi, player: OnlinePlayer): Promise<SkillBook> {
  const columns = SKILLS.flatMap((s) => [`${s}_xp`, `${s}_level`]).join(', ');
  const [row] = await world.context().db.em.fork().execute<Array<Record<string, number | null>>>(`select ${columns}, health, prayer_points from characters where id = ?`, [player.id]);
  const xp = {} as Record<Skill, number>;
  const levels = {} as Record<Skill, number>;
  for (const skill of SKILLS) {
    xp[skill] = Number(row[`${skill}_xp`]);
    levels[skill] = Math.max(Number(row[`${skill}_level`]), levelForXp(xp[skill]));
  }
  // null (never written) is full; points above the level (it was set lower by hand) are cut to it.
  const prayerPoints = row.prayer_points === null ? levels.prayer : Math.min(Number(row.prayer_points), levels.prayer);
  const book = new SkillBook(xp, levels, prayerPoints);
  books.set(player, book);
  player.state.maxHealth = levels.constitution * HITPOINTS_SCALE;
  player.state.health = Math.min(player.state.health, player.state.maxHealth);
  player.state.combatLevel = combatLevelOf(book);
  return book;
}

/** The levels as sent in `skills:state`. */
export function skillsState(book: SkillBook): Record<string, unknown> {
  return {
    skills: SKILLS.map((skill) => ({ skill, level: book.levels[skill], xp: Math.floor(book.xp[skill]) })),
    combatLevel: combatLevelOf(book),
  };
}

/** The payload of `prayer:state`. */
export function prayerState(book: SkillBook): Record<string, unknown> {
  return { points: book.prayer.points, maxPoints: book.levels.prayer, active: [...book.prayer.active] };
}

/** Adds experience: `skill:xp` always, `skill:levelUp` and a prompt save on a new level, combat level kept current. */
export function grantXp(world: WorldApi, player: OnlinePlayer, skill: Skill, amount: number): void {
  if (!(amount > 0)) return;
  const book = skillsOf(player);
  book.xp[skill] = addXp(book.xp[skill], amount);
  const level = Math.max(book.levels[skill], levelForXp(Math.floor(book.xp[skill])));
  const levelledUp = level > book.levels[skill];
  const gainedLevels = level - book.levels[skill];
  book.levels[skill] = level;
  book.dirty.add(skill);
  player.client.send('skill:xp', { skill, amount, xp: Math.floor(book.xp[skill]), level });
  if (!levelledUp) return;
  player.client.send('skill:levelUp', { skill, level });
  afterLevelChange(world, player, skill, gainedLevels);
  void saveSkills(world, player);
}

/** Keeps combat level and (for constitution) maximum health in step with a changed level. */
export function afterLevelChange(world: WorldApi, player: OnlinePlayer, skill: Skill, gainedLevels: number): void {
  const book = skillsOf(player);
  if (skill === 'constitution') {
    player.state.maxHealth = book.levels.constitution * HITPOINTS_SCALE;
    player.state.health = Math.max(0, Math.min(player.state.maxHealth, player.state.health + gainedLevels * HITPOINTS_SCALE));
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
  const previous = saving.get(player) ?? Promise.resolve();
  const next = previous.then(() => writeSkills(world, player, force)).catch((error) => {
    world.context().logger.error({ err: error, characterId: player.id }, 'saving skills failed');
  });
  saving.set(player, next);
  return next;
}

async function writeSkills(world: WorldApi, player: OnlinePlayer, force: boolean): Promise<void> {
  const book = books.get(player);
  if (!book) return;
  const skills = force ? [...SKILLS] : [...book.dirty];
  if (skills.length === 0 && !book.healthDirty && !book.prayerDirty) return;
  book.dirty.clear();
  const health = book.healthDirty;
  book.healthDirty = false;
  const prayer = book.prayerDirty;
  book.prayerDirty = false;
  // Without `force`, greatest() keeps experience another writer (burying bones) added in the meantime.
  const sets = skills.flatMap((s) => force
    ? [`${s}_xp = ?`, `${s}_level = ?`]
    : [`${s}_xp = greatest(${s}_xp, ?)`, `${s}_level = greatest(${s}_level, ?)`]);
  const params: Array<number | string> = skills.flatMap((s) => [Math.floor(book.xp[s]), book.levels[s]]);
  sets.push('combat_level = ?');
  params.push(combatLevelOf(book));
  if (health) {
    sets.push('health = ?');
    params.push(player.state.health);
  }
  if (prayer) {
    sets.push('prayer_points = ?');
    params.push(book.prayer.points);
  }
  await world.context().db.em.fork().execute(`update characters set ${sets.join(', ')} where id = ?`, [...params, player.id]);
}

export function forgetSkills(player: OnlinePlayer): void {
  books.delete(player);
}

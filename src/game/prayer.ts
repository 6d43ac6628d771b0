/**
 * Prayers (prayers.json). Prayer points start at the prayer level. Active prayers drain points together:
 * each tick adds the sum of their `drainPerMinute` to a progress counter, and every TICKS_PER_MINUTE of
 * progress costs one point; a prayer bonus from equipment slows it by 30 / (30 + bonus). At 0 points every
 * prayer switches off. Turning on a prayer switches off the other prayer of its group.
 */
import type { Prayer } from '../manifests/schemas/prayers.ts';
import { applyTransfer, isValidSlot, type Inventory, type InventoryCode } from './inventory.ts';
import type { ItemDefinitions } from './items.ts';
import { tenthsOf } from './experience.ts';
import { ok, refuse, type Result } from './result.ts';

export type PrayerDefinitions = ReadonlyMap<string, Prayer>;

/** 60 s of 600 ms ticks. */
export const TICKS_PER_MINUTE = 100;

export interface PrayerState {
  readonly points: number;
  readonly active: readonly string[];
  /** Drain gathered toward the next point; a point costs TICKS_PER_MINUTE. */
  readonly drainProgress: number;
}

/** Combat multipliers from active prayers (1 = no change) and the attack types they protect from. */
export interface PrayerBoosts {
  readonly attack: number;
  readonly strength: number;
  readonly defense: number;
  readonly ranged: number;
  readonly magic: number;
  readonly protectFrom: readonly ('melee' | 'ranged' | 'magic')[];
}

export const NO_PRAYER_BOOSTS: PrayerBoosts = { attack: 1, strength: 1, defense: 1, ranged: 1, magic: 1, protectFrom: [] };

export type PrayerCode = InventoryCode | 'UNKNOWN_PRAYER' | 'LEVEL_TOO_LOW' | 'NO_PRAYER_POINTS' | 'NOT_ACTIVE' | 'NOT_BONES';

export function initialPrayerState(prayerLevel: number): PrayerState {
  return { points: prayerLevel, active: [], drainProgress: 0 };
}

/** Turns a prayer on; another active prayer of the same group is turned off (and listed in `deactivated`). */
export function activatePrayer(
  state: PrayerState,
  prayers: PrayerDefinitions,
  prayerId: string,
  prayerLevel: number,
): Result<{ state: PrayerState; deactivated: string[] }, PrayerCode> {
  const prayer = prayers.get(prayerId);
  if (!prayer) return refuse('UNKNOWN_PRAYER', `no prayer '${String(prayerId)}'`);
  if (prayerLevel < prayer.level) return refuse('LEVEL_TOO_LOW', `${prayer.name} needs prayer ${prayer.level} (you have ${prayerLevel})`);
  if (state.points <= 0) return refuse('NO_PRAYER_POINTS', 'you have no prayer points left; recharge at an altar');
  if (state.active.includes(prayerId)) return ok({ state, deactivated: [] });
  const deactivated = state.active.filter((id) => prayers.get(id)?.group === prayer.group);
  const active = [...state.active.filter((id) => !deactivated.includes(id)), prayerId];
  return ok({ state: { ...state, active }, deactivated });
}

export function deactivatePrayer(state: PrayerState, prayerId: string): Result<PrayerState, PrayerCode> {
  if (!state.active.includes(prayerId)) return refuse('NOT_ACTIVE', `${String(prayerId)} is not active`);
  const active = state.active.filter((id) => id !== prayerId);
  return ok({ ...state, active, drainProgress: active.length === 0 ? 0 : state.drainProgress });
}

/** Drains `ticks` ticks' worth of the active prayers. `ranOut` is true when points hit 0 and all switched off. */
export function drainPrayer(
  state: PrayerState,
  prayers: PrayerDefinitions,
  ticks: number = 1,
  prayerBonus: number = 0,
): { state: PrayerState; ranOut: boolean } {
  if (state.active.length === 0 || !(ticks > 0)) return { state, ranOut: false };
  const perTick = state.active.reduce((sum, id) => sum + (prayers.get(id)?.drainPerMinute ?? 0), 0);
  const resistance = 30 / (30 + Math.max(0, prayerBonus));
  const progress = state.drainProgress + perTick * resistance * ticks;
  // The epsilon keeps e.g. 20 × 5 from landing a hair under 100.
  const spent = Math.floor(progress / TICKS_PER_MINUTE + 1e-9);
  const points = state.points - spent;
  if (points <= 0) return { state: { points: 0, active: [], drainProgress: 0 }, ranOut: true };
  return { state: { ...state, points, drainProgress: Math.max(0, progress - spent * TICKS_PER_MINUTE) }, ranOut: false };
}

/** Praying at an altar restores the points to the prayer level. */
export function restorePrayer(state: PrayerState, prayerLevel: number): PrayerState {
  return { ...state, points: Math.max(state.points, prayerLevel), drainProgress: 0 };
}

/** A new prayer level: the points rise (or fall) with it, kept within 0 and the new level. */
export function prayerLevelChanged(state: PrayerState, gainedLevels: number, prayerLevel: number): PrayerState {
  const points = Math.max(0, Math.min(prayerLevel, state.points + gainedLevels));
  if (points === 0) return { points: 0, active: [], drainProgress: 0 };
  return points === state.points ? state : { ...state, points };
}

/** The combat multipliers of the active prayers (percentages of a group add up, though groups exclude). */
export function prayerBoosts(active: readonly string[], prayers: PrayerDefinitions): PrayerBoosts {
  let attack = 0, strength = 0, defense = 0, ranged = 0, magic = 0;
  const protectFrom: ('melee' | 'ranged' | 'magic')[] = [];
  for (const id of active) {
    const effects = prayers.get(id)?.effects;
    if (!effects) continue;
    attack += effects.attackPercent;
    strength += effects.strengthPercent;
    defense += effects.defensePercent;
    ranged += effects.rangedPercent;
    magic += effects.magicPercent;
    if (effects.protectFrom && !protectFrom.includes(effects.protectFrom)) protectFrom.push(effects.protectFrom);
  }
  const m = (percent: number) => 1 + percent / 100;
  return { attack: m(attack), strength: m(strength), defense: m(defense), ranged: m(ranged), magic: m(magic), protectFrom };
}

/** Buries the bones in an inventory slot (a sink): the bones leave the game and give their prayer XP. */
export function buryBones(
  inventory: Inventory,
  items: ItemDefinitions,
  slot: number,
): Result<{ inventory: Inventory; itemId: string; xpTenths: number }, PrayerCode> {
  if (!isValidSlot(inventory, slot)) return refuse('INVALID_SLOT', `slots must be whole numbers from 0 to ${inventory.length - 1}`);
  const held = inventory[slot];
  if (held === null) return refuse('EMPTY_SLOT', `slot ${slot} is empty`);
  const xp = items.get(held.itemId)?.prayerXp;
  if (xp === undefined) return refuse('NOT_BONES', `${held.itemId} cannot be buried`);
  const next = applyTransfer(inventory, items, [{ slot, quantity: 1, itemId: held.itemId }], []);
  if (!next.ok) return next;
  return ok({ inventory: next.value, itemId: held.itemId, xpTenths: tenthsOf(xp) });
}

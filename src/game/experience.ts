/**
 * Experience is counted in tenths of a point, as RuneScape keeps it: whole numbers from the rule that grants a
 * gain to the database column, so any number of gains adds up exactly (floating point would lose a point now and
 * then: 0.6 added 240 times is 143.99…). Players see whole points (the tenths rounded down), the levels follow the
 * whole points. Pure: no I/O.
 *
 * The manifests give experience in points with at most one decimal (4.5, 37.5; validated on load). Combat gives
 * 4/3 of a point per point of damage (constitution, the controlled style), which is no whole number of tenths:
 * combat's rates are counted in thirds of a tenth, and the remainder under a tenth is carried to the next hit
 * (`splitThirds`), so three 1-damage hits give exactly 4 points.
 */
import { MAX_XP } from './skills.ts';

export const TENTHS_PER_POINT = 10;
/** The cap of a skill, in tenths (2,000,000,000: fits the 32-bit integer columns). */
export const MAX_XP_TENTHS = MAX_XP * TENTHS_PER_POINT;
/** Combat's unit: a third of a tenth. */
export const THIRDS_PER_TENTH = 3;

/** Whether a manifest value is a whole number of tenths (what the manifests may say: 4.5, 37.5, 100). */
export function isWholeTenths(points: number): boolean {
  if (!Number.isFinite(points)) return false;
  const tenths = points * TENTHS_PER_POINT;
  return Math.abs(tenths - Math.round(tenths)) < 1e-6;
}

/** The tenths of a manifest value (4.5 → 45). A value finer than a tenth is a programming error (validated on load). */
export function tenthsOf(points: number): number {
  if (!isWholeTenths(points)) throw new RangeError(`experience ${points} is not a whole number of tenths`);
  return Math.round(points * TENTHS_PER_POINT);
}

/** The whole points of a count of tenths: what players see and what the levels follow. */
export function wholePoints(tenths: number): number {
  return Math.floor(tenths / TENTHS_PER_POINT);
}

/** A gain in tenths as the points it adds, for display (13 → 1.3; exact to the tenth). */
export function pointsOf(tenths: number): number {
  return tenths / TENTHS_PER_POINT;
}

/** Adds a gain (tenths), capped at MAX_XP_TENTHS; anything but a positive whole number adds nothing. */
export function addTenths(current: number, gained: number): number {
  if (!Number.isSafeInteger(gained) || gained <= 0) return current;
  return Math.min(MAX_XP_TENTHS, current + gained);
}

/**
 * Adds a combat gain in thirds of a tenth to the remainder carried from earlier hits: the whole tenths to grant now
 * and the new remainder (0–2).
 */
export function splitThirds(carried: number, thirds: number): { tenths: number; carried: number } {
  const total = carried + (Number.isSafeInteger(thirds) && thirds > 0 ? thirds : 0);
  return { tenths: Math.floor(total / THIRDS_PER_TENTH), carried: total % THIRDS_PER_TENTH };
}

/**
 * Run energy, from RuneScape's rules (docs/game-rules.md "Run energy"). Energy is 0–100 %, counted in hundredths of
 * a percent (0–10,000) so every tick's change is a whole number:
 *
 *   running (a tick on which the player moves at run speed): − (67 + floor(67 × min(weight, 64) / 64))
 *     — 0.67 % a tick carrying nothing, up to twice that at 64 kg or more
 *   any other tick (walking or standing):                   + (8 + floor(agility / 6))
 *     — 0.08 % a tick at agility 1, 0.24 % at 99
 *
 * At 0 running switches off; switching it on needs at least 1 %. Weight is what the player carries and wears, in kg:
 * an item's `weight` from the manifests, else 0 for a stackable and 1 for anything else (the manifests give no
 * weights). Pure: the caller says what happened on the tick; no clock.
 */
import type { Equipment } from './equipment.ts';
import type { Inventory } from './inventory.ts';
import type { ItemDefinitions } from './items.ts';

export const MAX_RUN_ENERGY = 10_000;
/** Running can be switched on from 1 %. */
export const MIN_ENERGY_TO_RUN = 100;
/** Weight beyond this drains no faster. */
export const HEAVIEST_KG = 64;

export interface RunState {
  /** Hundredths of a percent, 0–MAX_RUN_ENERGY. */
  readonly energy: number;
  /** The run toggle: the player moves two tiles a tick while it is on. */
  readonly running: boolean;
}

/** Energy a tick of running costs, carrying `weightKg`. */
export function runDrain(weightKg: number): number {
  const weight = Number.isFinite(weightKg) ? Math.min(HEAVIEST_KG, Math.max(0, weightKg)) : 0;
  return 67 + Math.floor((67 * weight) / HEAVIEST_KG);
}

/** Energy a tick without running gives back, at an agility level. */
export function runRestore(agilityLevel: number): number {
  return 8 + Math.floor(Math.max(1, agilityLevel) / 6);
}

/** One tick: `ran` says whether the player moved at run speed on it. At 0 the toggle switches off. */
export function tickRunEnergy(state: RunState, tick: { ran: boolean; weightKg: number; agilityLevel: number }): RunState {
  const energy = tick.ran
    ? Math.max(0, state.energy - runDrain(tick.weightKg))
    : Math.min(MAX_RUN_ENERGY, state.energy + runRestore(tick.agilityLevel));
  return { energy, running: state.running && energy > 0 };
}

/** Whether running may be switched on with this much energy. */
export function canRun(energy: number): boolean {
  return energy >= MIN_ENERGY_TO_RUN;
}

/** The whole percent players see (the orb's number). */
export function energyPercent(energy: number): number {
  return Math.floor(Math.max(0, Math.min(MAX_RUN_ENERGY, energy)) / 100);
}

/** An energy read from storage, made valid (a missing or broken value is full). */
export function storedEnergy(value: unknown): number {
  if (value === null || value === undefined || value === '') return MAX_RUN_ENERGY;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n <= MAX_RUN_ENERGY ? n : MAX_RUN_ENERGY;
}

/** What the player carries and wears, in kg. */
export function carriedWeight(containers: { readonly inventory: Inventory; readonly equipment: Equipment }, items: ItemDefinitions): number {
  let total = 0;
  const add = (held: { itemId: string; quantity: number } | null | undefined) => {
    if (!held) return;
    const item = items.get(held.itemId);
    const each = item?.weight ?? (item?.stackable ? 0 : 1);
    total += each * held.quantity;
  };
  for (const held of containers.inventory) add(held);
  for (const held of Object.values(containers.equipment)) add(held);
  return total;
}

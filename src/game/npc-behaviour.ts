/**
 * How NPCs behave in a fight, as pure rules: which player an aggressive NPC picks, when it fights back, when it
 * gives up a target, how it chases (one step a tick, leashed to its spawn), when it is free to wander, and the slow
 * health regeneration of players between fights. The world (rooms/world/features/skills/combat.ts) applies them on
 * the tick; the attack rolls themselves are in combat.ts.
 */
import { HEALTH_SCALE } from './constants.ts';
import { DEFAULT_REGEN_TICKS, regenerate, shouldAggress, shouldRetaliate } from './combat.ts';
import { chebyshev, type TilePoint } from './geometry.ts';
import type { NpcCombat } from '../manifests/schemas/npcs.ts';

/** Ticks a player or NPC counts as "in combat" after a hit. */
export const IN_COMBAT_TICKS = 10;
/** An NPC chases at most this far from its spawn, and gives up on targets farther than this from it. */
export const LEASH_TILES = 10;
/** How far (tiles) an aggressive NPC looks for a player to attack. */
export const AGGRESSION_SCAN_TILES = 4;

/** What the rules need to know of a fighting NPC. */
export interface NpcFightState {
  readonly at: TilePoint;
  readonly spawn: TilePoint;
  readonly wanderRadius: number;
  readonly dead: boolean;
  readonly targetId: string | null;
  readonly lastHitTick: number;
}

/** A player an aggressive NPC could pick. */
export interface AggressionCandidate {
  readonly id: string;
  readonly at: TilePoint;
  readonly combatLevel: number;
  readonly inSafeArea: boolean;
  readonly inCombat: boolean;
}

/** Fighting, hit lately, dead or away from its wander area: not free to wander. */
export function npcBusy(npc: NpcFightState, tick: number): boolean {
  return npc.dead || npc.targetId !== null || tick - npc.lastHitTick < IN_COMBAT_TICKS || chebyshev(npc.at, npc.spawn) > npc.wanderRadius;
}

/** The first candidate (in the order given) an aggressive NPC attacks, or null. */
export function pickAggressionTarget(npc: NpcCombat, at: TilePoint, candidates: Iterable<AggressionCandidate>): string | null {
  for (const candidate of candidates) {
    if (shouldAggress({
      npc, distance: chebyshev(candidate.at, at), playerCombatLevel: candidate.combatLevel,
      playerInSafeArea: candidate.inSafeArea, playerInCombat: candidate.inCombat, npcInCombat: false,
    })) return candidate.id;
  }
  return null;
}

/** The NPC's target and next attack tick after `attackerId` hit it: an NPC without a target fights back. */
export function retaliation(npc: { targetId: string | null; nextAttackTick: number }, attackerId: string, tick: number): { targetId: string | null; nextAttackTick: number } {
  if (shouldRetaliate(npc.targetId, attackerId) && npc.targetId === null) {
    return { targetId: attackerId, nextAttackTick: Math.max(npc.nextAttackTick, tick + 1) };
  }
  return { targetId: npc.targetId, nextAttackTick: npc.nextAttackTick };
}

/** Whether an NPC gives up its target: gone, dying, or led too far from the NPC's spawn. */
export function losesTarget(target: TilePoint | undefined, targetDying: boolean, spawn: TilePoint): boolean {
  return !target || targetDying || chebyshev(target, spawn) > LEASH_TILES + 2;
}

export type NpcMove =
  | { readonly kind: 'home' }
  | { readonly kind: 'idle' }
  | { readonly kind: 'chase'; readonly toward: TilePoint }
  | { readonly kind: 'wait' }
  | { readonly kind: 'attack' };

/** This tick's move of a living NPC: walk home, stand, chase its target, wait for its next swing, or attack. */
export function npcMove(npc: NpcFightState & { readonly nextAttackTick: number }, target: TilePoint | undefined, tick: number): NpcMove {
  if (!target || npc.targetId === null) {
    // Back within the wander area (wandering moves it about inside).
    return chebyshev(npc.at, npc.spawn) > npc.wanderRadius ? { kind: 'home' } : { kind: 'idle' };
  }
  if (chebyshev(npc.at, target) > 1) return { kind: 'chase', toward: target };
  if (tick < npc.nextAttackTick) return { kind: 'wait' };
  return { kind: 'attack' };
}

/**
 * One step of an NPC towards a tile: diagonal first, then along either axis; never onto a blocked tile nor more
 * than LEASH_TILES from its spawn. Null when no step helps.
 */
export function chaseStep(at: TilePoint, toward: TilePoint, spawn: TilePoint, isBlocked: (x: number, z: number) => boolean): TilePoint | null {
  const nx = at.x + Math.sign(toward.x - at.x);
  const nz = at.z + Math.sign(toward.z - at.z);
  for (const tile of [{ x: nx, z: nz }, { x: nx, z: at.z }, { x: at.x, z: nz }]) {
    if ((tile.x === at.x && tile.z === at.z) || isBlocked(tile.x, tile.z)) continue;
    if (chebyshev(tile, spawn) > LEASH_TILES) continue;
    return tile;
  }
  return null;
}

/**
 * A wounded player's health on the world scale after one tick: one level-scale hitpoint per DEFAULT_REGEN_TICKS,
 * so one world health point per tenth of that. `regenTicks` is the progress carried between ticks.
 */
export function regenerateHealth(health: number, maxHealth: number, regenTicks: number): { health: number; regenTicks: number } {
  const next = regenerate({ hitpoints: health, regenTicks }, maxHealth, 1, DEFAULT_REGEN_TICKS / HEALTH_SCALE);
  return { health: next.hitpoints, regenTicks: next.regenTicks };
}

/**
 * Home teleport: a cast of a few ticks, then the player stands on the home tile. Walking away, combat or an
 * interface held by something else (a trade) interrupt the cast; a completed one starts a cooldown.
 */

/** A cast in progress: where it started and the tick it completes on. */
export interface TeleportCast {
  readonly completesAtTick: number;
  readonly fromX: number;
  readonly fromZ: number;
}

export interface CasterState {
  readonly x: number;
  readonly z: number;
  /** Tiles of path still to walk. */
  readonly walking: boolean;
  readonly inCombat: boolean;
  /** What holds the player's interface (a trade…), or undefined. */
  readonly lock: string | undefined;
}

export type TeleportRefusal =
  | { readonly code: 'ALREADY_CASTING' | 'IN_COMBAT'; readonly message: string }
  | { readonly code: 'COOLDOWN'; readonly message: string; readonly details: { readonly readyInMs: number } };

/** Why a home teleport may not start now, or null when it may (checked in this order). */
export function homeTeleportRefusal(casting: boolean, inCombat: boolean, readyAt: number, now: number): TeleportRefusal | null {
  if (casting) return { code: 'ALREADY_CASTING', message: 'You are already teleporting' };
  if (inCombat) return { code: 'IN_COMBAT', message: 'You cannot teleport home during combat' };
  if (now < readyAt) return { code: 'COOLDOWN', message: 'Home teleport is not ready yet', details: { readyInMs: readyAt - now } };
  return null;
}

export function startCast(x: number, z: number, tick: number, castTicks: number): TeleportCast {
  return { completesAtTick: tick + castTicks, fromX: x, fromZ: z };
}

/** One tick of a cast: interrupted (and why), completed, or still casting. */
export type CastStep = { readonly interrupted: string } | { readonly completed: true } | { readonly casting: true };

export function stepCast(cast: TeleportCast, caster: CasterState, tick: number): CastStep {
  if (caster.walking || caster.x !== cast.fromX || caster.z !== cast.fromZ) return { interrupted: 'moved' };
  if (caster.inCombat) return { interrupted: 'combat' };
  if (caster.lock) return { interrupted: caster.lock };
  if (tick >= cast.completesAtTick) return { completed: true };
  return { casting: true };
}

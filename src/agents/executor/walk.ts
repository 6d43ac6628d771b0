/**
 * Walking toward a tile in legs: each leg is a `player:move` on the character's connection (so pathfinding, the
 * 64-tile move cap and blocked tiles apply), at most 48 tiles, retried with shorter legs when refused. A leg is run
 * while the character's run energy lasts (the room switches running off at 0) and started running again only from
 * AGENT_RUN_FROM_PERCENT, as a player would: otherwise it walks and its energy comes back.
 */
import { waypointToward, type Tile } from '../planning.ts';
import { chebyshev } from '../../game/geometry.ts';
import { energyPercent } from '../../game/run-energy.ts';
import type { WalkPlan } from '../runtime.ts';
import { interfaceHeld, type Step } from './step.ts';

/** Leg lengths tried, longest first (each ≤ the 64-tile move cap with the walkable-tile search). */
const LEG_SIZES = [48, 24, 12, 6];
/** Refused legs in a row before the goal fails. */
export const MAX_LEG_FAILURES = 8;
/** A destination that moved at most this far (a wandering NPC) continues the same walk. */
const SAME_DESTINATION = 4;
/** A walking agent starts running again once its run energy is back to this (whole percent). */
export const AGENT_RUN_FROM_PERCENT = 30;

/** Whether the next leg is run: it keeps running while it runs, and starts again only with energy to spare. */
export function runsNextLeg(character: { readonly runEnergy: number; readonly state: { readonly running: boolean } }): boolean {
  return character.state.running ? character.runEnergy > 0 : energyPercent(character.runEnergy) >= AGENT_RUN_FROM_PERCENT;
}

/**
 * One step of a walk toward `destination`; returns `arrived` unchanged so callers can write
 * `if (!walkToward(...)) return`. A new destination replaces whatever path the character was walking.
 */
export function walkToward(step: Step, destination: Tile, arrived: boolean, what: string): boolean {
  if (arrived) return true;
  const { runtime, player } = step;
  let plan = runtime.plan;
  const fresh = !plan || chebyshev(plan.destination, destination) > SAME_DESTINATION;
  if (!plan || fresh) {
    plan = { destination, startDistance: Math.max(1, chebyshev(player, destination)), failures: 0 };
    runtime.plan = plan;
  } else {
    plan.destination = destination;
  }
  if (interfaceHeld(step)) return false;
  if (fresh || player.path.length === 0) leg(step, plan, what);
  return false;
}

function leg(step: Step, plan: WalkPlan, what: string): void {
  const { world, runtime, player } = step;
  const size = LEG_SIZES[Math.min(plan.failures, LEG_SIZES.length - 1)]!;
  const target = waypointToward(world.blocked, { x: player.x, z: player.z }, plan.destination, size);
  const refused = () => {
    plan.failures += 1;
    if (plan.failures >= MAX_LEG_FAILURES && runtime.plan === plan) step.finish('failed', `no path toward ${what}`);
  };
  if (!target) return refused();
  const before = { x: player.x, z: player.z };
  step.send('player:move', { x: target.x, z: target.z, run: runsNextLeg(player) }, () => {
    const moving = player.path.length > 0 || (player.x === target.x && player.z === target.z);
    if (moving || player.x !== before.x || player.z !== before.z) plan.failures = 0;
    else refused();
  });
}

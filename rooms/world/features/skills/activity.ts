/**
 * What a player is busy doing on the tick (gathering, processing, fighting, praying at an altar): one activity at a
 * time. Starting one walks the player beside the target first (the movement feature's path); walking elsewhere,
 * another action or leaving stops it. Randomness is injectable for tests (`setSkillsRng`).
 */
import { distanceToRect } from '../../../../src/game/geometry.ts';
import { findPathNextTo } from '../../../../src/game/pathfinding.ts';
import type { TileRect } from '../../../../src/manifests/schemas/common.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { PlayerSlot } from '../../area.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';

export type ActivityKind = 'gather' | 'process' | 'attack' | 'pray';

export interface Activity {
  readonly kind: ActivityKind;
  readonly targetId: string | undefined;
  /** The player is walking to the target (a path the activity set, not one the player asked for). */
  approaching: boolean;
  /** An item transaction of this activity is running; the tick skips it meanwhile. */
  busy: boolean;
  /** The first tick at which the activity acts again. */
  nextTick: number;
  readonly data: Record<string, unknown>;
}

/** The player's current activity (none when idle). */
export const activities = new PlayerSlot<Activity | undefined>('activity', () => undefined);

let rng: () => number = Math.random;

/** Replaces the randomness of gathering, processing, combat and drops (tests). */
export function setSkillsRng(next: () => number): void {
  rng = next;
}

export function random(): number {
  return rng();
}

/** The player's current activity, if any (agents and tests read it). */
export function currentActivity(player: OnlinePlayer): Activity | undefined {
  return activities.peek(player);
}

export function startActivity(player: OnlinePlayer, activity: Omit<Activity, 'busy' | 'approaching'>): Activity {
  const started: Activity = { ...activity, busy: false, approaching: false };
  activities.set(player, started);
  return started;
}

/** Ends the activity; with a reason the client hears `action:stopped {action, targetId, reason}`. */
export function stopActivity(world: WorldApi, player: OnlinePlayer, reason?: string, message?: string): void {
  const activity = activities.peek(player);
  if (!activity) return;
  activities.clear(player);
  if (player.state.action !== 'walking' && player.state.action !== 'idle') {
    player.state.action = 'idle';
    world.markChanged(player);
  }
  if (reason) player.client.send('action:stopped', { action: activity.kind, targetId: activity.targetId ?? null, reason, ...(message ? { message } : {}) });
}

/**
 * Whether the player is within `reach` of the rectangle. When not and no walk is under way, a path beside it is
 * planned (throws the path-finding refusal, or NOT_ADJACENT when the target cannot be reached).
 */
export function reachOrApproach(world: WorldApi, player: OnlinePlayer, activity: Activity | undefined, rect: TileRect, reach = 1): boolean {
  if (distanceToRect(player.x, player.z, rect) <= reach) {
    if (activity) activity.approaching = false;
    return true;
  }
  if (activity?.approaching && player.path.length > 0) return false;
  const path = findPathNextTo(world.blocked, { x: player.x, z: player.z }, rect, { maxDistance: 64 });
  if (!path.ok || path.value.length === 0) throw new GameError('NOT_ADJACENT', 'You cannot get next to that');
  // Walked or run as the player's run toggle says (movement.ts).
  player.path = path.value;
  player.state.action = 'walking';
  world.markChanged(player);
  if (activity) activity.approaching = true;
  return false;
}

/** The player walked off on their own (a path the activity did not plan): the activity ends. */
export function walkedAway(player: OnlinePlayer, activity: Activity): boolean {
  return !activity.approaching && player.path.length > 0;
}

export function tileRect(x: number, z: number): TileRect {
  return { minX: x, maxX: x, minZ: z, maxZ: z };
}

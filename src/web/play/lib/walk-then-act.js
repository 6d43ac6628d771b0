// Options that need the player within reach (actions.js `near`): walk there first, then send the event once the
// player stands within reach of the target — which may be moving (an NPC, a player) or a station's footprint.
// Given up when the player walks elsewhere, or stops out of reach. No DOM.

import { approachTile, REACH } from './actions.js';
import { distanceToRect } from './camera.js';

const MAX_RETRIES = 3;

function moveTo(tile, run) {
  return { type: 'player:move', data: { x: tile.x, z: tile.z, ...(run ? { run: true } : {}) } };
}

export class WalkThenAct {
  constructor() {
    /** @type {{ option: any, world: any, run: boolean, retries: number } | undefined} */
    this.pending = undefined;
  }

  /**
   * Starts an option. Returns what to send now: the option's own event when the player is already within reach,
   * else a `player:move` toward it (or nothing when no tile near it can be walked to).
   * @returns {{ type: string, data: object } | { refusal: string } | undefined}
   */
  start(option, self, lookup, world, run = false) {
    this.pending = undefined;
    const rect = targetRect(option.near, lookup);
    if (!rect) return { refusal: 'That is no longer there.' };
    if (distanceToRect(self, rect) <= REACH) return { type: option.event, data: option.data };
    const tile = approachTile(world, rect, REACH, self);
    if (!tile) return { refusal: 'You cannot reach that.' };
    this.pending = { option, world, run, retries: 0 };
    return moveTo(tile, run);
  }

  /**
   * Called whenever the player's position or path changes. Returns the option's event once within reach, a new
   * move when the player stopped short of a target that moved, and gives up after a few of those or when the
   * target is gone.
   */
  check(self, walking, lookup) {
    if (!this.pending) return undefined;
    const rect = targetRect(this.pending.option.near, lookup);
    if (!rect) {
      this.pending = undefined;
      return { refusal: 'That is no longer there.' };
    }
    if (distanceToRect(self, rect) <= REACH) {
      const { option } = this.pending;
      this.pending = undefined;
      return { type: option.event, data: option.data };
    }
    if (walking) return undefined;
    // Stopped short: the target moved (an NPC wandering). Walk again, a few times at most.
    const tile = this.pending.retries < MAX_RETRIES ? approachTile(this.pending.world, rect, REACH, self) : undefined;
    if (!tile) {
      this.pending = undefined;
      return { refusal: 'You could not get close enough.' };
    }
    this.pending.retries++;
    return moveTo(tile, this.pending.run);
  }

  /** The player chose something else (a walk, another option). */
  cancel() {
    this.pending = undefined;
  }
}

/** The tiles the target covers now: an entity's tile (looked up, it may move) or a fixed rectangle. */
function targetRect(near, lookup) {
  if (near.rect) return near.rect;
  const entity = lookup(near.kind, near.id);
  return entity ? { minX: entity.x, minZ: entity.z, maxX: entity.x, maxZ: entity.z } : undefined;
}

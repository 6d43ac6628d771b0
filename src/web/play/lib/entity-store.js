// What the player can see: the entities of its area of interest, kept from the `world:update` stream
// (docs/protocol.md "world:update"): `added` carries whole snapshots, `changed` only the fields that changed
// (merged by kind + id), `removed` drops them. No DOM.
//
// Movement is shown smoothly: when an entity's tile changes, it glides from where it was drawn to the new tile
// over one tick (600 ms), the time the server takes to step again. A jump of more than two tiles (a teleport, a
// respawn) is shown at once.

export const TICK_MS = 600;
const MAX_GLIDE_TILES = 2;

/** The entity kinds a `world:update` carries (protocol.md, economy.md, skills.md). */
export const KINDS = ['player', 'npc', 'resource', 'groundItem', 'gravestone', 'fire'];

/**
 * @typedef {{ kind: string, id: string, x: number, z: number, [field: string]: any }} Entity
 * Each stored entity also has `motion`: { fromX, fromZ, start } for drawing.
 */

export class EntityStore {
  constructor() {
    /** @type {Map<string, Map<string, Entity>>} kind → id → entity */
    this.kinds = new Map(KINDS.map((kind) => [kind, new Map()]));
    this.tick = 0;
    this.updates = 0;
  }

  /** @private */
  mapOf(kind) {
    let map = this.kinds.get(kind);
    if (!map) this.kinds.set(kind, (map = new Map()));
    return map;
  }

  /**
   * Applies one `world:update` (the readable encoding) at time `now` (ms, the page's clock).
   * @returns {{ added: Entity[], changed: Entity[], removed: Entity[] }} what it touched, as now stored
   */
  apply(update, now) {
    const touched = { added: [], changed: [], removed: [] };
    if (typeof update.tick === 'number') this.tick = update.tick;
    for (const snapshot of update.added ?? []) {
      const entity = { ...snapshot, motion: { fromX: snapshot.x, fromZ: snapshot.z, start: now } };
      this.mapOf(snapshot.kind).set(snapshot.id, entity);
      touched.added.push(entity);
    }
    for (const change of update.changed ?? []) {
      const entity = this.mapOf(change.kind).get(change.id);
      if (!entity) continue; // never shown to us: nothing to merge into
      const moved = ('x' in change && change.x !== entity.x) || ('z' in change && change.z !== entity.z);
      if (moved) {
        const drawn = this.position(entity, now);
        const nextX = change.x ?? entity.x;
        const nextZ = change.z ?? entity.z;
        const far = Math.max(Math.abs(nextX - drawn.x), Math.abs(nextZ - drawn.z)) > MAX_GLIDE_TILES;
        entity.motion = far ? { fromX: nextX, fromZ: nextZ, start: now } : { fromX: drawn.x, fromZ: drawn.z, start: now };
      }
      for (const key of Object.keys(change)) if (key !== 'kind' && key !== 'id') entity[key] = change[key];
      touched.changed.push(entity);
    }
    for (const gone of update.removed ?? []) {
      const map = this.mapOf(gone.kind);
      const entity = map.get(gone.id);
      if (!entity) continue;
      map.delete(gone.id);
      touched.removed.push(entity);
    }
    this.updates++;
    return touched;
  }

  get(kind, id) {
    return this.kinds.get(kind)?.get(id);
  }

  /** Every entity of a kind (a live view: do not change the store while iterating). */
  list(kind) {
    return this.mapOf(kind).values();
  }

  count(kind) {
    return this.mapOf(kind).size;
  }

  /** Forgets everything (a new world, or a new connection that will be sent everything again). */
  clear() {
    for (const map of this.kinds.values()) map.clear();
  }

  /** Where to draw an entity at time `now`: between its previous and its current tile. */
  position(entity, now) {
    const motion = entity.motion;
    if (!motion) return { x: entity.x, z: entity.z };
    const t = Math.min(1, Math.max(0, (now - motion.start) / TICK_MS));
    return { x: motion.fromX + (entity.x - motion.fromX) * t, z: motion.fromZ + (entity.z - motion.fromZ) * t };
  }

  /**
   * Everything under a point (tile coordinates, fractional) within `radius` tiles, of the given kinds in order of
   * preference (people before what lies beneath them), nearest first within a kind. `except`: an id never picked
   * (the player itself, so that a click on its own tile reaches what it stands on).
   * @param {number} x
   * @param {number} z
   * @param {number} now
   * @param {{ radius?: number, kinds?: string[], except?: string }} [options]
   * @returns {Entity[]}
   */
  pickAll(x, z, now, { radius = 0.75, kinds = ['player', 'npc', 'gravestone', 'groundItem', 'resource', 'fire'], except = undefined } = {}) {
    const found = [];
    for (const kind of kinds) {
      const near = [];
      for (const entity of this.list(kind)) {
        if (entity.id === except) continue;
        const at = this.position(entity, now);
        const distance = Math.max(Math.abs(at.x - x), Math.abs(at.z - z));
        if (distance <= radius) near.push({ entity, distance });
      }
      near.sort((a, b) => a.distance - b.distance);
      found.push(...near.map((n) => n.entity));
    }
    return found;
  }

  /**
   * The first of `pickAll`: what a left click acts on.
   * @param {number} x
   * @param {number} z
   * @param {number} now
   * @param {{ radius?: number, kinds?: string[], except?: string }} [options]
   */
  pick(x, z, now, options = {}) {
    return this.pickAll(x, z, now, options)[0];
  }
}

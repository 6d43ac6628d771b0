/**
 * Area of interest: a uniform grid over the tile map answers "what is near (x, z)" without scanning the world,
 * and each observer keeps the set it currently sees so a tick yields only what entered, changed or left.
 * Cost per observer depends on local density, not on world population.
 */

export type EntityKind = 'player' | 'npc' | 'resource' | 'groundItem' | 'gravestone' | 'fire';

export interface TrackedEntity {
  readonly kind: EntityKind;
  readonly id: string;
  readonly x: number;
  readonly z: number;
  /** Optional visibility filter (e.g. a ground item shown only to its owner for a while). */
  visibleTo?: (observerId: string) => boolean;
  /** Plain snapshot for JSON clients (sent when the entity comes into view); cached per tick by the room. */
  snapshot(): Record<string, unknown>;
  /** The fields that change during play (sent when a visible entity changed); `kind` and `id` included. */
  delta(): Record<string, unknown>;
}

export interface InterestDiff {
  added: TrackedEntity[];
  changed: TrackedEntity[];
  removed: TrackedEntity[];
}

export class SpatialGrid {
  private readonly cells = new Map<number, Set<TrackedEntity>>();
  private readonly cellSize: number;

  constructor(cellSize: number) {
    this.cellSize = cellSize;
  }

  private key(x: number, z: number): number {
    // Tiles are small non-negative-ish integers; pack the two cell coordinates into one number.
    return Math.floor(x / this.cellSize) * 1_000_003 + Math.floor(z / this.cellSize);
  }

  insert(entity: TrackedEntity): void {
    const key = this.key(entity.x, entity.z);
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = new Set()));
    cell.add(entity);
  }

  remove(entity: TrackedEntity, x = entity.x, z = entity.z): void {
    const key = this.key(x, z);
    const cell = this.cells.get(key);
    cell?.delete(entity);
    if (cell?.size === 0) this.cells.delete(key);
  }

  move(entity: TrackedEntity, fromX: number, fromZ: number): void {
    if (this.key(fromX, fromZ) === this.key(entity.x, entity.z)) return;
    this.remove(entity, fromX, fromZ);
    this.insert(entity);
  }

  /** Calls `visit` for every entity within Chebyshev distance `radius` of (x, z). */
  forEachNear(x: number, z: number, radius: number, visit: (entity: TrackedEntity) => void): void {
    const minCellX = Math.floor((x - radius) / this.cellSize);
    const maxCellX = Math.floor((x + radius) / this.cellSize);
    const minCellZ = Math.floor((z - radius) / this.cellSize);
    const maxCellZ = Math.floor((z + radius) / this.cellSize);
    for (let cx = minCellX; cx <= maxCellX; cx++) {
      for (let cz = minCellZ; cz <= maxCellZ; cz++) {
        const cell = this.cells.get(cx * 1_000_003 + cz);
        if (!cell) continue;
        for (const entity of cell) {
          if (Math.abs(entity.x - x) <= radius && Math.abs(entity.z - z) <= radius) visit(entity);
        }
      }
    }
  }
}

/**
 * Tiles past the radius an entity already in view may go before it leaves the view. Without the margin, every
 * step back and forth across the edge costs a removal and a whole snapshot again (RuneScape's views work alike).
 */
export const INTEREST_HYSTERESIS = 2;

/** What one observer (a player's connection) currently sees. */
export class InterestSet {
  visible = new Set<TrackedEntity>();
  /** Reused between updates (swapped with `visible`) so a tick allocates no sets. */
  private next = new Set<TrackedEntity>();

  /**
   * Recomputes the visible set around (x, z) and returns the difference since the last call; `changed` holds the
   * visible entities found in `dirty` (those that changed since the last update). An entity comes into view within
   * `radius` and leaves it beyond `radius + INTEREST_HYSTERESIS`.
   */
  update(grid: SpatialGrid, observerId: string, x: number, z: number, radius: number, dirty: ReadonlySet<TrackedEntity>): InterestDiff {
    const next = this.next;
    const visible = this.visible;
    next.clear();
    grid.forEachNear(x, z, radius + INTEREST_HYSTERESIS, (entity) => {
      if (entity.visibleTo && !entity.visibleTo(observerId)) return;
      if (visible.has(entity) || (Math.abs(entity.x - x) <= radius && Math.abs(entity.z - z) <= radius)) next.add(entity);
    });
    const diff: InterestDiff = { added: [], changed: [], removed: [] };
    for (const entity of next) {
      if (!this.visible.has(entity)) diff.added.push(entity);
      else if (dirty.has(entity)) diff.changed.push(entity);
    }
    for (const entity of this.visible) {
      if (!next.has(entity)) diff.removed.push(entity);
    }
    this.next = this.visible;
    this.visible = next;
    return diff;
  }

  /** Everything currently visible leaves (the observer is going away). */
  clear(): void {
    this.visible.clear();
  }
}

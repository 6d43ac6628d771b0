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
  /**
   * Scratch space of InterestSet.update (start it at 0; nothing else writes it): marks what the observer being
   * updated saw, so the update needs no hash lookups. InterestScratch starts it.
   */
  interestMark: number;
  /**
   * Scratch space of the tick's fan-out (interest-sync.ts; start it undefined, nothing else writes it): what changed
   * in the entity this tick, set for the tick's deliveries only. InterestScratch starts it.
   */
  tickChange: object | undefined;
  /** Optional visibility filter (e.g. a ground item shown only to its owner for a while). */
  visibleTo?: (observerId: string) => boolean;
  /** Plain snapshot for JSON clients (sent when the entity comes into view); cached per tick by the room. */
  snapshot(): Record<string, unknown>;
  /** The fields that change during play (sent when a visible entity changed); `kind` and `id` included. */
  delta(): Record<string, unknown>;
}

/**
 * The scratch fields of a TrackedEntity, started as they must be: the base class of the world's entities. They are
 * plain fields, the first own properties of every entity (as when each class declared them), because the tick reads
 * and writes them for every entity near every observer: no accessor or side table on that path.
 */
export abstract class InterestScratch {
  interestMark = 0;
  tickChange: object | undefined = undefined;
}

/** What an InterestSet.update found; valid until that set's next update (its arrays are reused). */
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

  /** The cells that hold every entity within Chebyshev distance `radius` of (x, z) (and others near them). */
  cellsNear(x: number, z: number, radius: number): Set<TrackedEntity>[] {
    const cells: Set<TrackedEntity>[] = [];
    const maxCellX = Math.floor((x + radius) / this.cellSize);
    const minCellZ = Math.floor((z - radius) / this.cellSize);
    const maxCellZ = Math.floor((z + radius) / this.cellSize);
    for (let cx = Math.floor((x - radius) / this.cellSize); cx <= maxCellX; cx++) {
      for (let cz = minCellZ; cz <= maxCellZ; cz++) {
        const cell = this.cells.get(cx * 1_000_003 + cz);
        if (cell) cells.push(cell);
      }
    }
    return cells;
  }

  /** Calls `visit` for every entity within Chebyshev distance `radius` of (x, z). */
  forEachNear(x: number, z: number, radius: number, visit: (entity: TrackedEntity) => void): void {
    for (const cell of this.cellsNear(x, z, radius)) {
      for (const entity of cell) {
        if (Math.abs(entity.x - x) <= radius && Math.abs(entity.z - z) <= radius) visit(entity);
      }
    }
  }
}

/**
 * Tiles past the radius an entity already in view may go before it leaves the view. Without the margin, every
 * step back and forth across the edge costs a removal and a whole snapshot again (RuneScape's views work alike).
 */
export const INTEREST_HYSTERESIS = 2;

/**
 * Marks handed out to InterestSet.update, two per update (seen before, still seen): larger than any mark an entity
 * carries, so an entity carries the current update's marks only if this update set them.
 */
let lastMark = 0;

/** What one observer (a player's connection) currently sees. */
export class InterestSet {
  visible: TrackedEntity[] = [];
  /** Reused between updates (swapped with `visible`), like the difference's arrays: a tick allocates no arrays. */
  private next: TrackedEntity[] = [];
  private readonly diff: InterestDiff = { added: [], changed: [], removed: [] };

  /**
   * Recomputes the visible set around (x, z) and returns the difference since the last call, in arrays the next
   * call reuses; `changed` holds the visible entities that changed this tick (those carrying a `tickChange`). An
   * entity comes into view within `radius` and leaves it beyond `radius + INTEREST_HYSTERESIS`.
   *
   * The entities seen before are marked `seen`; the scan re-marks those it finds again `kept`. This is the hot loop
   * of a crowded world (every observer, every nearby entity, every tick), so it reads plain fields, not sets.
   */
  update(grid: SpatialGrid, observerId: string, x: number, z: number, radius: number): InterestDiff {
    const seen = ++lastMark;
    const kept = ++lastMark;
    const before = this.visible;
    for (let i = 0; i < before.length; i++) before[i].interestMark = seen;
    // Written by index and cut to length at the end: `length = 0` would drop the arrays' storage every update.
    const next = this.next;
    const { added, changed, removed } = this.diff;
    let nextCount = 0;
    let addedCount = 0;
    let changedCount = 0;
    let removedCount = 0;
    const outer = radius + INTEREST_HYSTERESIS;
    const cells = grid.cellsNear(x, z, outer);
    for (let c = 0; c < cells.length; c++) {
      for (const entity of cells[c]) {
        const dx = Math.abs(entity.x - x);
        const dz = Math.abs(entity.z - z);
        if (dx > outer || dz > outer) continue;
        const wasSeen = entity.interestMark === seen;
        if (!wasSeen && (dx > radius || dz > radius)) continue;
        if (entity.visibleTo && !entity.visibleTo(observerId)) continue;
        next[nextCount++] = entity;
        if (wasSeen) {
          entity.interestMark = kept;
          if (entity.tickChange !== undefined) changed[changedCount++] = entity;
        } else added[addedCount++] = entity;
      }
    }
    for (let i = 0; i < before.length; i++) if (before[i].interestMark === seen) removed[removedCount++] = before[i];
    next.length = nextCount;
    added.length = addedCount;
    changed.length = changedCount;
    removed.length = removedCount;
    this.next = before;
    this.visible = next;
    return this.diff;
  }

  /** Everything currently visible leaves (the observer is going away). */
  clear(): void {
    this.visible.length = 0;
  }
}

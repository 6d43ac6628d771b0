/**
 * A* on the tile grid (the blocked-tile mask of src/manifests/blocked-tiles.ts). Eight directions; a diagonal
 * step is allowed only when both tiles beside it are free (no cutting corners). Steps cost 10 straight and 14
 * diagonal (octile distance), so paths are short and natural. The search stays inside a square of
 * `maxDistance` tiles around the start and expands at most `maxNodes` tiles; targets farther away are refused
 * before any search.
 */
import type { TilePoint, TileRect } from '../manifests/schemas/common.ts';
import { chebyshev, distanceToRect } from './geometry.ts';
import { ok, refuse, type Result } from './result.ts';

export type { TilePoint };

/** What path-finding needs of the world: its size and which tiles are blocked (BlockedTiles fits). */
export interface WalkGrid {
  readonly width: number;
  readonly depth: number;
  isBlocked(x: number, z: number): boolean;
}

export interface PathOptions {
  /** Largest allowed Chebyshev distance from start to target (and the search radius). */
  readonly maxDistance?: number;
  /** Most tiles the search may expand before giving up. */
  readonly maxNodes?: number;
}

export const DEFAULT_MAX_DISTANCE = 64;
export const DEFAULT_MAX_NODES = 8192;

export type PathCode = 'OUT_OF_BOUNDS' | 'BLOCKED' | 'UNREACHABLE' | 'TOO_FAR';

const STRAIGHT = 10;
const DIAGONAL = 14;
const DIRECTIONS: readonly [number, number][] = [
  [1, 0], [-1, 0], [0, 1], [0, -1],
  [1, 1], [1, -1], [-1, 1], [-1, -1],
];

/** The tiles to walk from `from` (excluded) to `to` (included); empty when already there. */
export function findPath(grid: WalkGrid, from: TilePoint, to: TilePoint, options: PathOptions = {}): Result<TilePoint[], PathCode> {
  if (!onGrid(grid, from)) return refuse('OUT_OF_BOUNDS', 'the start is outside the world');
  if (!onGrid(grid, to)) return refuse('OUT_OF_BOUNDS', 'the target is outside the world');
  const maxDistance = options.maxDistance ?? DEFAULT_MAX_DISTANCE;
  if (chebyshev(from, to) > maxDistance) return refuse('TOO_FAR', `the target is more than ${maxDistance} tiles away`);
  if (grid.isBlocked(to.x, to.z)) return refuse('BLOCKED', 'the target tile cannot be walked on');
  // The common case of a single step needs no search (and none of its buffers).
  if (chebyshev(from, to) === 1 && canStep(grid, from, to)) return ok([{ x: to.x, z: to.z }]);
  const target: TileRect = { minX: to.x, maxX: to.x, minZ: to.z, maxZ: to.z };
  return search(grid, from, (x, z) => x === to.x && z === to.z, (x, z) => octileToRect(x, z, target), maxDistance, options);
}

/**
 * A path to a free tile straight beside (north, south, east or west of) a rectangle — a tree, a rock, a
 * station, an NPC — from where the player can interact with it. Empty when already there.
 */
export function findPathNextTo(grid: WalkGrid, from: TilePoint, target: TileRect, options: PathOptions = {}): Result<TilePoint[], PathCode> {
  if (!onGrid(grid, from)) return refuse('OUT_OF_BOUNDS', 'the start is outside the world');
  if (!onGrid(grid, { x: target.minX, z: target.minZ }) || !onGrid(grid, { x: target.maxX, z: target.maxZ })) {
    return refuse('OUT_OF_BOUNDS', 'the target is outside the world');
  }
  const maxDistance = options.maxDistance ?? DEFAULT_MAX_DISTANCE;
  // The tiles beside the rectangle are one step closer than the rectangle itself.
  if (distanceToRect(from.x, from.z, target) > maxDistance + 1) {
    return refuse('TOO_FAR', `the target is more than ${maxDistance} tiles away`);
  }
  const isGoal = (x: number, z: number) => isBesideRect(x, z, target);
  const heuristic = (x: number, z: number) => Math.max(0, octileToRect(x, z, target) - STRAIGHT);
  return search(grid, from, isGoal, heuristic, maxDistance + 1, options);
}

/** Whether a tile is straight beside a rectangle (not diagonal to a corner, not inside). */
export function isBesideRect(x: number, z: number, rect: TileRect): boolean {
  const withinX = x >= rect.minX && x <= rect.maxX;
  const withinZ = z >= rect.minZ && z <= rect.maxZ;
  return (withinX && (z === rect.minZ - 1 || z === rect.maxZ + 1)) || (withinZ && (x === rect.minX - 1 || x === rect.maxX + 1));
}

/** One game tick of movement: one tile walking, two running (one if only one is left). */
export function stepAlong(path: readonly TilePoint[], running: boolean): { moved: TilePoint[]; position: TilePoint | null; remaining: TilePoint[] } {
  const count = Math.min(path.length, running ? 2 : 1);
  const moved = path.slice(0, count);
  return { moved, position: moved.at(-1) ?? null, remaining: path.slice(count) };
}

/** A one-tile step onto a free tile; a diagonal one only when both tiles beside it are free (no corner cutting). */
export function canStep(grid: WalkGrid, from: TilePoint, to: TilePoint): boolean {
  if (grid.isBlocked(to.x, to.z)) return false;
  if (from.x === to.x || from.z === to.z) return true;
  return !grid.isBlocked(to.x, from.z) && !grid.isBlocked(from.x, to.z);
}

function onGrid(grid: WalkGrid, tile: TilePoint): boolean {
  return (
    tile !== null && typeof tile === 'object' &&
    Number.isInteger(tile.x) && Number.isInteger(tile.z) &&
    tile.x >= 0 && tile.z >= 0 && tile.x < grid.width && tile.z < grid.depth
  );
}

function octileToRect(x: number, z: number, rect: TileRect): number {
  const dx = x < rect.minX ? rect.minX - x : x > rect.maxX ? x - rect.maxX : 0;
  const dz = z < rect.minZ ? rect.minZ - z : z > rect.maxZ ? z - rect.maxZ : 0;
  return STRAIGHT * Math.max(dx, dz) + (DIAGONAL - STRAIGHT) * Math.min(dx, dz);
}

function search(
  grid: WalkGrid,
  from: TilePoint,
  isGoal: (x: number, z: number) => boolean,
  heuristic: (x: number, z: number) => number,
  radius: number,
  options: PathOptions,
): Result<TilePoint[], PathCode> {
  if (isGoal(from.x, from.z)) return ok([]);
  const maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;
  // The search window: the square of `radius` tiles around the start, clipped to the world.
  const minX = Math.max(0, from.x - radius);
  const minZ = Math.max(0, from.z - radius);
  const maxX = Math.min(grid.width - 1, from.x + radius);
  const maxZ = Math.min(grid.depth - 1, from.z + radius);
  const w = maxX - minX + 1;
  const size = w * (maxZ - minZ + 1);
  const cost = new Float64Array(size).fill(Infinity);
  const parent = new Int32Array(size).fill(-1);
  const closed = new Uint8Array(size);
  const index = (x: number, z: number) => (z - minZ) * w + (x - minX);
  const free = (x: number, z: number) => x >= minX && x <= maxX && z >= minZ && z <= maxZ && !grid.isBlocked(x, z);

  const open = new MinHeap();
  const start = index(from.x, from.z);
  cost[start] = 0;
  open.push(start, heuristic(from.x, from.z), heuristic(from.x, from.z));
  let expanded = 0;
  while (open.size > 0) {
    const current = open.pop();
    if (closed[current]) continue;
    closed[current] = 1;
    const x = (current % w) + minX;
    const z = Math.floor(current / w) + minZ;
    if (isGoal(x, z)) return ok(rebuild(current, parent, w, minX, minZ));
    if (++expanded > maxNodes) return refuse('UNREACHABLE', `no path found within ${maxNodes} tiles of search`);
    for (const [dx, dz] of DIRECTIONS) {
      const nx = x + dx;
      const nz = z + dz;
      if (!free(nx, nz)) continue;
      if (dx !== 0 && dz !== 0 && (!free(x + dx, z) || !free(x, z + dz))) continue;
      const next = index(nx, nz);
      if (closed[next]) continue;
      const g = cost[current] + (dx !== 0 && dz !== 0 ? DIAGONAL : STRAIGHT);
      if (g < cost[next]) {
        cost[next] = g;
        parent[next] = current;
        const h = heuristic(nx, nz);
        open.push(next, g + h, h);
      }
    }
  }
  return refuse('UNREACHABLE', 'no path leads there');
}

function rebuild(end: number, parent: Int32Array, w: number, minX: number, minZ: number): TilePoint[] {
  const path: TilePoint[] = [];
  for (let at = end; parent[at] !== -1; at = parent[at]) path.push({ x: (at % w) + minX, z: Math.floor(at / w) + minZ });
  return path.reverse();
}

/** A binary heap of node indices ordered by f, then h (prefer nodes closer to the goal), then insertion. */
class MinHeap {
  private nodes: number[] = [];
  private f: number[] = [];
  private h: number[] = [];
  private seq: number[] = [];
  private counter = 0;

  get size(): number {
    return this.nodes.length;
  }

  push(node: number, f: number, h: number): void {
    this.nodes.push(node);
    this.f.push(f);
    this.h.push(h);
    this.seq.push(this.counter++);
    let i = this.nodes.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  pop(): number {
    const top = this.nodes[0];
    const last = this.nodes.length - 1;
    this.swap(0, last);
    this.nodes.pop();
    this.f.pop();
    this.h.pop();
    this.seq.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.nodes.length && this.less(l, m)) m = l;
      if (r < this.nodes.length && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    if (this.f[a] !== this.f[b]) return this.f[a] < this.f[b];
    if (this.h[a] !== this.h[b]) return this.h[a] < this.h[b];
    return this.seq[a] < this.seq[b];
  }

  private swap(a: number, b: number): void {
    [this.nodes[a], this.nodes[b]] = [this.nodes[b], this.nodes[a]];
    [this.f[a], this.f[b]] = [this.f[b], this.f[a]];
    [this.h[a], this.h[b]] = [this.h[b], this.h[a]];
    [this.seq[a], this.seq[b]] = [this.seq[b], this.seq[a]];
  }
}

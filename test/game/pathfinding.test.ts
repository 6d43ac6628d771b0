import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findPath, findPathNextTo, isBesideRect, stepAlong, type TilePoint, type WalkGrid } from '../../src/game/pathfinding.ts';
import { computeBlockedTiles, placedStationTiles } from '../../src/manifests/blocked-tiles.ts';
import { bundledData } from './support/bundled-data.ts';
import { expectCode, expectOk } from './support/results.ts';

/** A grid from rows of text: `#` blocked, anything else free. Row index is z, column is x. */
function gridOf(...rows: string[]): WalkGrid {
  return {
    width: rows[0].length,
    depth: rows.length,
    isBlocked: (x, z) => x < 0 || z < 0 || z >= rows.length || x >= rows[0].length || rows[z][x] === '#',
  };
}

function openGrid(width: number, depth: number): WalkGrid {
  return { width, depth, isBlocked: (x, z) => x < 0 || z < 0 || x >= width || z >= depth };
}

/** Every step moves one tile onto a free tile without cutting a corner. */
function assertWalkable(grid: WalkGrid, from: TilePoint, path: readonly TilePoint[]): void {
  let at = from;
  for (const step of path) {
    const dx = step.x - at.x;
    const dz = step.z - at.z;
    assert.ok(Math.max(Math.abs(dx), Math.abs(dz)) === 1, `jump from ${at.x},${at.z} to ${step.x},${step.z}`);
    assert.ok(!grid.isBlocked(step.x, step.z), `blocked ${step.x},${step.z}`);
    if (dx !== 0 && dz !== 0) assert.ok(!grid.isBlocked(at.x + dx, at.z) && !grid.isBlocked(at.x, at.z + dz), `corner cut at ${at.x},${at.z}`);
    at = step;
  }
}

function octileCost(from: TilePoint, path: readonly TilePoint[]): number {
  let at = from;
  let cost = 0;
  for (const step of path) {
    cost += step.x !== at.x && step.z !== at.z ? 14 : 10;
    at = step;
  }
  return cost;
}

/** Plain Dijkstra with the same moves and costs: the oracle for optimality and reachability. */
function dijkstra(grid: WalkGrid, from: TilePoint, to: TilePoint): number | null {
  const dist = new Map<string, number>([[`${from.x},${from.z}`, 0]]);
  const done = new Set<string>();
  for (;;) {
    let best: string | null = null;
    for (const [k, d] of dist) if (!done.has(k) && (best === null || d < dist.get(best)!)) best = k;
    if (best === null) return null;
    if (best === `${to.x},${to.z}`) return dist.get(best)!;
    done.add(best);
    const [x, z] = best.split(',').map(Number);
    for (const [dx, dz] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]]) {
      const nx = x + dx;
      const nz = z + dz;
      if (grid.isBlocked(nx, nz)) continue;
      if (dx !== 0 && dz !== 0 && (grid.isBlocked(x + dx, z) || grid.isBlocked(x, z + dz))) continue;
      const d = dist.get(best)! + (dx !== 0 && dz !== 0 ? 14 : 10);
      const key = `${nx},${nz}`;
      if (d < (dist.get(key) ?? Infinity)) dist.set(key, d);
    }
  }
}

describe('path-finding', () => {
  it('walks diagonally across open ground', () => {
    const path = expectOk(findPath(openGrid(10, 10), { x: 0, z: 0 }, { x: 3, z: 5 }));
    assert.equal(path.length, 5);
    assert.deepEqual(path.at(-1), { x: 3, z: 5 });
    assertWalkable(openGrid(10, 10), { x: 0, z: 0 }, path);
  });

  it('returns an empty path when already there', () => {
    assert.deepEqual(expectOk(findPath(openGrid(3, 3), { x: 1, z: 1 }, { x: 1, z: 1 })), []);
  });

  it('goes around walls and never cuts a corner', () => {
    const grid = gridOf(
      '.....',
      '.###.',
      '.#...',
      '.#.#.',
      '.....',
    );
    const path = expectOk(findPath(grid, { x: 2, z: 2 }, { x: 0, z: 0 }));
    assertWalkable(grid, { x: 2, z: 2 }, path);
    assert.equal(octileCost({ x: 2, z: 2 }, path), dijkstra(grid, { x: 2, z: 2 }, { x: 0, z: 0 }));
    // Two blocked tiles touching at a corner close the diagonal between them.
    const pinch = gridOf(
      '.#',
      '#.',
    );
    expectCode(findPath(pinch, { x: 0, z: 0 }, { x: 1, z: 1 }), 'UNREACHABLE');
  });

  it('refuses targets off the map, blocked, unreachable or too far', () => {
    const grid = gridOf(
      '..#..',
      '..#..',
      '..#..',
    );
    expectCode(findPath(grid, { x: 0, z: 0 }, { x: 5, z: 0 }), 'OUT_OF_BOUNDS');
    expectCode(findPath(grid, { x: 0, z: 0 }, { x: -1, z: 0 }), 'OUT_OF_BOUNDS');
    expectCode(findPath(grid, { x: 0, z: 0 }, { x: 1.5, z: 0 }), 'OUT_OF_BOUNDS');
    expectCode(findPath(grid, { x: 0, z: 0 }, null as never), 'OUT_OF_BOUNDS');
    expectCode(findPath(grid, { x: 0, z: 0 }, { x: 2, z: 1 }), 'BLOCKED');
    expectCode(findPath(grid, { x: 0, z: 0 }, { x: 4, z: 2 }), 'UNREACHABLE');
    expectCode(findPath(openGrid(500, 500), { x: 0, z: 0 }, { x: 499, z: 3 }), 'TOO_FAR');
    expectCode(findPath(openGrid(500, 500), { x: 0, z: 0 }, { x: 10, z: 0 }, { maxDistance: 9 }), 'TOO_FAR');
  });

  it('gives up within its node budget on a huge enclosed area', () => {
    // The target is walled off; without a budget the search would flood the whole window.
    const grid: WalkGrid = { width: 200, depth: 200, isBlocked: (x, z) => x < 0 || z < 0 || x >= 200 || z >= 200 || (x === 150 && z >= 0) };
    const result = findPath(grid, { x: 100, z: 100 }, { x: 160, z: 100 }, { maxDistance: 64, maxNodes: 500 });
    expectCode(result, 'UNREACHABLE');
    assert.match(!result.ok ? result.message : '', /500/);
  });

  it('finds optimal, walkable paths exactly when one exists (random grids)', () => {
    const cell = fc.boolean().map((b) => (b ? '#' : '.'));
    const grids = fc.array(fc.array(cell, { minLength: 8, maxLength: 8 }).map((r) => r.join('')), { minLength: 8, maxLength: 8 });
    const tile = fc.record({ x: fc.integer({ min: 0, max: 7 }), z: fc.integer({ min: 0, max: 7 }) });
    fc.assert(
      fc.property(grids, tile, tile, (rows, from, to) => {
        const grid = gridOf(...rows.map((r, z) => (z === from.z ? r.slice(0, from.x) + '.' + r.slice(from.x + 1) : r)));
        const result = findPath(grid, from, to);
        if (grid.isBlocked(to.x, to.z)) {
          expectCode(result, 'BLOCKED');
          return;
        }
        const best = dijkstra(grid, from, to);
        if (best === null) {
          expectCode(result, 'UNREACHABLE');
          return;
        }
        const path = expectOk(result);
        assertWalkable(grid, from, path);
        assert.deepEqual(path.at(-1) ?? { x: from.x, z: from.z }, { x: to.x, z: to.z });
        assert.equal(octileCost(from, path), best);
      }),
      { numRuns: 400 },
    );
  });

  describe('next to a rectangle', () => {
    it('stops on a free tile straight beside the target', () => {
      const grid = gridOf(
        '......',
        '..##..',
        '..##..',
        '......',
      );
      const rect = { minX: 2, minZ: 1, maxX: 3, maxZ: 2 };
      const path = expectOk(findPathNextTo(grid, { x: 0, z: 0 }, rect));
      const end = path.at(-1)!;
      assert.ok(isBesideRect(end.x, end.z, rect));
      assert.deepEqual(path, [{ x: 1, z: 1 }]);
      assertWalkable(grid, { x: 0, z: 0 }, path);
      assert.deepEqual(expectOk(findPathNextTo(grid, { x: 1, z: 1 }, rect)), []);
      assert.ok(!isBesideRect(1, 0, rect), 'a diagonal corner is not beside');
    });

    it('measures the distance limit to the tiles beside the rectangle', () => {
      const grid = openGrid(200, 200);
      const near = expectOk(findPathNextTo(grid, { x: 0, z: 0 }, { minX: 65, minZ: 65, maxX: 65, maxZ: 65 }));
      assert.equal(near.length, 65);
      expectCode(findPathNextTo(grid, { x: 0, z: 0 }, { minX: 66, minZ: 66, maxX: 66, maxZ: 66 }), 'TOO_FAR');
      expectCode(findPathNextTo(grid, { x: 0, z: 0 }, { minX: 150, minZ: 0, maxX: 250, maxZ: 0 }), 'OUT_OF_BOUNDS');
    });

    it('refuses a rectangle nobody can stand beside', () => {
      const grid = gridOf(
        '#####',
        '#.#.#',
        '#####',
      );
      expectCode(findPathNextTo(grid, { x: 1, z: 1 }, { minX: 3, minZ: 1, maxX: 3, maxZ: 1 }), 'UNREACHABLE');
    });
  });

  describe('stepAlong', () => {
    const path = [{ x: 1, z: 0 }, { x: 2, z: 0 }, { x: 3, z: 1 }];

    it('moves one tile a tick walking and two running', () => {
      assert.deepEqual(stepAlong(path, false), { moved: [path[0]], position: path[0], remaining: path.slice(1) });
      assert.deepEqual(stepAlong(path, true), { moved: path.slice(0, 2), position: path[1], remaining: path.slice(2) });
      assert.deepEqual(stepAlong(path.slice(2), true).moved, [path[2]]);
      assert.deepEqual(stepAlong([], true), { moved: [], position: null, remaining: [] });
    });
  });

  it('routes through the bundled world from home to a bank booth', async () => {
    const data = await bundledData();
    const grid = computeBlockedTiles(data);
    const home = { x: data.world.home.x, z: data.world.home.z };
    const booth = data.spawns.stations.find((s) => data.stationsById.get(s.stationId)?.type === 'bank')!;
    const rect = placedStationTiles(data, booth);
    const path = expectOk(findPathNextTo(grid, home, rect));
    assertWalkable(grid, home, path);
    const end = path.at(-1) ?? home;
    assert.ok(isBesideRect(end.x, end.z, rect));
    expectCode(findPath(grid, home, { x: data.world.width, z: 0 }), 'OUT_OF_BOUNDS');
  });
});

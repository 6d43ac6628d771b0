import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { WalkGrid } from '../../src/game/pathfinding.ts';
import { WANDER_CHANCE, wanderOptions, wanderStep, withinWanderRadius } from '../../src/game/wander.ts';

/** A grid from rows of text: `#` blocked, anything else free. Row index is z, column is x. */
function gridOf(...rows: string[]): WalkGrid {
  return {
    width: rows[0].length,
    depth: rows.length,
    isBlocked: (x, z) => x < 0 || z < 0 || z >= rows.length || x >= rows[0].length || rows[z][x] === '#',
  };
}

const OPEN = gridOf(...Array.from({ length: 11 }, () => '.'.repeat(11)));

describe('NPC wandering', () => {
  it('stays put when the roll is at or above the chance, or the radius is 0', () => {
    const spawn = { x: 5, z: 5 };
    assert.equal(wanderStep(OPEN, spawn, spawn, 3, () => WANDER_CHANCE), null);
    assert.equal(wanderStep(OPEN, spawn, spawn, 3, () => 0.99), null);
    assert.equal(wanderStep(OPEN, spawn, spawn, 0, () => 0), null);
  });

  it('picks among the free neighbours by where the roll falls below the chance', () => {
    const spawn = { x: 5, z: 5 };
    const options = wanderOptions(OPEN, spawn, spawn, 2);
    assert.equal(options.length, 8);
    assert.deepEqual(wanderStep(OPEN, spawn, spawn, 2, () => 0), options[0]);
    assert.deepEqual(wanderStep(OPEN, spawn, spawn, 2, () => WANDER_CHANCE * 0.999), options[7]);
    assert.deepEqual(wanderStep(OPEN, spawn, spawn, 2, () => WANDER_CHANCE * (3.5 / 8)), options[3]);
  });

  it('never leaves the radius, steps onto a wall or cuts a corner', () => {
    const grid = gridOf(
      '.....',
      '.#...',
      '..x#.',
      '...#.',
      '.....',
    );
    const at = { x: 2, z: 2 };
    const options = wanderOptions(grid, at, at, 1);
    // (1,1), (3,2) and (3,3) are walls; (3,1) is free but reached only past the wall at (3,2).
    assert.deepEqual(options.map((t) => `${t.x},${t.z}`).sort(), ['1,2', '1,3', '2,1', '2,3']);
    // At the edge of the radius only the steps back inwards (or along the edge) remain.
    const edge = wanderOptions(OPEN, { x: 7, z: 5 }, { x: 5, z: 5 }, 2);
    assert.ok(edge.every((t) => t.x <= 7));
    assert.equal(edge.length, 5);
  });

  it('keeps a walk of any rolls within the radius and on free tiles', () => {
    const grid = gridOf(
      '...........',
      '..##.......',
      '..#....#...',
      '.....#.....',
      '...........',
      '....#......',
      '...........',
    );
    const spawn = { x: 5, z: 4 };
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { maxLength: 200 }), fc.integer({ min: 1, max: 4 }), (rolls, radius) => {
        let at = spawn;
        for (const roll of rolls) {
          const next = wanderStep(grid, at, spawn, radius, () => roll, 0.5);
          if (!next) continue;
          assert.ok(Math.max(Math.abs(next.x - at.x), Math.abs(next.z - at.z)) === 1, 'one tile at a time');
          assert.ok(!grid.isBlocked(next.x, next.z));
          assert.ok(withinWanderRadius(next, spawn, radius));
          at = next;
        }
      }),
    );
  });
});

/** The area of interest's edges: an entity enters within the radius and leaves only beyond the margin past it. */
import assert from 'node:assert/strict';
import { INTEREST_HYSTERESIS, InterestSet, SpatialGrid, type TrackedEntity } from '../../rooms/world/interest.ts';

function entity(id: string, x: number, z: number): TrackedEntity & { x: number; z: number } {
  return { kind: 'npc', id, x, z, snapshot: () => ({}), delta: () => ({}) };
}

describe('area of interest (InterestSet)', () => {
  it('adds within the radius, keeps an entity up to the margin past it, and removes it beyond', () => {
    const radius = 8;
    const grid = new SpatialGrid(radius);
    const npc = entity('n', 10 + radius + 1, 10);
    grid.insert(npc);
    const seen = new InterestSet();
    const step = (x: number) => {
      const from = npc.x;
      npc.x = x;
      grid.move(npc, from, npc.z);
      const diff = seen.update(grid, 'observer', 10, 10, radius, new Set([npc]));
      return { added: diff.added.length, changed: diff.changed.length, removed: diff.removed.length };
    };
    assert.deepEqual(step(10 + radius + 1), { added: 0, changed: 0, removed: 0 }, 'one tile past the radius: not in view');
    assert.deepEqual(step(10 + radius), { added: 1, changed: 0, removed: 0 }, 'at the radius: comes into view');
    assert.deepEqual(step(10 + radius + INTEREST_HYSTERESIS), { added: 0, changed: 1, removed: 0 }, 'within the margin: stays');
    assert.deepEqual(step(10 + radius + INTEREST_HYSTERESIS + 1), { added: 0, changed: 0, removed: 1 }, 'past the margin: leaves');
    assert.deepEqual(step(10 + radius + 1), { added: 0, changed: 0, removed: 0 }, 'back inside the margin but not the radius: not in view');
    assert.deepEqual(step(10 - radius), { added: 1, changed: 0, removed: 0 });
  });
});

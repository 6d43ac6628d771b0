/** The area of interest's edges: an entity enters within the radius and leaves only beyond the margin past it. */
import assert from 'node:assert/strict';
import { INTEREST_HYSTERESIS, InterestSet, SpatialGrid, type TrackedEntity } from '../../rooms/world/interest.ts';

function entity(id: string, x: number, z: number): TrackedEntity & { x: number; z: number } {
  return { kind: 'npc', id, x, z, interestMark: 0, tickChange: undefined, snapshot: () => ({}), delta: () => ({}) };
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
      npc.tickChange = {}; // it changed this tick
      const diff = seen.update(grid, 'observer', 10, 10, radius);
      return { added: diff.added.length, changed: diff.changed.length, removed: diff.removed.length };
    };
    assert.deepEqual(step(10 + radius + 1), { added: 0, changed: 0, removed: 0 }, 'one tile past the radius: not in view');
    assert.deepEqual(step(10 + radius), { added: 1, changed: 0, removed: 0 }, 'at the radius: comes into view');
    assert.deepEqual(step(10 + radius + INTEREST_HYSTERESIS), { added: 0, changed: 1, removed: 0 }, 'within the margin: stays');
    assert.deepEqual(step(10 + radius + INTEREST_HYSTERESIS + 1), { added: 0, changed: 0, removed: 1 }, 'past the margin: leaves');
    assert.deepEqual(step(10 + radius + 1), { added: 0, changed: 0, removed: 0 }, 'back inside the margin but not the radius: not in view');
    assert.deepEqual(step(10 - radius), { added: 1, changed: 0, removed: 0 });
  });

  it('gives every observer of a crowd the same views and differences as a plain set model, tick after tick', () => {
    // A seeded crowd walking at random, some entities shown to one observer only: the marks one observer's update
    // leaves on the entities must never make another observer's update wrong.
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const radius = 6;
    const grid = new SpatialGrid(radius);
    const crowd = Array.from({ length: 150 }, (_, i) => entity(`e${i}`, random(40), random(40)));
    for (const [i, e] of crowd.entries()) {
      if (i % 10 === 0) e.visibleTo = (observerId) => observerId === 'o0';
      grid.insert(e);
    }
    const observers = Array.from({ length: 12 }, (_, i) => ({ id: `o${i}`, x: random(40), z: random(40), set: new InterestSet(), model: new Set<TrackedEntity>() }));
    let compared = 0;
    for (let tick = 0; tick < 60; tick++) {
      const dirty = new Set<TrackedEntity>();
      for (const e of crowd) {
        e.tickChange = undefined;
        if (random(3) !== 0) continue;
        e.tickChange = {};
        const from = { x: e.x, z: e.z };
        e.x = Math.max(0, Math.min(39, e.x + random(3) - 1));
        e.z = Math.max(0, Math.min(39, e.z + random(3) - 1));
        grid.move(e, from.x, from.z);
        dirty.add(e);
      }
      for (const o of observers) {
        o.x = Math.max(0, Math.min(39, o.x + random(5) - 2));
        const diff = o.set.update(grid, o.id, o.x, o.z, radius);
        const within = (e: TrackedEntity, r: number) => Math.abs(e.x - o.x) <= r && Math.abs(e.z - o.z) <= r;
        const next = new Set(crowd.filter((e) => (!e.visibleTo || e.visibleTo(o.id)) && (within(e, radius) || (o.model.has(e) && within(e, radius + INTEREST_HYSTERESIS)))));
        const ids = (list: Iterable<TrackedEntity>) => [...list].map((e) => e.id).sort();
        assert.deepEqual(ids(o.set.visible), ids(next), `${o.id} sees at tick ${tick}`);
        assert.deepEqual(ids(diff.added), ids([...next].filter((e) => !o.model.has(e))), `${o.id} added at tick ${tick}`);
        assert.deepEqual(ids(diff.removed), ids([...o.model].filter((e) => !next.has(e))), `${o.id} removed at tick ${tick}`);
        assert.deepEqual(ids(diff.changed), ids([...next].filter((e) => o.model.has(e) && dirty.has(e))), `${o.id} changed at tick ${tick}`);
        compared += next.size;
        o.model = next;
      }
    }
    assert.ok(compared > 1000, `the crowd kept the observers busy (${compared} sightings compared)`);
  });
});

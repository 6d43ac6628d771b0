/** The admission rule (src/game/admission.ts): when a process has no headroom, and a waiter's estimate. */
import assert from 'node:assert/strict';
import { estimatedWaitSeconds, headroomOf, median } from '../../src/game/admission.ts';

const LIMITS = { tickBusyMs: 200, lagBusyMs: 100, entriesInFlight: 8 };
const world = (players: number, tickMedianMs: number | undefined, latenessMedianMs: number | undefined = 0) => ({ players, tickMedianMs, latenessMedianMs });

describe('admission by health (the rule)', () => {
  it('has headroom while the loop, the ticks\' start and their length are within the limits', () => {
    assert.deepEqual(headroomOf({ worlds: [world(500, 40)], loopLagP99Ms: 20, entering: 0 }, LIMITS), { busy: false });
    assert.deepEqual(headroomOf({ worlds: [], loopLagP99Ms: 0, entering: 0 }, LIMITS), { busy: false });
    assert.deepEqual(headroomOf({ worlds: [world(0, undefined, undefined)], loopLagP99Ms: 0, entering: 7 }, LIMITS), { busy: false });
  });

  it('is busy on a lagging loop, or on ticks that start late', () => {
    assert.deepEqual(headroomOf({ worlds: [world(10, 5)], loopLagP99Ms: 100, entering: 0 }, LIMITS), { busy: true, reason: 'lag' });
    assert.deepEqual(headroomOf({ worlds: [world(10, 5, 150)], loopLagP99Ms: 0, entering: 0 }, LIMITS), { busy: true, reason: 'lag' });
  });

  it('works on at most ENTRIES_IN_FLIGHT entries at once', () => {
    assert.deepEqual(headroomOf({ worlds: [world(0, undefined, undefined)], loopLagP99Ms: 0, entering: 8 }, LIMITS), { busy: true, reason: 'entries' });
  });

  it('counts the players entering at the world\'s cost per player', () => {
    // 1,000 players at 180 ms: 0.18 ms each; 120 more would pass 200 ms, 8 would not.
    assert.deepEqual(headroomOf({ worlds: [world(1_000, 180)], loopLagP99Ms: 0, entering: 7 }, LIMITS), { busy: false });
    assert.deepEqual(headroomOf({ worlds: [world(1_000, 180)], loopLagP99Ms: 0, entering: 120 }, { ...LIMITS, entriesInFlight: 1_000 }), { busy: true, reason: 'tick' });
    assert.deepEqual(headroomOf({ worlds: [world(3, 1), world(1_000, 200)], loopLagP99Ms: 0, entering: 0 }, LIMITS), { busy: true, reason: 'tick' });
  });

  it('takes medians and estimates a wait from the queue\'s pace, or says it does not know', () => {
    assert.equal(median([]), undefined);
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(estimatedWaitSeconds(10, 2), 5);
    assert.equal(estimatedWaitSeconds(1, 50), 1);
    assert.equal(estimatedWaitSeconds(10, 0), null);
  });
});

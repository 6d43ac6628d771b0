/** A tick's delivery in time slices: every observer once, in order, yielding once a slice used its time. */
import assert from 'node:assert/strict';
import { runInSlices } from '../../rooms/world/delivery-slices.ts';

describe('delivery slices (runInSlices)', () => {
  it('visits every index once in order, yields when a slice ran past its time, and calls done once at the end', () => {
    let clock = 0;
    const deferred: Array<() => void> = [];
    const slices: number[][] = [[]];
    let doneCalls = 0;
    // Each visit takes 0.5 ms on the fake clock: a 4 ms slice checked every 4 visits holds 12 (checked at 8: 4 ms, not past).
    runInSlices(50, (i) => {
      slices.at(-1)!.push(i);
      clock += 0.5;
    }, () => doneCalls++, {
      sliceMs: 4, checkEvery: 4, now: () => clock, defer: (next) => {
        slices.push([]);
        deferred.push(next);
      },
    });
    while (deferred.length > 0) deferred.shift()!();
    assert.deepEqual(slices.flat(), Array.from({ length: 50 }, (_, i) => i));
    assert.deepEqual(slices.map((s) => s.length), [12, 12, 12, 12, 2]);
    assert.equal(doneCalls, 1);
  });

  it('runs a cheap delivery in one slice without yielding, and an empty one finishes at once', () => {
    let yields = 0;
    let visits = 0;
    let done = 0;
    runInSlices(1000, () => visits++, () => done++, { sliceMs: 4, checkEvery: 16, now: () => 0, defer: () => yields++ });
    runInSlices(0, () => visits++, () => done++, { sliceMs: 4, checkEvery: 16, now: () => 0, defer: () => yields++ });
    assert.deepEqual({ visits, done, yields }, { visits: 1000, done: 2, yields: 0 });
  });

  it('stops yielding once its finish-by time has passed, so a slow delivery ends before the next tick is due', () => {
    let clock = 0;
    const deferred: Array<() => void> = [];
    const slices: number[] = [0];
    // 1 ms a visit, 4 ms slices checked every 2 visits; past 10 ms the rest goes in one slice.
    runInSlices(40, () => {
      slices[slices.length - 1]++;
      clock += 1;
    }, () => {}, {
      sliceMs: 4, checkEvery: 2, finishBy: 10, now: () => clock, defer: (next) => {
        slices.push(0);
        deferred.push(next);
      },
    });
    while (deferred.length > 0) deferred.shift()!();
    assert.deepEqual(slices, [6, 6, 28]);
  });
});

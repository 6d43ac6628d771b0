/** Work in time slices (a tick's delivery, a patch's sends): every index once, in order, yielding once a slice used its time. */
import assert from 'node:assert/strict';
import { runInSlices } from '../src/sliced-run.ts';

describe('sliced runs (runInSlices)', () => {
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

  it('finish visits what is left at once and calls done once; a later slice or finish does nothing', () => {
    let clock = 0;
    const deferred: Array<() => void> = [];
    const visited: number[] = [];
    let done = 0;
    const run = runInSlices(20, (i) => {
      visited.push(i);
      clock += 1;
    }, () => done++, { sliceMs: 4, checkEvery: 2, now: () => clock, defer: (next) => deferred.push(next) });
    assert.deepEqual(visited, [0, 1, 2, 3, 4, 5]);
    run.finish();
    assert.deepEqual(visited, Array.from({ length: 20 }, (_, i) => i));
    assert.equal(done, 1);
    while (deferred.length > 0) deferred.shift()!();
    run.finish();
    assert.deepEqual({ visits: visited.length, done }, { visits: 20, done: 1 });
  });

  it('with deferFirst the first slice waits a turn; an endless slice time visits everything in that one slice', () => {
    const deferred: Array<() => void> = [];
    let visits = 0;
    let done = 0;
    runInSlices(1000, () => visits++, () => done++, { sliceMs: Infinity, checkEvery: 1, deferFirst: true, now: () => 1e9, defer: (next) => deferred.push(next) });
    assert.deepEqual({ visits, done, turns: deferred.length }, { visits: 0, done: 0, turns: 1 });
    deferred.shift()!();
    assert.deepEqual({ visits, done, turns: deferred.length }, { visits: 1000, done: 1, turns: 0 });
  });
});

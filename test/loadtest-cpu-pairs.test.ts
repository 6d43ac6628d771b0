/** The walker part's CPU verdict rests on the medians of its pairs; the I/O floor's split is taken from the pairs that have it. */
import assert from 'node:assert/strict';
import { pairMedians, type CpuPair } from '../loadtest/lib/cpu-pairs.ts';

const pair = (gameUs: number, floorUs: number, ioFloorUs?: number): CpuPair => ({
  gameUs, gameKernelUs: gameUs / 4, floorUs, floorKernelUs: floorUs / 2, ratio: Math.round((gameUs / floorUs) * 10) / 10,
  ...(ioFloorUs === undefined ? {} : { ioFloorUs, ioFloorKernelUs: ioFloorUs / 2, ioRatio: Math.round((gameUs / ioFloorUs) * 10) / 10 }),
});

describe('benchmark CPU pairs: medians and the I/O floor split', () => {
  it('judges on the medians of the game runs and of their ratios to the raw send floor', () => {
    const medians = pairMedians([pair(150, 25), pair(110, 20), pair(120, 30)]);
    assert.equal(medians.gameUs, 120);
    assert.equal(medians.ratio, 5.5);
    assert.equal(medians.io, undefined, 'no pair measured the I/O floor');
  });

  it('splits the game median into the I/O floor and the game\'s own work, over the pairs that measured the I/O floor', () => {
    const medians = pairMedians([pair(117.7, 24.3, 45.6), pair(125.5, 25.8, 47.5), pair(114, 24.9, 49.9), pair(300, 25)]);
    assert.equal(medians.gameUs, 121.6, 'the game median counts every pair');
    assert.deepEqual(medians.io, { floorUs: 47.5, ratio: 2.6, ownWorkUs: 70.2 });
  });
});

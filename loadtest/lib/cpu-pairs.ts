/**
 * The walker part's CPU pairs (issue #20): a /ws JSON walker run beside the floors, alternated, and their medians.
 * Single runs of one revision spread by ±25 % or more on the shared machine, so the target is judged on medians.
 */
import { median, round } from './stats.ts';

export interface CpuPair {
  gameUs: number;
  gameKernelUs: number;
  floorUs: number;
  floorKernelUs: number;
  ratio: number;
  /** The I/O floor (acknowledgements written when each bot's move arrives); absent from runs before 2026-11-27. */
  ioFloorUs?: number;
  ioFloorKernelUs?: number;
  ioRatio?: number;
}

export interface PairMedians {
  gameUs: number;
  /** The game's CPU over the raw send floor's, the ratio the target is judged on. */
  ratio: number;
  /** Over the pairs that measured the I/O floor, when any did. */
  io?: {
    floorUs: number;
    ratio: number;
    /** The game's median above the I/O floor's median: its own work rather than its traffic's cost. */
    ownWorkUs: number;
  };
}

export function pairMedians(pairs: readonly CpuPair[]): PairMedians {
  const gameUs = round(median(pairs.map((p) => p.gameUs)), 1);
  const ratio = round(median(pairs.map((p) => p.ratio)), 1);
  const withIo = pairs.filter((p) => p.ioFloorUs !== undefined && p.ioRatio !== undefined);
  if (withIo.length === 0) return { gameUs, ratio };
  const ioGameUs = median(withIo.map((p) => p.gameUs));
  const floorUs = median(withIo.map((p) => p.ioFloorUs!));
  return {
    gameUs, ratio,
    io: { floorUs: round(floorUs, 1), ratio: round(median(withIo.map((p) => p.ioRatio!)), 1), ownWorkUs: round(ioGameUs - floorUs, 1) },
  };
}

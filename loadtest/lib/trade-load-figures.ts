/**
 * The CPU one trade adds to a loaded world: the CPU of a window with walkers and traders, minus what the same
 * processes spend per second in walkers-only windows (one just before, one just after) scaled to the trading
 * window's length, divided by the trades completed in it. The two walkers-only windows are also used one at a
 * time, so the figure comes with the spread that the baseline's drift alone would give it.
 */
import { round } from './stats.ts';

/** What one measured window cost, in core-seconds, and how long it lasted. */
export interface CpuWindow {
  seconds: number;
  server: number;
  machine: number;
  postgres: number;
}

export interface MarginalCpu {
  /** Milliseconds of CPU per completed trade over the walkers-only rate (the mean of the baselines). */
  msPerTrade: number;
  /** The same with each baseline window alone: [lowest, highest]. */
  range: [number, number];
  /** Average cores in the trading window and in the walkers-only windows (their mean). */
  coresLoaded: number;
  coresBaseline: number;
}

export type MarginalFigures = Record<keyof Omit<CpuWindow, 'seconds'>, MarginalCpu>;

function marginal(loaded: CpuWindow, baselines: CpuWindow[], trades: number, key: keyof Omit<CpuWindow, 'seconds'>): MarginalCpu {
  const rates = baselines.map((b) => b[key] / b.seconds);
  const perTrade = (rate: number) => ((loaded[key] - rate * loaded.seconds) * 1000) / trades;
  const mean = rates.reduce((sum, r) => sum + r, 0) / rates.length;
  const each = rates.map(perTrade);
  return {
    msPerTrade: round(perTrade(mean), 2),
    range: [round(Math.min(...each), 2), round(Math.max(...each), 2)],
    coresLoaded: round(loaded[key] / loaded.seconds, 3),
    coresBaseline: round(mean, 3),
  };
}

/** Marginal CPU per completed trade for the server, the whole machine and PostgreSQL (NaN without trades or baselines). */
export function marginalCpuPerTrade(loaded: CpuWindow, baselines: CpuWindow[], trades: number): MarginalFigures {
  if (trades <= 0 || baselines.length === 0 || baselines.some((b) => b.seconds <= 0) || loaded.seconds <= 0) {
    const none: MarginalCpu = { msPerTrade: NaN, range: [NaN, NaN], coresLoaded: NaN, coresBaseline: NaN };
    return { server: none, machine: none, postgres: none };
  }
  return {
    server: marginal(loaded, baselines, trades, 'server'),
    machine: marginal(loaded, baselines, trades, 'machine'),
    postgres: marginal(loaded, baselines, trades, 'postgres'),
  };
}

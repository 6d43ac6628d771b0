/**
 * The CPU one trade adds to a loaded world. The bench alternates windows of the same length, walkers only and
 * walkers + traders (B T B T B); each trading window's CPU, minus what the same processes spent per second in the
 * walkers-only windows on either side of it (their mean) over the trading window's length, is that window's excess;
 * the excesses summed over the trades completed give the CPU per trade. Taking the lower or the higher neighbour
 * alone instead of their mean gives the range the walkers' own drift alone would put on the figure.
 */
import { round } from './stats.ts';

/** What one measured window cost, in core-seconds, and how long it lasted. */
export interface CpuWindow {
  seconds: number;
  server: number;
  machine: number;
  postgres: number;
}

export interface MeasuredWindow {
  trading: boolean;
  cpu: CpuWindow;
  /** Trades completed in the window. */
  trades: number;
}

export interface MarginalCpu {
  /** Milliseconds of CPU per completed trade over the neighbouring walkers-only windows' mean rate. */
  msPerTrade: number;
  /** The same with the lower and with the higher neighbour's rate alone: [lowest, highest]. */
  range: [number, number];
  /** Average cores over the trading windows and over the walkers-only windows. */
  coresLoaded: number;
  coresBaseline: number;
}

type Key = keyof Omit<CpuWindow, 'seconds'>;
export type MarginalFigures = Record<Key, MarginalCpu>;

const NONE: MarginalCpu = { msPerTrade: NaN, range: [NaN, NaN], coresLoaded: NaN, coresBaseline: NaN };

function marginal(windows: MeasuredWindow[], key: Key, trades: number): MarginalCpu {
  const rate = (w: MeasuredWindow) => w.cpu[key] / w.cpu.seconds;
  let mean = 0;
  let low = 0;
  let high = 0;
  windows.forEach((w, i) => {
    if (!w.trading) return;
    const rates = [windows[i - 1], windows[i + 1]].filter((n) => n !== undefined && !n.trading).map(rate);
    const avg = rates.reduce((sum, r) => sum + r, 0) / rates.length;
    // A higher baseline rate leaves less excess to the trades.
    mean += w.cpu[key] - avg * w.cpu.seconds;
    low += w.cpu[key] - Math.max(...rates) * w.cpu.seconds;
    high += w.cpu[key] - Math.min(...rates) * w.cpu.seconds;
  });
  const over = (list: MeasuredWindow[]) => list.reduce((sum, w) => sum + w.cpu[key], 0) / list.reduce((sum, w) => sum + w.cpu.seconds, 0);
  const perTrade = (coreSeconds: number) => round((coreSeconds * 1000) / trades, 2);
  return {
    msPerTrade: perTrade(mean), range: [perTrade(low), perTrade(high)],
    coresLoaded: round(over(windows.filter((w) => w.trading)), 3), coresBaseline: round(over(windows.filter((w) => !w.trading)), 3),
  };
}

/**
 * Marginal CPU per completed trade for the server, the whole machine and PostgreSQL; NaN without trades, or when a
 * trading window has no walkers-only neighbour or a window has no length.
 */
export function marginalCpuPerTrade(windows: MeasuredWindow[]): MarginalFigures {
  const trades = windows.filter((w) => w.trading).reduce((sum, w) => sum + w.trades, 0);
  const unpaired = windows.some((w, i) => w.trading && ![windows[i - 1], windows[i + 1]].some((n) => n !== undefined && !n.trading));
  if (trades <= 0 || unpaired || windows.some((w) => w.cpu.seconds <= 0)) return { server: NONE, machine: NONE, postgres: NONE };
  return { server: marginal(windows, 'server', trades), machine: marginal(windows, 'machine', trades), postgres: marginal(windows, 'postgres', trades) };
}

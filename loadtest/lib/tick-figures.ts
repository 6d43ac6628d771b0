/**
 * A world's tick, read from two scrapes of the game server's /metrics (the window between them): mean time per
 * phase (game_tick_phase_seconds), tick lateness p99 (the histogram bucket it falls in) and world:update bytes per
 * JSON player per tick (game_tick_bytes_per_player) beside its two reference sizes, a naive whole-area snapshot and a
 * bit-packed bound (game_tick_reference_bytes_per_player); and the /ws frames' wait in the inbound queue p99
 * (game_ws_inbound_wait_seconds). docs/operations.md describes the series.
 */
import { TICK_MS } from '../../src/game/ticks.ts';
import { TICK_PHASES } from '../../src/observability/metrics.ts';
import { metricValue } from './server-process.ts';
import { round } from './stats.ts';

/** A process's CPU (average cores) per player per game tick, in microseconds. */
export function cpuUsPerPlayerTick(cores: number, players: number): number {
  return round((cores * TICK_MS * 1000) / Math.max(1, players), 1);
}

export interface TickFigures {
  ticks: number;
  /** Mean milliseconds per tick in each phase. */
  phaseMeanMs: Record<(typeof TICK_PHASES)[number], number>;
  /** The upper bound of the lateness bucket holding the 99th percentile, in ms (null without ticks). */
  latenessP99Ms: number | null;
  bytesPerPlayerPerTick: number | null;
  /** Mean bytes per sampled JSON player per tick of a naive JSON snapshot of its whole area. */
  naiveSnapshotBytesPerPlayerTick: number | null;
  /** Mean bytes per sampled JSON player per tick of a RuneScape-style bit-packed update of the same moves. */
  bitpackedBoundBytesPerPlayerTick: number | null;
  /**
   * The upper bound of the bucket holding the 99th percentile of /ws frames' wait in the server's inbound queue, in ms
   * (game_ws_inbound_wait_seconds; null without frames). Absent from runs recorded before the series existed.
   */
  inboundWaitP99Ms?: number | null;
  /** The /ws frames that wait was measured on. */
  inboundFrames?: number;
}

const delta = (before: string, after: string, series: string) => (metricValue(after, series) ?? 0) - (metricValue(before, series) ?? 0);

function bucketP99(before: string, after: string, name: string): number | null {
  const bounds = [...after.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} `, 'gm'))].map((m) => m[1]);
  const total = delta(before, after, `${name}_count`);
  if (total <= 0) return null;
  for (const le of bounds) {
    if (delta(before, after, `${name}_bucket{le="${le}"}`) >= 0.99 * total) return le === '+Inf' ? Infinity : Number(le) * 1000;
  }
  return Infinity;
}

/**
 * A p99 bucket as the tables print it, for a window that had observations: the bucket's upper bound, or what stands
 * in for one. Beyond the largest bucket is Infinity, which JSON (docs/benchmarks.json, read back by `--only`) keeps
 * as null: with observations, that is still beyond the largest bucket.
 */
function bucketText(p99Ms: number | null | undefined): string {
  return p99Ms === null || p99Ms === undefined || p99Ms === Infinity ? 'beyond the largest bucket' : `≤ ${p99Ms} ms`;
}

/** A lateness p99 as the tables print it ('no ticks' for a window without any). */
export function latenessText({ ticks, latenessP99Ms }: Pick<TickFigures, 'ticks' | 'latenessP99Ms'>): string {
  return ticks === 0 ? 'no ticks' : bucketText(latenessP99Ms);
}

export function tickFigures(before: string, after: string): TickFigures {
  const ticks = delta(before, after, 'game_tick_phase_seconds_count{phase="work"}');
  const phaseMeanMs = Object.fromEntries(TICK_PHASES.map((phase) => [
    phase, ticks > 0 ? Math.round((delta(before, after, `game_tick_phase_seconds_sum{phase="${phase}"}`) / ticks) * 1e5) / 100 : 0,
  ])) as TickFigures['phaseMeanMs'];
  const byteTicks = delta(before, after, 'game_tick_bytes_per_player_count');
  const reference = (name: string) => {
    const series = `game_tick_reference_bytes_per_player_%s{reference="${name}"}`;
    const count = delta(before, after, series.replace('%s', 'count'));
    return count > 0 ? Math.round(delta(before, after, series.replace('%s', 'sum')) / count) : null;
  };
  return {
    ticks,
    phaseMeanMs,
    latenessP99Ms: bucketP99(before, after, 'game_tick_lateness_seconds'),
    bytesPerPlayerPerTick: byteTicks > 0 ? Math.round(delta(before, after, 'game_tick_bytes_per_player_sum') / byteTicks) : null,
    naiveSnapshotBytesPerPlayerTick: reference('naive_snapshot'),
    bitpackedBoundBytesPerPlayerTick: reference('bitpacked_bound'),
    inboundWaitP99Ms: bucketP99(before, after, 'game_ws_inbound_wait_seconds'),
    inboundFrames: delta(before, after, 'game_ws_inbound_wait_seconds_count'),
  };
}

/** The inbound queue's wait p99 as a clause of the walker text ('' for runs recorded without it or without frames). */
export function inboundWaitText({ inboundWaitP99Ms, inboundFrames }: Pick<TickFigures, 'inboundWaitP99Ms' | 'inboundFrames'>): string {
  if (!inboundFrames) return '';
  return `; /ws frames' wait in the server's inbound queue p99 ${bucketText(inboundWaitP99Ms)} (game_ws_inbound_wait_seconds, part of each move→ack)`;
}

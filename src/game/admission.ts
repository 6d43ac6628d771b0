/**
 * Admission by health (docs/worlds.md "When the server is full"): whether a process can take another player without
 * its worlds missing their 600 ms tick, from what it measured of itself, and what a waiting player is told. Pure:
 * the measurements come in, a verdict goes out.
 */

/** What a process measured of itself (rooms/entry/admission-gate.ts gathers it). */
export interface ProcessLoad {
  /** Per world of the process: players now, and the median wall time of its recent ticks (undefined: too few yet). */
  worlds: ReadonlyArray<{ players: number; tickMedianMs: number | undefined; latenessMedianMs: number | undefined }>;
  /** The event loop's delay p99 over the last window, milliseconds. */
  loopLagP99Ms: number;
  /** Entries admitted on this process and not seated yet. */
  entering: number;
}

export interface AdmissionLimits {
  /** A world whose tick, with the players entering now added, would take this long is busy. */
  tickBusyMs: number;
  /** An event loop delayed this long (p99), or ticks starting this late (median), make the process busy. */
  lagBusyMs: number;
  /** Entries a process works on at once: one more waits (entering loads a character and writes its session). */
  entriesInFlight: number;
}

export type Headroom = { busy: false } | { busy: true; reason: 'tick' | 'lag' | 'entries' };

/**
 * Busy when the event loop lags, when it works on as many entries as it may at once, when ticks start late, or when a
 * world's tick — grown by the players entering now,
 * at the world's measured cost per player — would reach the limit. A world's tick cost is about linear in its
 * players (every player's area of interest is updated and delivered), so its median over its players is the price of
 * one more.
 */
export function headroomOf(load: ProcessLoad, limits: AdmissionLimits): Headroom {
  if (load.loopLagP99Ms >= limits.lagBusyMs) return { busy: true, reason: 'lag' };
  if (load.entering >= limits.entriesInFlight) return { busy: true, reason: 'entries' };
  for (const world of load.worlds) {
    if (world.latenessMedianMs !== undefined && world.latenessMedianMs >= limits.lagBusyMs) return { busy: true, reason: 'lag' };
    if (world.tickMedianMs === undefined) continue;
    const perPlayer = world.players > 0 ? world.tickMedianMs / world.players : 0;
    if (world.tickMedianMs + perPlayer * (load.entering + 1) >= limits.tickBusyMs) return { busy: true, reason: 'tick' };
  }
  return { busy: false };
}

/** The median of some figures; undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * A queued player's estimated wait: its position over the rate the queue moved at lately (players served per
 * second); null when nobody was served in that time (the rate is not known, and a guess would mislead).
 */
export function estimatedWaitSeconds(position: number, servedPerSecond: number): number | null {
  if (!(servedPerSecond > 0)) return null;
  return Math.max(1, Math.ceil(position / servedPerSecond));
}

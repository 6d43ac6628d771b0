/**
 * Percentiles and small formatting helpers for load-test reports. Latency samples go into an HDR histogram
 * (Node's `perf_hooks.createHistogram()`): constant memory and constant time per sample however long the run, and
 * a percentile without sorting anything (the reservoir-and-sort this replaces sorted up to 200,000 values per read).
 */
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Recorded in microseconds, 3 significant figures, from 1 µs up to one hour. */
const HIGHEST_MICROS = 3_600_000_000;

/** Latencies in milliseconds. */
export class Samples {
  private readonly histogram: RecordableHistogram = createHistogram({ lowest: 1, highest: HIGHEST_MICROS, figures: 3 });

  add(milliseconds: number): void {
    const micros = Math.round(milliseconds * 1000);
    this.histogram.record(Math.min(HIGHEST_MICROS, Math.max(1, Number.isFinite(micros) ? micros : HIGHEST_MICROS)));
  }

  /** Samples recorded since the start or the last reset. */
  get count(): number {
    return this.histogram.count;
  }

  /** The pct-th percentile in milliseconds (NaN without samples). */
  p(pct: number): number {
    return this.histogram.count === 0 ? NaN : this.histogram.percentile(pct) / 1000;
  }

  /** Forgets every sample (e.g. the warm-up's). */
  reset(): void {
    this.histogram.reset();
  }
}

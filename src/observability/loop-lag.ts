/**
 * The event loop's delay, p99 over a rolling window (admission by health, rooms/entry/admission-gate.ts). Its own
 * monitor, apart from prom-client's: that one restarts at each scrape, so what it says depends on who scrapes.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** The window is two halves: the p99 is the worse of the last full half and the current one. */
const HALF_WINDOW_MS = 2_500;
const RESOLUTION_MS = 10;

export class LoopLag {
  private current: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private lastHalfP99Ms = 0;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.current.enable();
    this.timer = setInterval(() => this.turn(), HALF_WINDOW_MS);
    this.timer.unref();
  }

  /** Milliseconds: the delay's p99 over the last 2.5–5 s (the monitor's resolution is part of every sample). */
  p99Ms(): number {
    const now = this.current.count > 0 ? this.current.percentile(99) / 1e6 - RESOLUTION_MS : 0;
    return Math.max(0, Math.max(now, this.lastHalfP99Ms));
  }

  private turn(): void {
    this.lastHalfP99Ms = this.current.count > 0 ? Math.max(0, this.current.percentile(99) / 1e6 - RESOLUTION_MS) : 0;
    this.current.reset();
  }

  stop(): void {
    clearInterval(this.timer);
    this.current.disable();
  }
}

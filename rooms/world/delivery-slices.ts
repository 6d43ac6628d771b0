/**
 * A tick's delivery cut into time slices: `visit(i)` for every observer index in order, yielding to the event loop
 * once a slice has run for `sliceMs`, so a crowded tick never blocks message handling (or a health probe) for
 * long. The clock is read every `checkEvery` visits (a visit is a few microseconds; reading the clock is not free).
 */
export interface SliceOptions {
  sliceMs: number;
  checkEvery: number;
  /**
   * A time (on `now`'s clock) past which the slices stop yielding and finish in one go: a delivery still running
   * when the next tick is due would make the world skip that tick.
   */
  finishBy?: number;
  now?: () => number;
  /** How the next slice is scheduled (setImmediate: after the I/O that waited). */
  defer?: (next: () => void) => void;
}

export function runInSlices(count: number, visit: (index: number) => void, done: () => void, options: SliceOptions): void {
  const now = options.now ?? (() => performance.now());
  const defer = options.defer ?? ((next: () => void) => void setImmediate(next));
  let next = 0;
  const finishBy = options.finishBy ?? Infinity;
  const slice = () => {
    const started = now();
    const ends = started > finishBy ? Infinity : started + options.sliceMs;
    for (; next < count; next++) {
      if (next % options.checkEvery === 0 && next > 0 && now() > ends) break;
      visit(next);
    }
    if (next < count) defer(slice);
    else done();
  };
  slice();
}

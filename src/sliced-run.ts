/**
 * Work over `count` items cut into time slices: `visit(i)` for every index in order, yielding to the event loop once a
 * slice has run for `sliceMs`, so a crowded tick's deliveries (rooms/world/world-tick.ts) or a patch's sends
 * (shared-view-patches.ts) never block message handling, or a health probe, for long. The clock is read every
 * `checkEvery` visits (a visit is a few microseconds; reading the clock is not free).
 */
export interface SliceOptions {
  sliceMs: number;
  checkEvery: number;
  /**
   * A time (on `now`'s clock) past which the slices stop yielding and finish in one go: a delivery still running
   * when the next tick is due would make the world skip that tick.
   */
  finishBy?: number;
  /** The first slice waits a turn too (the caller has just held the loop), instead of running at once. */
  deferFirst?: boolean;
  now?: () => number;
  /** How the next slice is scheduled (setImmediate: after the I/O that waited). */
  defer?: (next: () => void) => void;
}

/** A sliced run under way. */
export interface SlicedRun {
  /** Visits what is left at once (the next patch's frames must not overtake this one's); done follows. */
  finish(): void;
}

export function runInSlices(count: number, visit: (index: number) => void, done: () => void, options: SliceOptions): SlicedRun {
  const now = options.now ?? (() => performance.now());
  const defer = options.defer ?? ((next: () => void) => void setImmediate(next));
  const finishBy = options.finishBy ?? Infinity;
  let next = 0;
  // Let go once done: a run kept for its `finish` must not hold what its visits reach (a patch's frames).
  let visiting: ((index: number) => void) | undefined = visit;
  /** Visits until the clock passes `ends`; true once every index is visited (done called). */
  const runUntil = (ends: number): boolean => {
    if (!visiting) return true;
    while (next < count) {
      if (next % options.checkEvery === 0 && next > 0 && now() > ends) return false;
      visiting(next++);
    }
    visiting = undefined;
    done();
    return true;
  };
  const slice = () => {
    if (!visiting) return;
    const started = now();
    if (!runUntil(started > finishBy ? Infinity : started + options.sliceMs)) defer(slice);
  };
  if (options.deferFirst) defer(slice);
  else slice();
  return { finish: () => void runUntil(Infinity) };
}

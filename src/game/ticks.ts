/** The game tick: 600 ms. Manifests give durations in ticks; the pure rules take `now` in milliseconds. */
export const TICK_MS = 600;

export function ticksToMs(ticks: number): number {
  return ticks * TICK_MS;
}

/** Percentiles and small formatting helpers for load-test reports. */

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** A bounded reservoir so a long run keeps memory flat. */
export class Samples {
  readonly values: number[] = [];
  private seen = 0;
  private readonly capacity: number;

  constructor(capacity = 200_000) {
    this.capacity = capacity;
  }

  add(value: number): void {
    this.seen++;
    if (this.values.length < this.capacity) this.values.push(value);
    else {
      const slot = Math.floor(Math.random() * this.seen);
      if (slot < this.capacity) this.values[slot] = value;
    }
  }

  get count(): number {
    return this.seen;
  }

  p(pct: number): number {
    return percentile(this.values, pct);
  }
}

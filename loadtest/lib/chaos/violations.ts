/** Violations found by a chaos run, by kind, with the first eight examples of each. */
export const VIOLATION_KINDS = [
  'two-sessions', 'world-on-two-processes', 'stale-lease', 'ledger', 'acknowledged-missing', 'availability', 'recovery', 'bot-error', 'run-incomplete',
] as const;
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

const EXAMPLES = 8;

export class Violations {
  private readonly byKind = new Map<ViolationKind, { count: number; examples: string[] }>();

  private readonly onAdd?: (kind: ViolationKind, example: string) => void;

  /** `onAdd` sees each violation as it is found (a long run prints them as they happen, not only at its end). */
  constructor(onAdd?: (kind: ViolationKind, example: string) => void) {
    this.onAdd = onAdd;
  }

  add(kind: ViolationKind, example: string): void {
    this.onAdd?.(kind, example);
    const entry = this.byKind.get(kind) ?? { count: 0, examples: [] };
    entry.count++;
    if (entry.examples.length < EXAMPLES) entry.examples.push(example);
    this.byKind.set(kind, entry);
  }

  get total(): number {
    let n = 0;
    for (const entry of this.byKind.values()) n += entry.count;
    return n;
  }

  summary(): Array<{ kind: ViolationKind; count: number; examples: string[] }> {
    return VIOLATION_KINDS.filter((kind) => this.byKind.has(kind)).map((kind) => ({ kind, ...this.byKind.get(kind)! }));
  }
}

/** Per-item totals across containers: the ledger that conservation checks compare. */
export type Totals = ReadonlyMap<string, number>;

/** item id → total quantity over any number of stack lists (null entries, e.g. empty slots, are skipped). */
export function totalsOf(...lists: Iterable<{ readonly itemId: string; readonly quantity: number } | null>[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const list of lists) {
    for (const stack of list) if (stack) totals.set(stack.itemId, (totals.get(stack.itemId) ?? 0) + stack.quantity);
  }
  return totals;
}

/** The item ids whose totals differ, with both numbers; empty when the ledgers agree. */
export function totalsDifference(expected: Totals, actual: Totals): { itemId: string; expected: number; actual: number }[] {
  const ids = new Set([...expected.keys(), ...actual.keys()]);
  const differences: { itemId: string; expected: number; actual: number }[] = [];
  for (const itemId of [...ids].sort()) {
    const e = expected.get(itemId) ?? 0;
    const a = actual.get(itemId) ?? 0;
    if (e !== a) differences.push({ itemId, expected: e, actual: a });
  }
  return differences;
}

/**
 * Conservation check for a committed change: `after` must equal `before` plus `delta` (the explicit sources,
 * positive, and sinks, negative) for every item. Rooms call it before writing; a refusal means a bug.
 */
export function checkConserved(
  before: Totals,
  after: Totals,
  delta: Totals = new Map(),
): { ok: true; value: true } | { ok: false; code: 'CONSERVATION_VIOLATED'; message: string } {
  const expected = new Map(before);
  for (const [itemId, n] of delta) expected.set(itemId, (expected.get(itemId) ?? 0) + n);
  const differences = totalsDifference(expected, after);
  if (differences.length === 0) return { ok: true, value: true };
  return {
    ok: false,
    code: 'CONSERVATION_VIOLATED',
    message: differences.map((d) => `${d.itemId}: expected ${d.expected}, found ${d.actual}`).join('; '),
  };
}

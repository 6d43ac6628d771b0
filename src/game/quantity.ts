/** Quantities of items: whole numbers from 1 to the int32 maximum (what a database integer column holds). */
export const MAX_STACK = 2_147_483_647;

/** True for an integer from 1 to MAX_STACK; false for 0, negatives, fractions, NaN, Infinity and non-numbers. */
export function isValidQuantity(quantity: unknown): quantity is number {
  return typeof quantity === 'number' && Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX_STACK;
}

/** `a + b` when it stays within MAX_STACK, otherwise null (never overflows). */
export function addQuantities(a: number, b: number): number | null {
  return a <= MAX_STACK - b ? a + b : null;
}

/**
 * The pieces of a `world:update` frame that depend on nothing but values: which fields of an entity changed since
 * the values its observers hold, the compact encoding's move codes, and the two reference sizes the tick figures
 * compare a frame with (a naive snapshot of the whole area and a RuneScape-style bit-packed bound).
 * docs/protocol.md describes both encodings; docs/operations.md the reference sizes.
 */

/** How a /ws connection asked for its `world:update` frames (`updates` in `world:enter` or `authenticate`). */
export const UPDATE_ENCODINGS = ['json', 'compact'] as const;
export type UpdateEncoding = (typeof UPDATE_ENCODINGS)[number];

export function isUpdateEncoding(value: unknown): value is UpdateEncoding {
  return (UPDATE_ENCODINGS as readonly unknown[]).includes(value);
}

type Values = Record<string, unknown>;

/** The keys of `now` (kind and id aside) whose values differ from `before`. */
export function changedFields(before: Values, now: Values): string[] {
  const fields: string[] = [];
  for (const key in now) {
    if (key !== 'kind' && key !== 'id' && before[key] !== now[key]) fields.push(key);
  }
  return fields;
}

/** The step a tick's movement took on each axis, or undefined when the values carry no position. */
export function stepOf(before: Values, now: Values): { dx: number; dz: number } | undefined {
  if (typeof before.x !== 'number' || typeof now.x !== 'number' || typeof before.z !== 'number' || typeof now.z !== 'number') return undefined;
  return { dx: now.x - before.x, dz: now.z - before.z };
}

/** A compact move code carries steps of up to two tiles per axis (a run covers two tiles a tick). */
const MAX_STEP = 2;
const SPAN = 2 * MAX_STEP + 1;

/**
 * One moved entity as a single integer: `handle × 25 + (dx + 2) × 5 + (dz + 2)`. Undefined when the step is
 * longer than a run (a teleport: the position goes as fields instead) or is no step at all.
 */
export function moveCode(handle: number, dx: number, dz: number): number | undefined {
  if ((dx === 0 && dz === 0) || Math.abs(dx) > MAX_STEP || Math.abs(dz) > MAX_STEP) return undefined;
  return handle * SPAN * SPAN + (dx + MAX_STEP) * SPAN + (dz + MAX_STEP);
}

/**
 * The 64 characters of a packed `moved` string: a base-32 digit is written from the first half when more digits of
 * the same number follow, from the second half when it is the number's last.
 */
const MOVE_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * A frame's move codes as one string: sorted, each written as its difference from the one before (the first as it
 * is), in base 32, most significant digit first, its last digit marked by the alphabet's second half. A difference
 * below 1,024 takes two characters. `movesOf` reads them back.
 */
export function packedMoves(codes: ReadonlyArray<number>): string {
  // A typed array sorts numerically without calling back into JavaScript: this runs for every compact observer.
  const sorted = Float64Array.from(codes).sort();
  let previous = 0;
  let text = '';
  for (let i = 0; i < sorted.length; i++) {
    const difference = sorted[i] - previous;
    previous = sorted[i];
    text += difference < SHORT_DIFFERENCES.length ? SHORT_DIFFERENCES[difference] : base32Difference(difference);
  }
  return text;
}

function base32Difference(difference: number): string {
  let rest = difference;
  let digits = MOVE_DIGITS[32 + (rest % 32)];
  rest = Math.floor(rest / 32);
  while (rest > 0) {
    digits = MOVE_DIGITS[rest % 32] + digits;
    rest = Math.floor(rest / 32);
  }
  return digits;
}

/** The differences below 1,024 (most of a crowded frame's), written out once. */
const SHORT_DIFFERENCES = Array.from({ length: 1_024 }, (_, difference) => base32Difference(difference));

/** The move codes of a compact frame's `moved` string (what a compact client does with it). */
export function movesOf(moved: string): number[] {
  const codes: number[] = [];
  let code = 0;
  let value = 0;
  for (const character of moved) {
    const digit = MOVE_DIGITS.indexOf(character);
    if (digit < 0) throw new Error(`not a move digit: ${JSON.stringify(character)}`);
    if (digit < 32) value = value * 32 + digit;
    else {
      code += value * 32 + digit - 32;
      codes.push(code);
      value = 0;
    }
  }
  return codes;
}

/** One entry of a compact frame's `set`: a field, the value it took, then the handles of the entities that took it. */
export type CompactSetEntry = [field: string, value: unknown, ...handles: number[]];

/** The changes a compact frame's `set` carries, one object per entity: its handle `n` and the fields it took. */
export function changesOfSet(set: readonly CompactSetEntry[]): Array<Record<string, unknown> & { n: number }> {
  const byHandle = new Map<number, Record<string, unknown> & { n: number }>();
  for (const [field, value, ...handles] of set) {
    for (const n of handles) {
      let change = byHandle.get(n);
      if (!change) byHandle.set(n, (change = { n }));
      change[field] = value;
    }
  }
  return [...byHandle.values()];
}

/** The inverse of moveCode (what a compact client does with each code of `moved`). */
export function decodeMove(code: number): { handle: number; dx: number; dz: number } {
  const handle = Math.floor(code / (SPAN * SPAN));
  const rest = code - handle * SPAN * SPAN;
  return { handle, dx: Math.floor(rest / SPAN) - MAX_STEP, dz: (rest % SPAN) - MAX_STEP };
}

/**
 * Bits a RuneScape-style actor-info packet spends on one actor an observer already sees, for that tick's step:
 * a flag bit for an actor with no update; flag, extended-info bit and a 2-bit type, then a 3-bit direction for a
 * walk or a 4-bit one for a run; a teleport adds a bit and two 14-bit coordinates. Extended info (appearance,
 * hits, chat) is not counted, which keeps the sum a lower bound for the movement alone.
 */
export function bitpackedStepBits(step: { dx: number; dz: number } | undefined): number {
  if (!step) return 1;
  const tiles = Math.max(Math.abs(step.dx), Math.abs(step.dz));
  if (tiles === 0) return 1;
  if (tiles === 1) return 1 + 1 + 2 + 3;
  if (tiles === 2) return 1 + 1 + 2 + 4;
  return 1 + 1 + 2 + 1 + 14 + 14;
}

/** Bits to add an actor to an observer's local list (index, relative position, flags) or to remove it. */
export const BITPACKED_ADD_BITS = 11 + 5 + 5 + 1 + 1 + 1;
export const BITPACKED_REMOVE_BITS = 1 + 1 + 2;

export function isActor(kind: string): boolean {
  return kind === 'player' || kind === 'npc';
}

/**
 * Leaving players' saves, a few at a time in the process. Each is a few transactions (the areas' leave hooks, the
 * session's end, the claim's release). Started all at once — a shutdown gives up 2,000 held seats together, and the
 * seats of a mass drop lapse together — they queued thousands of statements ahead of the worlds' lease renewals on
 * the database pool (PGlite runs one statement at a time). A renewal waited for every save, the lease lapsed by
 * PostgreSQL's clock, and the last saves were refused: those players' positions and session ends were lost, and a
 * world still running would have lost its lease (test/world/mass-leave.test.ts). With a few saves in flight a
 * renewal waits behind those few; the leaves take as long in all.
 *
 * A save that has not finished after `slotMs` (a hung connection: there is no statement timeout) goes on, but gives
 * its place up: one stuck save must not hold every later leave back.
 */
import pLimit from 'p-limit';
import { settledWithin } from '../../src/settled-within.ts';

/** Leave saves in flight at once; the pool's other connections stay free for the worlds' own writes. */
const LEAVE_SAVES_AT_ONCE = 4;
/** How long one save may hold its place. */
const SLOT_MS = 10_000;

export type SaveLine = <T>(save: () => Promise<T>) => Promise<T>;

/** A line that runs at most `atOnce` saves together, each holding its place at most `slotMs`. */
export function saveLine(atOnce: number, slotMs: number): SaveLine {
  const limit = pLimit(atOnce);
  return <T>(save: () => Promise<T>) => new Promise<T>((resolve, reject) => {
    void limit(async () => {
      const running = save();
      running.then(resolve, reject);
      await settledWithin(running, slotMs);
    });
  });
}

/** Runs one leaving player's save when one of the few places is free. */
export const inLeaveSaveLine: SaveLine = saveLine(LEAVE_SAVES_AT_ONCE, SLOT_MS);

/**
 * Leaving players' saves, a few at a time in the process. Each is a few transactions (the areas' leave hooks, the
 * session's end, the claim's release). Started all at once — a shutdown gives up 2,000 held seats together, and the
 * seats of a mass drop lapse together — they queued thousands of statements ahead of the worlds' lease renewals on
 * the database pool (PGlite runs one statement at a time). A renewal waited for every save, the lease lapsed by
 * PostgreSQL's clock, and the last saves were refused: those players' positions and session ends were lost (0 to 436
 * refused of 2,000 in a shutdown, loadtest/walker runs), and a world still running would have lost its lease. With a
 * few saves in flight a renewal waits behind those few; the leaves take as long in all.
 */
import pLimit from 'p-limit';

/** Leave saves in flight at once; the pool's other connections stay free for the worlds' own writes. */
const LEAVE_SAVES_AT_ONCE = 4;

const limit = pLimit(LEAVE_SAVES_AT_ONCE);

/** Runs one leaving player's save when one of the few places is free. */
export function inLeaveSaveLine<T>(save: () => Promise<T>): Promise<T> {
  return limit(save);
}

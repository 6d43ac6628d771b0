/**
 * World entries per account (issue #17 item 12): entering writes a session row, loads the character's containers
 * and runs every feature's join hook, so `world:enter`/`world:leave` in a loop is a cheap way to make the server
 * write. WORLD_ENTRIES_PER_MINUTE (12) entries per account per minute, counted where the other limits are
 * (Redis with REDIS_URL, so every process shares the count). Reconnecting to a held seat is not an entry.
 *
 * A hop is one entry, counted when the world approves it, before anything is left (issue #33): the entries that
 * carry it out — into the target, or back into the world it left — bear the PREADMITTED_ENTRY mark on their auth
 * context and are not counted again.
 */
import { gameContext } from '../../src/context.ts';
import { GameError } from '../../src/game/refusal.ts';

type LimiterBackend = ReturnType<typeof gameContext>['auth']['limits'];
type Limiter = ReturnType<LimiterBackend['create']>;

/** On a join's auth context (never settable by a client): the entry was already counted (an approved hop). */
export const PREADMITTED_ENTRY = Symbol('preadmittedEntry');

const limiters = new WeakMap<LimiterBackend, Limiter>();

function entryLimiter(): Limiter {
  const { auth, config } = gameContext();
  let limiter = limiters.get(auth.limits);
  if (!limiter) {
    limiter = auth.limits.create({ name: 'world-entry', points: config.worldEntriesPerMinute, windowSeconds: 60, blockSeconds: 0 });
    limiters.set(auth.limits, limiter);
  }
  return limiter;
}

function rateLimited(retryAfterMs: number): GameError {
  const limit = gameContext().config.worldEntriesPerMinute;
  const seconds = Math.ceil(retryAfterMs / 1000);
  return new GameError('RATE_LIMITED', `At most ${limit} world entries a minute; retry in ${seconds} s`, { retryAfterMs });
}

/** Counts one world entry of the account; RATE_LIMITED (with retryAfterMs) once the minute's entries are spent. */
export async function admitWorldEntry(accountId: string): Promise<void> {
  const decision = await entryLimiter().consume(accountId);
  if (!decision.allowed) throw rateLimited(decision.retryAfterMs);
}

/** RATE_LIMITED when the account's next entry would be refused; counts nothing (an SDK hop: its join counts). */
export async function assertEntryLeft(accountId: string): Promise<void> {
  const waitMs = await entryLimiter().spentMs(accountId);
  if (waitMs > 0) throw rateLimited(waitMs);
}

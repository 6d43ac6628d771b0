/**
 * World entries per account (issue #17 item 12): entering writes a session row, loads the character's containers
 * and runs every feature's join hook, so `world:enter`/`world:leave` in a loop is a cheap way to make the server
 * write. WORLD_ENTRIES_PER_MINUTE (12) entries per account per minute, counted where the other limits are
 * (Redis with REDIS_URL, so every process shares the count). Reconnecting to a held seat is not an entry.
 */
import { gameContext } from '../../src/context.ts';
import { GameError } from '../../src/game/refusal.ts';

type LimiterBackend = ReturnType<typeof gameContext>['auth']['limits'];
type Limiter = ReturnType<LimiterBackend['create']>;

const limiters = new WeakMap<LimiterBackend, Limiter>();

/** Counts one world entry of the account; RATE_LIMITED (with retryAfterMs) once the minute's entries are spent. */
export async function admitWorldEntry(accountId: string): Promise<void> {
  const { auth, config } = gameContext();
  let limiter = limiters.get(auth.limits);
  if (!limiter) {
    limiter = auth.limits.create({ name: 'world-entry', points: config.worldEntriesPerMinute, windowSeconds: 60, blockSeconds: 0 });
    limiters.set(auth.limits, limiter);
  }
  const decision = await limiter.consume(accountId);
  if (!decision.allowed) {
    const seconds = Math.ceil(decision.retryAfterMs / 1000);
    throw new GameError('RATE_LIMITED', `At most ${config.worldEntriesPerMinute} world entries a minute; retry in ${seconds} s`, { retryAfterMs: decision.retryAfterMs });
  }
}

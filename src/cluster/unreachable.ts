/**
 * Whether an error means Redis could not be reached (restarting, cut off, its connection closed) rather than that a
 * command failed. With REDIS_URL the processes share room listings, presence and limits through it; an event that
 * needed it while it is away is refused WORLD_UNAVAILABLE with `retryAfterSeconds` (rooms/game-room.ts), as for the
 * database (src/db/unreachable.ts), instead of an internal error. Found by the chaos run: a `world:hop` during a
 * Redis restart answered INTERNAL_ERROR ("Reached the max retries per request limit").
 */

/** ioredis' errors for a command it gave up on, or could not send (its messages and error names, ioredis 5). */
const NAMES = new Set(['MaxRetriesPerRequestError']);
const MESSAGES = /^(Connection is closed\.|Stream isn't writeable and enableOfflineQueue options is false)$/;

export function isRedisUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof Error && (NAMES.has(current.name) || MESSAGES.test(current.message))) return true;
  }
  return false;
}

/**
 * The local Redis for the suites that need one (scale-out, shared limits): they skip, saying so, when none answers.
 */
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A connected client of the test Redis, or undefined when none answers within a second. */
export async function connectTestRedis(): Promise<Redis | undefined> {
  const probe = new Redis(TEST_REDIS_URL, { lazyConnect: true, enableOfflineQueue: false, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    if ((await probe.ping()) === 'PONG') return probe;
  } catch {
    // no Redis: the caller skips
  }
  probe.disconnect();
  return undefined;
}

/** Whether the test Redis answers. */
export async function redisAnswers(): Promise<boolean> {
  const redis = await connectTestRedis();
  redis?.disconnect();
  return redis !== undefined;
}

/** Says why a suite is skipped (mocha prints nothing of its own for a skip in a hook). */
export function noRedisSkipNote(what: string): void {
  console.log(`      (skipped: no Redis answers at ${TEST_REDIS_URL}; set TEST_REDIS_URL to run ${what})`);
}

/** Removes the keys a suite wrote under its prefix and closes the client. */
export async function dropKeysAndDisconnect(redis: Redis, pattern: string): Promise<void> {
  const keys = await redis.keys(pattern);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
}

/**
 * Where rate-limit counters live: in Redis when REDIS_URL is set (shared by every server process, with an
 * in-memory insurance limiter while Redis is unreachable), in this process' memory otherwise. With
 * DISABLE_RATE_LIMIT (development only) every limiter allows everything.
 */
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';

export interface LimiterSpec {
  /** Key namespace, e.g. "rest" or "auth". */
  name: string;
  /** Allowed consumptions per window. */
  points: number;
  windowSeconds: number;
  /** Once over the limit, the key is refused for this long. */
  blockSeconds: number;
}

export type LimitDecision =
  | { allowed: true; limit: number; remaining: number; resetMs: number }
  | { allowed: false; limit: number; remaining: 0; resetMs: number; retryAfterMs: number };

export interface Limiter {
  readonly spec: LimiterSpec;
  consume(key: string): Promise<LimitDecision>;
  /** Milliseconds until a key that went over the limit is let through again (0: not blocked); consumes nothing. */
  blockedMs(key: string): Promise<number>;
  /** Milliseconds until the next `consume` of the key would be allowed (0: it would be now); consumes nothing. */
  spentMs(key: string): Promise<number>;
  /** The caller refused a key `blockedMs` found blocked: reported as a refusal of this limit, as `consume`'s are. */
  refusedWhileBlocked(): void;
  /** Forgets a key (tests, or an operator unblocking an address). */
  reset(key: string): Promise<void>;
}

export interface LimiterBackend {
  readonly kind: 'memory' | 'redis' | 'disabled';
  /** Told the limiter's name each time a limit refuses something (game_rate_limit_rejections_total). */
  readonly onReject?: (limit: string) => void;
  create(spec: LimiterSpec): Limiter;
  close(): Promise<void>;
}

export interface LimiterBackendOptions {
  redisUrl?: string;
  keyPrefix: string;
  disabled?: boolean;
  logger?: Logger;
  /** Told the limiter's name each time a limit refuses something. */
  onReject?: (limit: string) => void;
}

export function limiterBackendOptions(config: Config, logger?: Logger): LimiterBackendOptions {
  return { redisUrl: config.redisUrl, keyPrefix: config.rateLimitKeyPrefix, disabled: config.disableRateLimit, logger };
}

class FlexibleLimiter implements Limiter {
  readonly spec: LimiterSpec;
  private readonly limiter: RateLimiterAbstract;
  private readonly logger: Logger | undefined;

  private readonly onReject: ((limit: string) => void) | undefined;

  constructor(spec: LimiterSpec, limiter: RateLimiterAbstract, logger: Logger | undefined, onReject?: (limit: string) => void) {
    this.spec = spec;
    this.limiter = limiter;
    this.logger = logger;
    this.onReject = onReject;
  }

  async consume(key: string): Promise<LimitDecision> {
    const limit = this.spec.points;
    try {
      const res = await this.limiter.consume(key, 1);
      return { allowed: true, limit, remaining: Math.max(0, res.remainingPoints), resetMs: res.msBeforeNext };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        const wait = Math.max(1, rejection.msBeforeNext);
        this.onReject?.(this.spec.name);
        return { allowed: false, limit, remaining: 0, resetMs: wait, retryAfterMs: wait };
      }
      // The store failed and no insurance answered: let the request through rather than fail everyone.
      this.logger?.error({ err: rejection, limiter: this.spec.name }, 'rate limiter store failed; request allowed');
      return { allowed: true, limit, remaining: limit, resetMs: this.spec.windowSeconds * 1000 };
    }
  }

  async blockedMs(key: string): Promise<number> {
    try {
      const res = await this.limiter.get(key);
      return res !== null && res.consumedPoints > this.spec.points ? Math.max(1, res.msBeforeNext) : 0;
    } catch {
      return 0; // the store failed: as consume, let the request through
    }
  }

  async spentMs(key: string): Promise<number> {
    try {
      const res = await this.limiter.get(key);
      return res !== null && res.consumedPoints >= this.spec.points ? Math.max(1, res.msBeforeNext) : 0;
    } catch {
      return 0; // the store failed: as consume, let the request through
    }
  }

  refusedWhileBlocked(): void {
    this.onReject?.(this.spec.name);
  }

  async reset(key: string): Promise<void> {
    await this.limiter.delete(key);
  }
}

class UnlimitedLimiter implements Limiter {
  readonly spec: LimiterSpec;

  constructor(spec: LimiterSpec) {
    this.spec = spec;
  }

  async consume(): Promise<LimitDecision> {
    return { allowed: true, limit: this.spec.points, remaining: this.spec.points, resetMs: this.spec.windowSeconds * 1000 };
  }

  async blockedMs(): Promise<number> {
    return 0;
  }

  async spentMs(): Promise<number> {
    return 0;
  }

  refusedWhileBlocked(): void {}

  async reset(): Promise<void> {}
}

function memoryLimiter(spec: LimiterSpec, keyPrefix: string): RateLimiterMemory {
  return new RateLimiterMemory({
    keyPrefix: `${keyPrefix}:${spec.name}`,
    points: spec.points,
    duration: spec.windowSeconds,
    blockDuration: spec.blockSeconds,
  });
}

export async function createLimiterBackend(options: LimiterBackendOptions): Promise<LimiterBackend> {
  const { keyPrefix, logger, onReject } = options;
  if (options.disabled) {
    logger?.warn('rate limiting is disabled (DISABLE_RATE_LIMIT, development only)');
    return { kind: 'disabled', onReject, create: (spec) => new UnlimitedLimiter(spec), close: async () => {} };
  }
  if (!options.redisUrl) {
    return { kind: 'memory', onReject, create: (spec) => new FlexibleLimiter(spec, memoryLimiter(spec, keyPrefix), logger, onReject), close: async () => {} };
  }

  const redis = new Redis(options.redisUrl, {
    // Commands fail at once while disconnected, so the insurance limiter answers instead of requests waiting.
    enableOfflineQueue: false,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
  });
  redis.on('error', (error: Error) => logger?.warn({ err: { message: error.message } }, 'rate limiter Redis error'));
  try {
    await redis.connect();
  } catch (error) {
    logger?.error({ err: { message: (error as Error).message } },
      'rate limiter Redis unreachable at startup; counting in memory until it answers');
  }
  return {
    kind: 'redis',
    onReject,
    create: (spec) => new FlexibleLimiter(spec, new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${keyPrefix}:${spec.name}`,
      points: spec.points,
      duration: spec.windowSeconds,
      blockDuration: spec.blockSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memoryLimiter(spec, `${keyPrefix}:insurance`),
    }), logger, onReject),
    close: async () => {
      try {
        await redis.quit();
      } catch {
        redis.disconnect();
      }
    },
  };
}

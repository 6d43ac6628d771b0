/**
 * Authentication attempts: RATE_LIMIT_AUTH_PER_MINUTE (10) per client address, and as many per account where one
 * is known (admin code). Every login counts, successful or not: token exchange, anonymous identities, token
 * refresh, character tokens, admin codes. A server token presented to join (WebSocket `authenticate`, Colyseus
 * matchmaking) counts only when it fails verification (`countFailure`); a blocked address is refused either way.
 */
import type { Limiter } from '../limits/store.ts';
import { AuthError } from './errors.ts';

export interface AttemptSource {
  /** The client address (see clientAddress); always pass it when there is one. */
  address?: string;
  /** The account making the attempt, when known. */
  accountId?: string;
}

export class AuthAttemptLimiter {
  private readonly limiter: Limiter;

  constructor(limiter: Limiter) {
    this.limiter = limiter;
  }

  get limit(): number {
    return this.limiter.spec.points;
  }

  /**
   * Runs a token verification that is an attempt only if it fails: refuses (AUTH_RATE_LIMITED) while a key of the
   * source is blocked, lets a valid token through without counting, and counts an AuthError (then rethrows it, or
   * AUTH_RATE_LIMITED when that failure went over the limit).
   */
  async countFailure<T>(source: AttemptSource, verify: () => Promise<T>): Promise<T> {
    const keys = this.keysOf(source);
    const waits = await Promise.all(keys.map((key) => this.limiter.blockedMs(key)));
    if (waits.some((wait) => wait > 0)) {
      this.limiter.refusedWhileBlocked(); // a refusal like any other (game_rate_limit_rejections_total{limit="auth"})
      throw this.refusal(Math.max(...waits));
    }
    try {
      return await verify();
    } catch (error) {
      if (error instanceof AuthError) await this.consume(source);
      throw error;
    }
  }

  /** Counts one attempt against each key of the source; throws AUTH_RATE_LIMITED (429) when any is exhausted. */
  async consume(source: AttemptSource): Promise<void> {
    const decisions = await Promise.all(this.keysOf(source).map((key) => this.limiter.consume(key)));
    const refused = decisions.filter((decision) => !decision.allowed);
    if (refused.length > 0) throw this.refusal(Math.max(...refused.map((decision) => decision.resetMs)));
  }

  private keysOf(source: AttemptSource): string[] {
    const keys = [
      source.address !== undefined ? `addr:${source.address}` : undefined,
      source.accountId !== undefined ? `acct:${source.accountId}` : undefined,
    ].filter((key): key is string => key !== undefined);
    if (keys.length === 0) keys.push('addr:unknown');
    return keys;
  }

  private refusal(waitMs: number): AuthError {
    return new AuthError('AUTH_RATE_LIMITED',
      `Too many authentication attempts: at most ${this.limit} per minute`, Math.ceil(waitMs / 1000));
  }
}

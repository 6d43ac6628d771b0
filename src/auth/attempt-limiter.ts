/**
 * Authentication attempts: RATE_LIMIT_AUTH_PER_MINUTE (10) per client address, and as many per account where one
 * is known (admin code). Every attempt counts, successful or not: token exchange, anonymous identities, token
 * refresh, character tokens, admin codes, WebSocket `authenticate` and Colyseus matchmaking auth.
 */
import type { Limiter } from '../http/limits/store.ts';
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

  /** Counts one attempt against each key of the source; throws AUTH_RATE_LIMITED (429) when any is exhausted. */
  async consume(source: AttemptSource): Promise<void> {
    const keys = [
      source.address !== undefined ? `addr:${source.address}` : undefined,
      source.accountId !== undefined ? `acct:${source.accountId}` : undefined,
    ].filter((key): key is string => key !== undefined);
    if (keys.length === 0) keys.push('addr:unknown');
    const decisions = await Promise.all(keys.map((key) => this.limiter.consume(key)));
    const refused = decisions.filter((decision) => !decision.allowed);
    if (refused.length > 0) {
      const waitMs = Math.max(...refused.map((decision) => decision.resetMs));
      throw new AuthError('AUTH_RATE_LIMITED',
        `Too many authentication attempts: at most ${this.limit} per minute`, Math.ceil(waitMs / 1000));
    }
  }
}

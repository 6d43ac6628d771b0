/**
 * The in-game admin gate (`/admin <code>`): a supplied code is compared with ADMIN_CODE in constant time
 * (SHA-256 of both, then timingSafeEqual, so neither the content nor the length leaks through timing). Without
 * ADMIN_CODE nobody can elevate. Every attempt, right or wrong, counts against the authentication limit keyed on
 * the account and the address. The gate only answers; granting the role is the caller's.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AttemptSource, AuthAttemptLimiter } from './attempt-limiter.ts';
import { AuthError } from './errors.ts';

export type AdminCheckResult =
  | { granted: true }
  | { granted: false; code: 'ADMIN_CODE_INVALID' | 'ADMIN_DISABLED' }
  | { granted: false; code: 'AUTH_RATE_LIMITED'; retryAfterSeconds: number };

/** Longer inputs are not hashed at all (and are wrong): a chat line is far shorter anyway. */
const MAX_CODE_LENGTH = 1024;

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export class AdminCodeGate {
  private readonly expected: Buffer | undefined;
  private readonly attempts: AuthAttemptLimiter;

  constructor(adminCode: string | undefined, attempts: AuthAttemptLimiter) {
    this.expected = adminCode !== undefined && adminCode.length > 0 ? digest(adminCode) : undefined;
    this.attempts = attempts;
  }

  /** False when ADMIN_CODE is not configured: every check is refused. */
  get enabled(): boolean {
    return this.expected !== undefined;
  }

  async check(supplied: unknown, who: Required<Pick<AttemptSource, 'accountId'>> & AttemptSource): Promise<AdminCheckResult> {
    try {
      await this.attempts.consume(who);
    } catch (error) {
      if (error instanceof AuthError && error.code === 'AUTH_RATE_LIMITED') {
        return { granted: false, code: 'AUTH_RATE_LIMITED', retryAfterSeconds: error.retryAfterSeconds ?? 60 };
      }
      throw error;
    }
    if (this.expected === undefined) return { granted: false, code: 'ADMIN_DISABLED' };
    const candidate = digest(typeof supplied === 'string' && supplied.length <= MAX_CODE_LENGTH ? supplied : '');
    const matches = timingSafeEqual(candidate, this.expected);
    return matches && typeof supplied === 'string' && supplied.length > 0 && supplied.length <= MAX_CODE_LENGTH
      ? { granted: true }
      : { granted: false, code: 'ADMIN_CODE_INVALID' };
  }
}

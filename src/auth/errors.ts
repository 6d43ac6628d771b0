/**
 * Coded authentication and authorization failures: a GameError (src/game/refusal.ts) with one of the codes below.
 * A REST route that throws one answers a problem document (401 with a `WWW-Authenticate: Bearer` challenge, 403,
 * 404, 429 with Retry-After: src/http/problem.ts); the WebSocket adapter sends `code` in its error event instead.
 */
import { GameError, refusalStatus } from '../game/refusal.ts';

export type AuthErrorCode =
  /** No credentials at all. */
  | 'AUTH_REQUIRED'
  /** Not a JWT, bad signature, wrong algorithm, issuer, audience or claims. */
  | 'TOKEN_INVALID'
  | 'TOKEN_EXPIRED'
  /** A live session whose token was revoked (agent tokens) while it was open. */
  | 'SESSION_REVOKED'
  /** The account behind a valid token no longer exists (e.g. an expired temporary identity). */
  | 'ACCOUNT_NOT_FOUND'
  /** A valid token lacking a role. */
  | 'INSUFFICIENT_ROLE'
  /** A valid token of a kind (scope) this operation does not accept. */
  | 'INSUFFICIENT_SCOPE'
  | 'CHARACTER_NOT_FOUND'
  | 'CHARACTER_NOT_OWNED'
  /** An identity-provider token that failed verification. */
  | 'IDP_TOKEN_INVALID'
  | 'IDP_TOKEN_EXPIRED'
  /** The identity provider cannot be reached (JWKS fetch failed). */
  | 'IDP_UNAVAILABLE'
  /** Anonymous mode: token exchange needs an identity provider. */
  | 'IDP_NOT_CONFIGURED'
  /** An identity provider is configured: no temporary identities. */
  | 'ANONYMOUS_MODE_DISABLED'
  | 'AUTH_RATE_LIMITED';

/**
 * An authentication or authorization refusal: the one refusal type (GameError) with an auth code. Each edge
 * translates it like any refusal — the http edge answers problem+json with its status from the shared table and the
 * Bearer challenge or Retry-After (src/http/problem.ts), the rooms send `code` in their error event or refuse the join.
 */
export class AuthError extends GameError {
  declare readonly code: AuthErrorCode;
  /** Seconds until another attempt may succeed (AUTH_RATE_LIMITED only). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: AuthErrorCode, message: string, retryAfterSeconds?: number) {
    super(code, message);
    this.name = 'AuthError';
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The HTTP status of the code (src/game/refusal.ts): 401, 403, 404, 429 or 503. */
  get status(): number {
    return refusalStatus(this.code);
  }
}

export function isAuthError(error: unknown): error is AuthError {
  return error instanceof AuthError;
}

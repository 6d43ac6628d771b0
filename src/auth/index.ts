/**
 * What the WebSocket adapter, rooms and routes use, bound to the running server (`runningAuthService()`, the
 * service gameContext().auth holds). Each function throws AuthError (a GameError with a stable auth `code`) unless
 * stated otherwise.
 */
import type { MessageRateLimiter } from '../limits/message-limiter.ts';
import type { AdminCheckResult } from './admin-code.ts';
import type { AttemptSource } from './attempt-limiter.ts';
import { runningAuthService, type SocketAuthResult } from './service.ts';
import type { Identity } from './tokens.ts';

export { assertMayActAs, assertOwnsCharacter } from './accounts.ts';
export type { AdminCheckResult } from './admin-code.ts';
export { authenticateColyseusClient } from './colyseus.ts';
export { AuthError, isAuthError, type AuthErrorCode } from './errors.ts';
export { authGate, bearerToken, identityOf, requireAuth, requireRole, requireScope } from './middleware.ts';
export type { AuthService, Session, SocketAuthResult } from './service.ts';
export type { Identity, TokenScope } from './tokens.ts';
export { VERIFIED_IDENTITY, type VerifiedIdentity } from './verified-identity.ts';

/** Verifies a server access token and that its account still exists: TOKEN_INVALID, TOKEN_EXPIRED, … */
export function verifyAccessToken(token: string | undefined | null): Promise<Identity> {
  return runningAuthService().verifyAccessToken(token);
}

/**
 * The WebSocket `authenticate` message (or the upgrade's Authorization header): the token, counted as an
 * authentication attempt for the address only when it fails verification. Anonymous mode without a token: a new
 * temporary identity (a login, so an attempt; `session` carries its token for the client). AUTH_RATE_LIMITED (429)
 * while the address is blocked, valid token or not.
 */
export function authenticateSocket(request: { token?: string | null; address?: string }): Promise<SocketAuthResult> {
  return runningAuthService().authenticateSocket(request);
}

/** Counts one authentication attempt; AUTH_RATE_LIMITED (429, retryAfterSeconds) when exhausted. */
export function consumeAuthAttempt(source: AttemptSource): Promise<void> {
  return runningAuthService().attempts.consume(source);
}

/** The admin gate (`/admin <code>`); never throws for a wrong code, answers a result instead. */
export function checkAdminCode(code: unknown, who: { accountId: string; address?: string }): Promise<AdminCheckResult> {
  return runningAuthService().adminGate.check(code, who);
}

/** A new per-connection message limiter (WS_MESSAGES_PER_SECOND; allows everything with DISABLE_RATE_LIMIT). */
export function createMessageLimiter(): MessageRateLimiter {
  return runningAuthService().createMessageLimiter();
}

/**
 * What the WebSocket adapter, rooms and routes use, bound to the running server (gameContext().auth).
 * Each function throws AuthError (an HttpProblem with a stable `code`) unless stated otherwise.
 */
import type { IncomingMessage } from 'node:http';
import { gameContext } from '../context.ts';
import { checkUpgradeOrigin as checkOrigin } from '../http/cors.ts';
import { clientAddress } from '../http/limits/client-address.ts';
import { relayedAddress } from '../cluster/ws-relay.ts';
import type { MessageRateLimiter } from '../http/limits/message-limiter.ts';
import type { AdminCheckResult } from './admin-code.ts';
import type { AttemptSource } from './attempt-limiter.ts';
import type { SocketAuthResult } from './service.ts';
import type { Identity } from './tokens.ts';

export { assertMayActAs, assertOwnsCharacter } from './accounts.ts';
export type { AdminCheckResult } from './admin-code.ts';
export { authenticateColyseusClient } from './colyseus.ts';
export { AuthError, isAuthError, type AuthErrorCode } from './errors.ts';
export { authGate, bearerToken, identityOf, requireAuth, requireRole, requireScope } from './middleware.ts';
export type { AuthService, Session, SocketAuthResult } from './service.ts';
export type { Identity, TokenScope } from './tokens.ts';
export { FLOOD_CLOSE_CODE, MessageRateLimiter, type MessageVerdict } from '../http/limits/message-limiter.ts';

/** Verifies a server access token and that its account still exists: TOKEN_INVALID, TOKEN_EXPIRED, … */
export function verifyAccessToken(token: string | undefined | null): Promise<Identity> {
  return gameContext().auth.verifyAccessToken(token);
}

/**
 * The WebSocket `authenticate` message (or the upgrade's Authorization header): one authentication attempt for
 * the address, then the token. Anonymous mode without a token: a new temporary identity (`session` carries its
 * token for the client). AUTH_RATE_LIMITED (429) when the address exhausted its attempts.
 */
export function authenticateSocket(request: { token?: string | null; address?: string }): Promise<SocketAuthResult> {
  return gameContext().auth.authenticateSocket(request);
}

/**
 * The client address of an upgrade or request, believing proxy headers only as TRUST_PROXY says, and the address
 * another server process relayed a /ws socket for only when it carries a valid signature.
 */
export function clientAddressOf(req: IncomingMessage): string {
  const { trustProxy, jwtSecret } = gameContext().config;
  return relayedAddress(req, jwtSecret) ?? clientAddress(req, trustProxy);
}

/** Counts one authentication attempt; AUTH_RATE_LIMITED (429, retryAfterSeconds) when exhausted. */
export function consumeAuthAttempt(source: AttemptSource): Promise<void> {
  return gameContext().auth.attempts.consume(source);
}

/** The admin gate (`/admin <code>`); never throws for a wrong code, answers a result instead. */
export function checkAdminCode(code: unknown, who: { accountId: string; address?: string }): Promise<AdminCheckResult> {
  return gameContext().auth.adminGate.check(code, who);
}

/** A new per-connection message limiter (WS_MESSAGES_PER_SECOND; allows everything with DISABLE_RATE_LIMIT). */
export function createMessageLimiter(): MessageRateLimiter {
  return gameContext().auth.createMessageLimiter();
}

/** Whether an upgrade request's Origin is allowed (no Origin: allowed). Refuse with 403 when false. */
export function checkUpgradeOrigin(req: IncomingMessage): boolean {
  return checkOrigin(req);
}

/**
 * Authentication of Colyseus SDK clients. The SDK sends the token as `Authorization: Bearer` on its matchmaking
 * request (set it with `new Client(url, { headers: { Authorization: 'Bearer …' } })`, which keeps it out of the
 * WebSocket URL; `client.auth.token` also works but the SDK then copies it into the socket URL as `_authToken`).
 * Call this from a room's static `onAuth(token, options, context)`: it runs on the matchmaking request, and the
 * identity it returns becomes `client.auth`. Tokens in the URL (`_authToken`) are ignored on purpose.
 */
import type { AuthContext } from '@colyseus/core';
import { AuthError } from './errors.ts';
import { bearerToken } from './middleware.ts';
import { runningAuthService, type AuthService } from './service.ts';
import type { Identity } from './tokens.ts';

/**
 * Verifies the caller of a Colyseus matchmaking request. Refuses with AuthError (AUTH_REQUIRED, TOKEN_INVALID,
 * TOKEN_EXPIRED, AUTH_RATE_LIMITED, …); the edges translate it: the matchmaking route answers the code's status with
 * "CODE: message" (src/http/matchmaker-errors.ts), a room refusing a socket turns it into a JoinRefusal
 * (rooms/game-error.ts).
 */
export async function authenticateColyseusClient(context: AuthContext, auth: AuthService = runningAuthService()): Promise<Identity> {
  // context.ip is the address computed by installClientAddressHeaders (TRUST_PROXY rules), never a client claim.
  // Only a failed verification is an authentication attempt: a valid token at join is not a login.
  return auth.attempts.countFailure({ address: context.ip }, async () => {
    const token = bearerToken(context.headers.get('authorization') ?? undefined);
    if (token === undefined) throw new AuthError('AUTH_REQUIRED', 'send Authorization: Bearer <token> with the matchmaking request');
    return auth.verifyLogin(token);
  });
}

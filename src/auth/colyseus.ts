/**
 * Authentication of Colyseus SDK clients. The SDK sends the token as `Authorization: Bearer` on its matchmaking
 * request (set it with `new Client(url, { headers: { Authorization: 'Bearer …' } })`, which keeps it out of the
 * WebSocket URL; `client.auth.token` also works but the SDK then copies it into the socket URL as `_authToken`).
 * Call this from a room's static `onAuth(token, options, context)`: it runs on the matchmaking request, and the
 * identity it returns becomes `client.auth`. Tokens in the URL (`_authToken`) are ignored on purpose.
 */
import { ServerError, type AuthContext } from '@colyseus/core';
import { gameContext } from '../context.ts';
import { AuthError } from './errors.ts';
import { bearerToken } from './middleware.ts';
import type { AuthService } from './service.ts';
import type { Identity } from './tokens.ts';

/**
 * Verifies the caller of a Colyseus matchmaking request. Failures are thrown as Colyseus `ServerError`s whose code
 * is the HTTP status (401, 403, 429) and whose message starts with the stable code, e.g. "TOKEN_EXPIRED: …".
 */
export async function authenticateColyseusClient(context: AuthContext, auth: AuthService = gameContext().auth): Promise<Identity> {
  try {
    // context.ip is the address computed by installClientAddressHeaders (TRUST_PROXY rules), never a client claim.
    // Only a failed verification is an authentication attempt: a valid token at join is not a login.
    return await auth.attempts.countFailure({ address: context.ip }, async () => {
      const token = bearerToken(context.headers.get('authorization') ?? undefined);
      if (token === undefined) throw new AuthError('AUTH_REQUIRED', 'send Authorization: Bearer <token> with the matchmaking request');
      return auth.verifyAccessToken(token);
    });
  } catch (error) {
    if (error instanceof AuthError) throw new ServerError(error.status, `${error.code}: ${error.message}`);
    throw error;
  }
}

/**
 * Coded authentication and authorization failures. Each is an HttpProblem, so a REST route that throws one
 * answers a problem document (401 with a `WWW-Authenticate: Bearer` challenge, 403, 404, 429 with Retry-After);
 * the WebSocket adapter sends `code` in its error event instead.
 */
import { HttpProblem } from '../http/problem.ts';

export const AUTH_REALM = 'game';

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

const STATUS: Record<AuthErrorCode, number> = {
  AUTH_REQUIRED: 401,
  TOKEN_INVALID: 401,
  TOKEN_EXPIRED: 401,
  SESSION_REVOKED: 401,
  ACCOUNT_NOT_FOUND: 401,
  INSUFFICIENT_ROLE: 403,
  INSUFFICIENT_SCOPE: 403,
  CHARACTER_NOT_FOUND: 404,
  CHARACTER_NOT_OWNED: 403,
  IDP_TOKEN_INVALID: 401,
  IDP_TOKEN_EXPIRED: 401,
  IDP_UNAVAILABLE: 503,
  IDP_NOT_CONFIGURED: 403,
  ANONYMOUS_MODE_DISABLED: 403,
  AUTH_RATE_LIMITED: 429,
};

export class AuthError extends HttpProblem {
  declare readonly code: AuthErrorCode;
  /** Seconds until another attempt may succeed (AUTH_RATE_LIMITED only). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: AuthErrorCode, message: string, retryAfterSeconds?: number) {
    super(STATUS[code], code, message, {}, headersFor(code, retryAfterSeconds));
    this.name = 'AuthError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The RFC 6750 challenge of a 401 or 403, and Retry-After of a 429. */
function headersFor(code: AuthErrorCode, retryAfterSeconds: number | undefined): Record<string, string> {
  const status = STATUS[code];
  if (status === 401) {
    return {
      'WWW-Authenticate': code === 'AUTH_REQUIRED'
        ? `Bearer realm="${AUTH_REALM}"`
        : `Bearer realm="${AUTH_REALM}", error="invalid_token"`,
    };
  }
  if (code === 'INSUFFICIENT_ROLE' || code === 'INSUFFICIENT_SCOPE') {
    return { 'WWW-Authenticate': `Bearer realm="${AUTH_REALM}", error="insufficient_scope"` };
  }
  if (status === 429) return { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds ?? 1))) };
  return {};
}

export function isAuthError(error: unknown): error is AuthError {
  return error instanceof AuthError;
}

/**
 * Express authorization. `authGate(auth)` runs before every route: it protects everything under /api except
 * the public families (/api/data/skill-unlocks, /api/auth/*), so a route mounted later is protected by default
 * (an unknown /api path answers 401 without a token and 404 with one). Routes add `requireAuth`,
 * `requireRole(role)` and `requireScope(scope)`, and read the caller with `identityOf(req)`.
 *
 * Missing credentials → 401 AUTH_REQUIRED with `WWW-Authenticate: Bearer realm="game"`; a malformed, expired or
 * wrongly signed token → 401 TOKEN_INVALID / TOKEN_EXPIRED with `error="invalid_token"`; a valid token lacking a
 * role or scope → 403. Tokens are read from `Authorization: Bearer` only, never from the URL.
 */
import type { Request, RequestHandler } from 'express';
import { AuthError } from './errors.ts';
import { runningAuthService, type AuthService } from './service.ts';
import type { Identity, TokenScope } from './tokens.ts';

const services = new WeakMap<Request, AuthService>();
const identities = new WeakMap<Request, Identity>();

/** The bearer token of an Authorization header: undefined when absent, AuthError when not a Bearer credential. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const match = /^Bearer +([^\s]+) *$/i.exec(header);
  if (!match) throw new AuthError('TOKEN_INVALID', 'the Authorization header must be "Bearer <token>"');
  return match[1];
}

const PUBLIC_API_PATHS = new Set(['/api/data/skill-unlocks', '/api/openapi.json', '/api/v1/worlds']);
const PUBLIC_API_PREFIXES = ['/api/auth/'];

/**
 * Whether a request path needs a token at the gate. Compared case-insensitively with repeated slashes collapsed
 * (Express matches routes that way); a path is public only when written plainly (no percent-encoding, no dot
 * segments), so encoding tricks can only make a path protected, never public.
 */
export function isProtectedApiPath(rawPath: string): boolean {
  const path = rawPath.toLowerCase().replace(/\/{2,}/g, '/');
  let decoded: string;
  try {
    decoded = decodeURIComponent(path).replace(/\/{2,}/g, '/');
  } catch {
    decoded = path;
  }
  const underApi = (p: string) => /^\/api(\/|$)/.test(p);
  if (!underApi(path) && !underApi(decoded)) return false;
  if (path !== decoded || /(^|\/)\.\.?(\/|$)/.test(path)) return true;
  const trimmed = path.length > 1 ? path.replace(/\/$/, '') : path;
  if (PUBLIC_API_PATHS.has(trimmed)) return false;
  return !PUBLIC_API_PREFIXES.some((prefix) => path.startsWith(prefix) && path.length > prefix.length);
}

function serviceFor(req: Request): AuthService {
  return services.get(req) ?? runningAuthService();
}

function authenticate(req: Request): Identity {
  const known = identities.get(req);
  if (known) return known;
  const token = bearerToken(req.get('authorization'));
  if (token === undefined) throw new AuthError('AUTH_REQUIRED', 'this endpoint needs Authorization: Bearer <token>');
  const identity = serviceFor(req).tokens.verify(token);
  identities.set(req, identity);
  return identity;
}

/** Mount first: binds the request to this server's auth service and protects /api by default. */
export function authGate(auth: AuthService): RequestHandler {
  return (req, _res, next) => {
    services.set(req, auth);
    if (isProtectedApiPath(req.path)) authenticate(req);
    next();
  };
}

/** Requires a valid server token (any scope). */
export const requireAuth: RequestHandler = (req, _res, next) => {
  authenticate(req);
  next();
};

/**
 * Requires a valid token carrying `role` whose account still holds it (403 INSUFFICIENT_ROLE otherwise): a role
 * removed from the account stops working before its tokens expire. The stored roles come from the session guard's
 * cache (read at most once per SESSION_CHECK_SECONDS per account, at once after a change event).
 */
export function requireRole(role: string): RequestHandler {
  return async (req, _res, next) => {
    const identity = authenticate(req);
    if (!identity.roles.includes(role)) throw new AuthError('INSUFFICIENT_ROLE', `this endpoint needs the ${role} role`);
    const current = await serviceFor(req).sessions.currentRoles(identity);
    if (!current.includes(role)) throw new AuthError('INSUFFICIENT_ROLE', `this endpoint needs the ${role} role, which the account no longer holds`);
    next();
  };
}

/** Requires a valid token of one of these kinds (403 INSUFFICIENT_SCOPE otherwise). */
export function requireScope(...scopes: TokenScope[]): RequestHandler {
  return (req, _res, next) => {
    const identity = authenticate(req);
    if (!scopes.includes(identity.scope)) {
      throw new AuthError('INSUFFICIENT_SCOPE', `this endpoint accepts ${scopes.join(' or ')} tokens only`);
    }
    next();
  };
}

/** The verified caller of a request that passed requireAuth (or the gate); AUTH_REQUIRED otherwise. */
export function identityOf(req: Request): Identity {
  const identity = identities.get(req);
  if (!identity) throw new AuthError('AUTH_REQUIRED', 'this endpoint needs Authorization: Bearer <token>');
  return identity;
}

/** The auth service bound to a request by the gate. */
export function authServiceOf(req: Request): AuthService {
  return serviceFor(req);
}

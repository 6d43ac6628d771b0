/**
 * The server's own access tokens: compact JWS, HS256 with JWT_SECRET, issuer, audience and `exp` always set and
 * always checked, the algorithm pinned on verification (so `alg: none` and algorithm confusion are refused).
 *
 * Claims (docs/auth.md): `sub` account id · `roles` string[] · `scope` "player" | "agent" · optional
 * `characterId` (the one character the token may act as) · `iss` · `aud` · `iat` · `exp` · `jti`.
 */
import { createSecretKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Config } from '../config.ts';
import { keptDevelopmentSecret } from './dev-secret.ts';
import { AuthError } from './errors.ts';

export const TOKEN_ALGORITHM = 'HS256';
export const TOKEN_SCOPES = ['player', 'agent'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Who a verified token speaks for. */
export interface Identity {
  accountId: string;
  roles: readonly string[];
  scope: TokenScope;
  /** Present when the token is bound to one character (agent tokens, character session tokens). */
  characterId?: string;
  /** When the token stops being accepted. */
  expiresAt: Date;
  /** The token's `jti` (agent tokens are revoked by it). */
  tokenId?: string;
}

export interface TokenClaims {
  accountId: string;
  roles: readonly string[];
  scope: TokenScope;
  characterId?: string;
}

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

export interface TokenServiceOptions {
  secret: string;
  issuer: string;
  audience: string;
  /** Default lifetime in seconds. */
  ttlSeconds: number;
  /** Accepted clock skew in seconds when checking `exp`/`iat` (default 5). */
  clockToleranceSeconds?: number;
  now?: () => number;
}

let processSecret: string | undefined;

/** How many verified tokens are remembered (the oldest is forgotten first). */
const VERIFIED_TOKENS = 10_000;

/**
 * The signing secret: JWT_SECRET, or a random secret made once per process, so tokens never verify across restarts
 * and no fixed string exists (test mode; development keeps its secret instead, serverSigningSecret).
 */
export function signingSecret(configured: string | undefined): { secret: string; generated: boolean } {
  if (configured !== undefined) return { secret: configured, generated: false };
  processSecret ??= randomBytes(48).toString('base64url');
  return { secret: processSecret, generated: true };
}

/** Where the secret came from: JWT_SECRET, development's kept file (found, or made now), or this process. */
export type SecretSource = 'configured' | 'kept' | 'created' | 'process';

/**
 * The server's signing secret for its mode: JWT_SECRET when set (production requires it); in development without
 * it, the secret kept in JWT_DEV_SECRET_FILE (dev-secret.ts), so tokens outlive restarts; in test, one per process.
 */
export function serverSigningSecret(config: Pick<Config, 'jwtSecret' | 'nodeEnv' | 'jwtDevSecretFile'>): { secret: string; source: SecretSource } {
  if (config.jwtSecret !== undefined) return { secret: config.jwtSecret, source: 'configured' };
  if (config.nodeEnv === 'production') throw new Error('JWT_SECRET is required in production');
  if (config.nodeEnv === 'development') {
    const kept = keptDevelopmentSecret(config.jwtDevSecretFile);
    return { secret: kept.secret, source: kept.created ? 'created' : 'kept' };
  }
  return { secret: signingSecret(undefined).secret, source: 'process' };
}

export class TokenService {
  /** A KeyObject made once: given a string, jsonwebtoken would parse it as a key on every call (~5× the cost). */
  private readonly secret: KeyObject;
  private readonly issuer: string;
  private readonly audience: string;
  private readonly ttlSeconds: number;
  private readonly tolerance: number;
  private readonly now: () => number;
  /**
   * Tokens that passed verification, until their `exp`: a client sends the same token with every request, and
   * the same string signed by the same secret verifies the same way until it expires (revocation of agent tokens
   * is a separate check, AuthService.runTokenChecks).
   */
  private readonly verified = new Map<string, { identity: Identity; exp: number }>();

  constructor(options: TokenServiceOptions) {
    if (options.secret.length === 0) throw new Error('the token signing secret must not be empty');
    this.secret = createSecretKey(Buffer.from(options.secret, 'utf8'));
    this.issuer = options.issuer;
    this.audience = options.audience;
    this.ttlSeconds = options.ttlSeconds;
    this.tolerance = options.clockToleranceSeconds ?? 5;
    this.now = options.now ?? Date.now;
  }

  /** Signs a token; its lifetime is the default TTL, shortened to `notAfter` when that comes sooner. */
  sign(claims: TokenClaims, options: { ttlSeconds?: number; notAfter?: Date } = {}): IssuedToken {
    const iat = Math.floor(this.now() / 1000);
    let exp = iat + (options.ttlSeconds ?? this.ttlSeconds);
    if (options.notAfter) exp = Math.min(exp, Math.floor(options.notAfter.getTime() / 1000));
    if (exp <= iat) throw new AuthError('TOKEN_EXPIRED', 'the identity has expired');
    const payload: Record<string, unknown> = {
      sub: claims.accountId,
      roles: [...claims.roles],
      scope: claims.scope,
      iss: this.issuer,
      aud: this.audience,
      iat,
      exp,
      jti: randomUUID(),
    };
    if (claims.characterId !== undefined) payload.characterId = claims.characterId;
    const token = jwt.sign(payload, this.secret, { algorithm: TOKEN_ALGORITHM });
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /** Verifies signature (HS256 only), issuer, audience, `exp` (required) and the claim shapes. */
  verify(token: string): Identity {
    if (typeof token !== 'string' || token.length === 0) throw new AuthError('AUTH_REQUIRED', 'an access token is required');
    if (token.length > 8192 || !/^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)) {
      throw new AuthError('TOKEN_INVALID', 'the access token is malformed');
    }
    const clock = Math.floor(this.now() / 1000);
    const known = this.verified.get(token);
    if (known && clock < known.exp + this.tolerance) return known.identity;
    this.verified.delete(token);
    let payload: jwt.JwtPayload | string;
    try {
      payload = jwt.verify(token, this.secret, {
        algorithms: [TOKEN_ALGORITHM],
        issuer: this.issuer,
        audience: this.audience,
        clockTolerance: this.tolerance,
        clockTimestamp: clock,
      });
    } catch (error) {
      if (error instanceof jwt.TokenExpiredError) throw new AuthError('TOKEN_EXPIRED', 'the access token has expired');
      throw new AuthError('TOKEN_INVALID', 'the access token is not valid');
    }
    const identity = Object.freeze(identityFromPayload(payload));
    if (this.verified.size >= VERIFIED_TOKENS) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { identity, exp: identity.expiresAt.getTime() / 1000 });
    return identity;
  }
}

function identityFromPayload(payload: jwt.JwtPayload | string): Identity {
  const invalid = (what: string) => new AuthError('TOKEN_INVALID', `the access token ${what}`);
  if (typeof payload !== 'object' || payload === null) throw invalid('has no claims');
  if (typeof payload.exp !== 'number') throw invalid('has no expiry');
  if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw invalid('names no account');
  const roles: unknown = payload.roles;
  if (!Array.isArray(roles) || !roles.every((role) => typeof role === 'string')) throw invalid('has malformed roles');
  const scope: unknown = payload.scope;
  if (!TOKEN_SCOPES.includes(scope as TokenScope)) throw invalid('has an unknown scope');
  const characterId: unknown = payload.characterId;
  if (characterId !== undefined && (typeof characterId !== 'string' || characterId.length === 0)) {
    throw invalid('has a malformed character id');
  }
  return {
    accountId: payload.sub,
    roles: Object.freeze([...roles]),
    scope: scope as TokenScope,
    ...(characterId !== undefined ? { characterId } : {}),
    expiresAt: new Date(payload.exp * 1000),
    ...(typeof payload.jti === 'string' && payload.jti.length > 0 ? { tokenId: payload.jti } : {}),
  };
}

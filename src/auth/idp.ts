/**
 * Verifies the identity provider's access tokens: asymmetric JWTs (ES256 or RS256) checked against the
 * provider's public key (IDP_PUBLIC_KEY, PEM) or its key set (IDP_JWKS_URL), with audience = PUBLIC_IDP_APP_ID,
 * the issuer when IDP_ISSUER is set, and `exp` and `sub` required. Symmetric algorithms are never accepted, so a
 * token "signed" with the public key text as an HMAC secret (algorithm confusion) fails like any forgery.
 * IDP_APP_SECRET is not needed to verify and is never used here.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { AuthError } from './errors.ts';

export interface IdpVerifierOptions {
  /** PEM public key (EC P-256 → ES256, RSA → RS256). */
  publicKeyPem?: string;
  /** Address of the provider's JSON Web Key Set (ES256 and RS256 keys accepted). */
  jwksUrl?: string;
  /** Expected `aud`: PUBLIC_IDP_APP_ID. */
  audience: string;
  /** Expected `iss`; unchecked when undefined. */
  issuer?: string;
  clockToleranceSeconds?: number;
}

export interface IdpIdentity {
  /** The provider's stable subject id (`sub`). */
  subject: string;
}

const MAX_TOKEN_LENGTH = 16_384;

export class IdpVerifier {
  private readonly key: KeyObject | JWTVerifyGetKey;
  private readonly algorithms: string[];
  private readonly audience: string;
  private readonly issuer: string | undefined;
  private readonly tolerance: number;

  constructor(options: IdpVerifierOptions) {
    this.audience = options.audience;
    this.issuer = options.issuer;
    this.tolerance = options.clockToleranceSeconds ?? 5;
    if (options.publicKeyPem !== undefined) {
      const key = createPublicKey(options.publicKeyPem);
      this.key = key;
      this.algorithms = key.asymmetricKeyType === 'ec' ? ['ES256'] : ['RS256'];
    } else if (options.jwksUrl !== undefined) {
      this.key = createRemoteJWKSet(new URL(options.jwksUrl), {
        timeoutDuration: 5_000,
        cooldownDuration: 30_000,
        cacheMaxAge: 10 * 60_000,
      });
      this.algorithms = ['ES256', 'RS256'];
    } else {
      throw new Error('IdpVerifier needs a public key or a JWKS address');
    }
  }

  async verify(token: string): Promise<IdpIdentity> {
    if (typeof token !== 'string' || token.length === 0) {
      throw new AuthError('AUTH_REQUIRED', 'an identity provider token is required');
    }
    if (token.length > MAX_TOKEN_LENGTH || !/^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)) {
      throw new AuthError('IDP_TOKEN_INVALID', 'the identity provider token is malformed');
    }
    let payload: JWTPayload;
    try {
      const options = {
        algorithms: this.algorithms,
        audience: this.audience,
        requiredClaims: ['exp', 'sub'],
        clockTolerance: this.tolerance,
        ...(this.issuer !== undefined ? { issuer: this.issuer } : {}),
      };
      // Two calls so each matches one overload of jwtVerify (a key, or a key-set lookup function).
      payload = typeof this.key === 'function'
        ? (await jwtVerify(token, this.key, options)).payload
        : (await jwtVerify(token, this.key, options)).payload;
    } catch (error) {
      throw toAuthError(error, typeof this.key === 'function');
    }
    if (typeof payload.sub !== 'string' || payload.sub.length === 0 || payload.sub.length > 255) {
      throw new AuthError('IDP_TOKEN_INVALID', 'the identity provider token names no subject');
    }
    return { subject: payload.sub };
  }
}

function toAuthError(error: unknown, remoteKeys: boolean): AuthError {
  if (error instanceof joseErrors.JWTExpired) {
    return new AuthError('IDP_TOKEN_EXPIRED', 'the identity provider token has expired');
  }
  const fetchFailed = error instanceof joseErrors.JWKSTimeout
    || error instanceof joseErrors.JWKSInvalid
    || (error instanceof joseErrors.JOSEError && error.code === 'ERR_JOSE_GENERIC')
    || !(error instanceof joseErrors.JOSEError);
  if (remoteKeys && fetchFailed) {
    // A failed key-set fetch (network, timeout, bad answer) is the provider's fault, not the client's.
    return new AuthError('IDP_UNAVAILABLE', 'the identity provider keys could not be fetched');
  }
  return new AuthError('IDP_TOKEN_INVALID', 'the identity provider token is not valid');
}

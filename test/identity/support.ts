/** Token forging and key helpers for the identity tests. Tokens are built by hand where a library would refuse. */
import { createHmac, generateKeyPairSync, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function unsignedToken(payload: object): string {
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`;
}

export function hmacToken(payload: object, key: string | Buffer, alg: 'HS256' | 'HS384' | 'HS512' = 'HS256'): string {
  const hash = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }[alg];
  const head = `${b64({ alg, typ: 'JWT' })}.${b64(payload)}`;
  return `${head}.${createHmac(hash, key).update(head).digest('base64url')}`;
}

export const now = () => Math.floor(Date.now() / 1000);

export interface IdpKeys {
  publicPem: string;
  privateKey: KeyObject;
  alg: 'ES256' | 'RS256';
}

export function idpKeys(kind: 'ec' | 'rsa' = 'ec'): IdpKeys {
  const pair = kind === 'ec'
    ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
    : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: pair.privateKey,
    alg: kind === 'ec' ? 'ES256' : 'RS256',
  };
}

export function idpToken(keys: IdpKeys, claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  return jwt.sign({ iat: now(), exp: now() + 600, ...claims }, keys.privateKey, {
    algorithm: keys.alg, header: { alg: keys.alg, typ: 'JWT', ...header },
  });
}

/** The payload of a JWT, unverified (for inspecting what the server issued). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function claimsOf(token: string): any {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

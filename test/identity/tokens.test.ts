import assert from 'node:assert/strict';
import { AuthError } from '../../src/auth/errors.ts';
import { signingSecret, TokenService } from '../../src/auth/tokens.ts';
import { hmacToken, idpKeys, now, unsignedToken } from './support.ts';

const SECRET = 'unit-test-signing-secret-0123456789abcdef';
const service = (options: Partial<ConstructorParameters<typeof TokenService>[0]> = {}) =>
  new TokenService({ secret: SECRET, issuer: 'iss-a', audience: 'aud-a', ttlSeconds: 3600, ...options });

function expectCode(run: () => unknown, code: string): void {
  assert.throws(run, (error: unknown) => error instanceof AuthError && error.code === code && error.status === 401);
}

const valid = () => ({ sub: 'acc-1', roles: ['player'], scope: 'player', iss: 'iss-a', aud: 'aud-a', iat: now(), exp: now() + 60 });

describe('server tokens (HS256, pinned)', () => {
  it('round-trips account, roles, scope and character, with exp from the TTL', () => {
    const tokens = service();
    const issued = tokens.sign({ accountId: 'acc-1', roles: ['player'], scope: 'agent', characterId: 'char-9' });
    const identity = tokens.verify(issued.token);
    assert.equal(identity.accountId, 'acc-1');
    assert.deepEqual(identity.roles, ['player']);
    assert.equal(identity.scope, 'agent');
    assert.equal(identity.characterId, 'char-9');
    assert.equal(identity.expiresAt.getTime(), issued.expiresAt.getTime());
    const lifetime = issued.expiresAt.getTime() - Date.now();
    assert.ok(lifetime > 3590_000 && lifetime <= 3600_000, `lifetime ${lifetime}`);
    const header = JSON.parse(Buffer.from(issued.token.split('.')[0], 'base64url').toString());
    assert.equal(header.alg, 'HS256');
  });

  it('caps the lifetime at notAfter and refuses to sign an already expired identity', () => {
    const tokens = service();
    const notAfter = new Date(Date.now() + 120_000);
    assert.ok(tokens.sign({ accountId: 'a', roles: [], scope: 'player' }, { notAfter }).expiresAt <= notAfter);
    assert.throws(() => tokens.sign({ accountId: 'a', roles: [], scope: 'player' }, { notAfter: new Date(Date.now() - 1000) }));
  });

  it('accepts a well-formed hand-made HS256 token (the forgeries below differ in one way each)', () => {
    assert.equal(service().verify(hmacToken(valid(), SECRET)).accountId, 'acc-1');
  });

  it('refuses alg none', () => expectCode(() => service().verify(unsignedToken(valid())), 'TOKEN_INVALID'));
  it('refuses another HMAC algorithm with the right secret', () =>
    expectCode(() => service().verify(hmacToken(valid(), SECRET, 'HS512')), 'TOKEN_INVALID'));
  it('refuses a token signed with another secret', () =>
    expectCode(() => service().verify(hmacToken(valid(), 'another-secret')), 'TOKEN_INVALID'));
  it('refuses an HS256 token signed with a public key text (algorithm confusion)', () =>
    expectCode(() => service().verify(hmacToken(valid(), idpKeys().publicPem)), 'TOKEN_INVALID'));
  it('refuses an expired token with TOKEN_EXPIRED', () =>
    expectCode(() => service().verify(hmacToken({ ...valid(), exp: now() - 60 }, SECRET)), 'TOKEN_EXPIRED'));
  it('remembers a verified token until it expires; another string (a forged signature) is verified afresh', () => {
    let clock = Date.now();
    const tokens = service({ now: () => clock, clockToleranceSeconds: 0 });
    const { token } = tokens.sign({ accountId: 'acc-9', roles: ['player'], scope: 'player' }, { ttlSeconds: 60 });
    const first = tokens.verify(token);
    assert.equal(tokens.verify(token), first, 'the second verification answers the remembered identity');
    assert.ok(Object.isFrozen(first));
    const [header, payload, signature] = token.split('.');
    const forged = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expectCode(() => tokens.verify(forged), 'TOKEN_INVALID');
    clock += 61_000;
    expectCode(() => tokens.verify(token), 'TOKEN_EXPIRED');
  });
  it('refuses a token without exp', () => {
    const { exp: _omit, ...noExp } = valid();
    expectCode(() => service().verify(hmacToken(noExp, SECRET)), 'TOKEN_INVALID');
  });
  it('refuses a wrong issuer', () => expectCode(() => service().verify(hmacToken({ ...valid(), iss: 'other' }, SECRET)), 'TOKEN_INVALID'));
  it('refuses a wrong audience', () => expectCode(() => service().verify(hmacToken({ ...valid(), aud: 'other' }, SECRET)), 'TOKEN_INVALID'));
  it('refuses a missing subject, malformed roles and an unknown scope', () => {
    const { sub: _omit, ...noSub } = valid();
    expectCode(() => service().verify(hmacToken(noSub, SECRET)), 'TOKEN_INVALID');
    expectCode(() => service().verify(hmacToken({ ...valid(), roles: 'admin' }, SECRET)), 'TOKEN_INVALID');
    expectCode(() => service().verify(hmacToken({ ...valid(), scope: 'root' }, SECRET)), 'TOKEN_INVALID');
  });
  it('refuses garbage and an empty token', () => {
    expectCode(() => service().verify('not-a-jwt'), 'TOKEN_INVALID');
    expectCode(() => service().verify('a.b'), 'TOKEN_INVALID');
    expect401(() => service().verify(''));
  });

  it('without JWT_SECRET uses a random per-process secret, never a fixed string', () => {
    const first = signingSecret(undefined);
    assert.equal(first.generated, true);
    assert.ok(first.secret.length >= 48);
    assert.equal(signingSecret(undefined).secret, first.secret, 'one secret per process');
    assert.deepEqual(signingSecret('configured'), { secret: 'configured', generated: false });
  });
});

function expect401(run: () => unknown): void {
  assert.throws(run, (error: unknown) => error instanceof AuthError && error.status === 401);
}

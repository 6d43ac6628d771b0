import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { User } from '../../src/db/entities/index.ts';
import { json } from '../helpers/http.ts';
import { freePort } from '../helpers/process.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { bearer, claimsOf, hmacToken, idpKeys, idpToken, now, unsignedToken, type IdpKeys } from './support.ts';

const APP_ID = 'public-idp-app-id-7f3';
const ISSUER = 'https://login.idp.example';
const SECRETS = { JWT_SECRET: 'jwt-secret-idp-suite-0a1b2c3d4e5f6a7b', IDP_APP_SECRET: 'idp-app-secret-idp-suite-8c9d', ADMIN_CODE: 'admin-idp-suite-1e2f' };

async function exchange(server: TestServer, token: string | undefined, via: 'body' | 'header' = 'body') {
  const response = await fetch(`${server.baseUrl}/api/auth/exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(via === 'header' && token ? bearer(token) : {}) },
    body: JSON.stringify(via === 'body' && token !== undefined ? { idpToken: token } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

function assertRefused(result: Awaited<ReturnType<typeof exchange>>, code: string): void {
  assert.equal(result.status, 401, result.text);
  assert.equal(result.body.code, code);
  assert.match(result.headers.get('www-authenticate') ?? '', /^Bearer realm="game"/);
  assert.equal(result.body.token, undefined);
}

describe('identity provider token exchange, ES256 public key @db', () => {
  let server: TestServer;
  const keys = idpKeys('ec');
  const claims = (extra: Record<string, unknown> = {}) => ({ sub: `did:idp:${randomUUID()}`, aud: APP_ID, iss: ISSUER, ...extra });

  before(async () => {
    server = await startTestServer({ ...SECRETS, IDP_PUBLIC_KEY: keys.publicPem, PUBLIC_IDP_APP_ID: APP_ID, IDP_ISSUER: ISSUER });
  });
  after(() => server?.close());

  it('a valid provider token → a server token for the account made on first sight, the same one afterwards', async () => {
    const subject = `did:idp:${randomUUID()}`;
    const first = await exchange(server, idpToken(keys, claims({ sub: subject })));
    assert.equal(first.status, 200, first.text);
    assert.equal(typeof first.body.token, 'string');
    assert.equal(new Date(first.body.expiresAt).toISOString(), first.body.expiresAt);
    assert.equal(first.body.temporary, false);
    const token = claimsOf(first.body.token);
    assert.equal(token.sub, first.body.accountId);
    assert.deepEqual(token.roles, ['player']);
    assert.equal(token.scope, 'player');

    const second = await exchange(server, idpToken(keys, claims({ sub: subject })), 'header');
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.accountId, first.body.accountId);

    const user = await server.context.db.em.fork().findOneOrFail(User, { idpSubject: subject });
    assert.equal(user.id, first.body.accountId);
    assert.equal(user.isTemporary, false);
    assert.deepEqual(user.roles, ['player']);
    const me = await fetch(`${server.baseUrl}/api/auth/me`, { headers: bearer(first.body.token) });
    assert.equal((await json(me)).accountId, user.id);
  });

  it('ten concurrent first logins of one subject make exactly one account', async () => {
    const subject = `did:idp:${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 10 }, () => exchange(server, idpToken(keys, claims({ sub: subject })))));
    for (const result of results) assert.equal(result.status, 200, result.text);
    assert.equal(new Set(results.map((r) => r.body.accountId)).size, 1);
    const rows = await server.context.db.em.getConnection().execute('select id from users where idp_subject = ?', [subject]);
    assert.equal(rows.length, 1);
  });

  const forged: Array<[string, () => string, string]> = [
    ['alg none', () => unsignedToken({ ...claims(), exp: now() + 600 }), 'IDP_TOKEN_INVALID'],
    ['HS256 keyed with the provider\'s public key text (algorithm confusion)', () => hmacToken({ ...claims(), exp: now() + 600 }, keys.publicPem), 'IDP_TOKEN_INVALID'],
    ['HS256 keyed with the server\'s JWT_SECRET', () => hmacToken({ ...claims(), exp: now() + 600 }, SECRETS.JWT_SECRET), 'IDP_TOKEN_INVALID'],
    ['HS256 keyed with IDP_APP_SECRET', () => hmacToken({ ...claims(), exp: now() + 600 }, SECRETS.IDP_APP_SECRET), 'IDP_TOKEN_INVALID'],
    ['signed by another key', () => idpToken(idpKeys('ec'), claims()), 'IDP_TOKEN_INVALID'],
    ['an RSA key\'s RS256 signature', () => idpToken(idpKeys('rsa'), claims()), 'IDP_TOKEN_INVALID'],
    ['expired', () => idpToken(keys, claims({ iat: now() - 7200, exp: now() - 3600 })), 'IDP_TOKEN_EXPIRED'],
    ['a wrong audience', () => idpToken(keys, claims({ aud: 'another-app' })), 'IDP_TOKEN_INVALID'],
    ['a wrong issuer', () => idpToken(keys, claims({ iss: 'https://evil.example' })), 'IDP_TOKEN_INVALID'],
    ['no subject', () => idpToken(keys, { aud: APP_ID, iss: ISSUER }), 'IDP_TOKEN_INVALID'],
    ['garbage', () => 'not.a.token', 'IDP_TOKEN_INVALID'],
  ];
  for (const [name, make, code] of forged) {
    it(`refuses a provider token with ${name} → 401 ${code}`, async () => {
      assertRefused(await exchange(server, make()), code);
    });
  }

  it('refuses a server token presented as a provider token, and no token at all', async () => {
    const anyServerToken = server.context.auth.tokens.sign({ accountId: 'x', roles: ['player'], scope: 'player' }).token;
    assertRefused(await exchange(server, anyServerToken), 'IDP_TOKEN_INVALID');
    assertRefused(await exchange(server, undefined), 'AUTH_REQUIRED');
  });

  it('in IDP mode a socket without a token is refused (no temporary identity)', async () => {
    await assert.rejects(server.context.auth.authenticateSocket({ address: '127.0.0.9' }), { code: 'AUTH_REQUIRED', status: 401 });
  });

  it('an identity provider turns anonymous mode off', async () => {
    const response = await fetch(`${server.baseUrl}/api/auth/anonymous`, { method: 'POST' });
    assert.equal(response.status, 403);
    assert.equal((await json(response)).code, 'ANONYMOUS_MODE_DISABLED');
  });

  it('the provider\'s public key is the only key material an exchange depends on: IDP_APP_SECRET never leaves', async () => {
    const texts: string[] = [];
    for (const token of [idpToken(keys, claims()), 'x.y.z', hmacToken(claims(), SECRETS.IDP_APP_SECRET)]) {
      const result = await exchange(server, token);
      texts.push(result.text, [...result.headers.values()].join('\n'));
    }
    const env = await (await fetch(`${server.baseUrl}/env.js`)).text();
    for (const value of Object.values(SECRETS)) {
      assert.ok(!texts.join('\n').includes(value));
      assert.ok(!env.includes(value));
    }
    assert.ok(env.includes(APP_ID), 'the public app id is published');
  });
});

describe('identity provider token exchange, RS256 key set (JWKS) @db', () => {
  let server: TestServer;
  let jwks: Server;
  let jwksFetches = 0;
  const keys: IdpKeys = idpKeys('rsa');
  const kid = 'key-1';

  before(async () => {
    const jwk = { ...keys.privateKey.export({ format: 'jwk' }) } as Record<string, unknown>;
    const publicJwk = { kty: jwk.kty, n: jwk.n, e: jwk.e, kid, alg: 'RS256', use: 'sig' };
    jwks = http.createServer((req, res) => {
      jwksFetches++;
      if (req.url !== '/.well-known/jwks.json') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`;
    server = await startTestServer({ ...SECRETS, IDP_JWKS_URL: url, PUBLIC_IDP_APP_ID: APP_ID });
  });
  after(async () => {
    await server?.close();
    await new Promise((resolve) => jwks?.close(resolve));
  });

  it('verifies a token against the fetched key set', async () => {
    const result = await exchange(server, idpToken(keys, { sub: `did:idp:${randomUUID()}`, aud: APP_ID }, { kid }));
    assert.equal(result.status, 200, result.text);
    assert.ok(jwksFetches >= 1);
  });

  it('refuses a token signed by a key outside the set, under the set\'s key id', async () => {
    assertRefused(await exchange(server, idpToken(idpKeys('rsa'), { sub: 'did:idp:x', aud: APP_ID }, { kid })), 'IDP_TOKEN_INVALID');
  });

  it('refuses alg none and HS256 under the set\'s key id', async () => {
    const forged = { sub: 'did:idp:x', aud: APP_ID, exp: now() + 600 };
    assertRefused(await exchange(server, unsignedToken(forged)), 'IDP_TOKEN_INVALID');
    assertRefused(await exchange(server, hmacToken(forged, 'guess')), 'IDP_TOKEN_INVALID');
  });
});

describe('identity provider key set unreachable @db', () => {
  let server: TestServer;
  before(async () => {
    const closedPort = await freePort();
    server = await startTestServer({ IDP_JWKS_URL: `http://127.0.0.1:${closedPort}/jwks.json`, PUBLIC_IDP_APP_ID: APP_ID });
  });
  after(() => server?.close());

  it('answers 503 IDP_UNAVAILABLE, not a client error and not a 500', async () => {
    const result = await exchange(server, idpToken(idpKeys('rsa'), { sub: 'did:idp:y', aud: APP_ID }, { kid: 'k' }));
    assert.equal(result.status, 503, result.text);
    assert.equal(result.body.code, 'IDP_UNAVAILABLE');
  });
});

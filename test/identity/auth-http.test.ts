import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { authenticateSocket, verifyAccessToken } from '../../src/auth/index.ts';
import { authGate, requireRole } from '../../src/auth/middleware.ts';
import { Character, User } from '../../src/db/entities/index.ts';
import { errorHandler } from '../../src/http/errors.ts';
import { uniqueName } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { bearer, claimsOf, hmacToken, idpKeys, now, unsignedToken } from './support.ts';

const SECRETS = {
  JWT_SECRET: 'jwt-secret-value-identity-4c1d9e0f7a2b',
  ADMIN_CODE: 'admin-code-value-identity-9f2e',
  IDP_APP_SECRET: 'idp-app-secret-value-identity-77aa',
  VOICE_API_KEY: 'voice-key-value-identity-1b3c',
  VOICE_API_SECRET: 'voice-secret-value-identity-5d6e',
};

/** Every response text and header seen, to prove no secret ever leaves the server. */
const seen: string[] = [];

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(url, init);
  const text = await response.text();
  seen.push([...response.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n'), text);
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body };
}

function post(url: string, body?: unknown, headers: Record<string, string> = {}) {
  return call(url, {
    method: 'POST',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

function assertProblem(result: { status: number; headers: Headers; body: any }, status: number, code: string): void {
  assert.equal(result.status, status, `expected ${status} ${code}, got ${result.status} ${JSON.stringify(result.body)}`);
  assert.match(result.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(result.body.code, code);
  assert.equal(result.body.status, status);
}

function assertUnauthorized(result: { status: number; headers: Headers; body: any }, code: string): void {
  assertProblem(result, 401, code);
  const challenge = result.headers.get('www-authenticate') ?? '';
  assert.match(challenge, /^Bearer realm="game"/);
  if (code === 'AUTH_REQUIRED') assert.doesNotMatch(challenge, /error=/);
  else assert.match(challenge, /error="invalid_token"/);
}

/** A raw request, so paths reach the server exactly as written (fetch would normalise them). */
function rawGet(server: TestServer, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

async function insertAccount(server: TestServer, fields: Partial<User> = {}): Promise<User> {
  const em = server.context.db.em.fork();
  const user = em.create(User, { id: randomUUID(), displayName: 'Other', roles: ['player'], ...fields });
  await em.flush();
  return user;
}

async function insertCharacter(server: TestServer, accountId: string): Promise<Character> {
  const em = server.context.db.em.fork();
  const character = em.create(Character, { id: randomUUID(), accountId, name: uniqueName('c') });
  await em.flush();
  return character;
}

/** Spec endpoints (built now or later): all of them need a token. */
const PROTECTED_ENDPOINTS: Array<[string, string]> = [
  ['GET', '/api/v1/player'], ['POST', '/api/v1/player'], ['GET', '/api/v1/world'], ['GET', '/api/v1/world/areas'],
  ['GET', '/api/agents/agent-1/goal'], ['POST', '/api/agents/agent-1/goal'], ['POST', '/api/agents/agent-1/goal/stop'],
  ['POST', '/api/agents/agent-1/goal/resume'], ['POST', '/api/agents/agent-1/message'], ['GET', '/api/agents/agent-1/quick-actions'],
  ['GET', '/api/agents/mapping/agent-1'], ['GET', '/api/characters/char-1/skills'], ['GET', '/api/characters/char-1/position'],
  ['GET', '/api/character/list'], ['POST', '/api/character/create'], ['GET', '/api/player/char-1'], ['GET', '/api/template/list'],
  ['POST', '/api/agent/anything'], ['DELETE', '/api/characters/char-1'], ['GET', '/api/no-such-family'], ['GET', '/api'],
];

describe('authentication in anonymous mode over HTTP @db', () => {
  let server: TestServer;
  let anon: { token: string; accountId: string; expiresAt: string; accountExpiresAt: string };

  before(async () => {
    server = await startTestServer({ ...SECRETS, VOICE_URL: 'wss://voice.example.test', PUBLIC_IDP_APP_ID: 'public-app-id-anon' });
    const created = await post(`${server.baseUrl}/api/auth/anonymous`);
    assert.equal(created.status, 201);
    anon = created.body;
  });
  after(() => server?.close());

  it('POST /api/auth/anonymous creates a temporary player identity, never an admin', async () => {
    assert.equal(typeof anon.token, 'string');
    assert.equal(new Date(anon.expiresAt).toISOString(), anon.expiresAt);
    const claims = claimsOf(anon.token);
    assert.equal(claims.sub, anon.accountId);
    assert.deepEqual(claims.roles, ['player']);
    assert.equal(claims.scope, 'player');
    assert.equal(claims.iss, 'rs-game-server');
    assert.equal(claims.aud, 'rs-game');
    assert.ok(claims.exp - claims.iat <= 3600 && claims.exp - claims.iat > 3500);
    assert.ok(claims.exp * 1000 <= new Date(anon.accountExpiresAt).getTime());
    const user = await server.context.db.em.fork().findOneOrFail(User, anon.accountId);
    assert.equal(user.isTemporary, true);
    assert.ok(user.expiresAt instanceof Date && user.expiresAt.getTime() > Date.now() + 23 * 3600_000);
    assert.deepEqual(user.roles, ['player']);
    assert.equal(user.idpSubject, null);
  });

  it('GET /api/auth/me answers the caller\'s account', async () => {
    const me = await call(`${server.baseUrl}/api/auth/me`, { headers: bearer(anon.token) });
    assert.equal(me.status, 200);
    assert.equal(me.body.accountId, anon.accountId);
    assert.deepEqual(me.body.roles, ['player']);
    assert.equal(me.body.temporary, true);
    assert.equal(me.body.scope, 'player');
    assert.deepEqual(me.body.characters, []);
    assert.equal(me.headers.get('cache-control'), 'no-store');
  });

  describe('refused tokens → 401 with a Bearer challenge', () => {
    const valid = () => ({ sub: anon.accountId, roles: ['player'], scope: 'player', iss: 'rs-game-server', aud: 'rs-game', iat: now(), exp: now() + 600 });
    const cases: Array<[string, () => Record<string, string>, string]> = [
      ['no Authorization header', () => ({}), 'AUTH_REQUIRED'],
      ['a Basic credential', () => ({ Authorization: 'Basic dXNlcjpwYXNz' }), 'TOKEN_INVALID'],
      ['"Bearer" without a token', () => ({ Authorization: 'Bearer' }), 'TOKEN_INVALID'],
      ['garbage', () => bearer('garbage'), 'TOKEN_INVALID'],
      ['alg none', () => bearer(unsignedToken(valid())), 'TOKEN_INVALID'],
      ['another secret', () => bearer(hmacToken(valid(), 'some-other-secret')), 'TOKEN_INVALID'],
      ['HS512 with the right secret', () => bearer(hmacToken(valid(), SECRETS.JWT_SECRET, 'HS512')), 'TOKEN_INVALID'],
      ['HS256 keyed with a public key text', () => bearer(hmacToken(valid(), idpKeys().publicPem)), 'TOKEN_INVALID'],
      ['an expired token', () => bearer(hmacToken({ ...valid(), iat: now() - 7200, exp: now() - 3600 }, SECRETS.JWT_SECRET)), 'TOKEN_EXPIRED'],
      ['a wrong audience', () => bearer(hmacToken({ ...valid(), aud: 'someone-else' }, SECRETS.JWT_SECRET)), 'TOKEN_INVALID'],
      ['a wrong issuer', () => bearer(hmacToken({ ...valid(), iss: 'someone-else' }, SECRETS.JWT_SECRET)), 'TOKEN_INVALID'],
      ['no expiry', () => { const { exp: _e, ...rest } = valid(); return bearer(hmacToken(rest, SECRETS.JWT_SECRET)); }, 'TOKEN_INVALID'],
    ];
    it('the well-formed hand-made token the cases below alter is accepted', async () => {
      assert.equal((await call(`${server.baseUrl}/api/auth/me`, { headers: bearer(hmacToken(valid(), SECRETS.JWT_SECRET)) })).status, 200);
    });
    for (const [name, headers, code] of cases) {
      it(`${name} → ${code}`, async () => {
        assertUnauthorized(await call(`${server.baseUrl}/api/auth/me`, { headers: headers() }), code);
        assertUnauthorized(await call(`${server.baseUrl}/api/v1/player`, { headers: headers() }), code);
      });
    }
  });

  it('every /api route outside the public families needs a token: 401 without, and an unknown one 404 with', async () => {
    for (const [method, path] of PROTECTED_ENDPOINTS) {
      assertUnauthorized(await call(`${server.baseUrl}${path}`, { method }), 'AUTH_REQUIRED');
    }
    assertProblem(await call(`${server.baseUrl}/api/no-such-family`, { headers: bearer(anon.token) }), 404, 'NOT_FOUND');
    assertProblem(await call(`${server.baseUrl}/api/v1/no-such-route`, { headers: bearer(anon.token) }), 404, 'NOT_FOUND');
  });

  it('case, slashes and encodings cannot dodge the gate', async () => {
    for (const path of ['/API/v1/player', '/api//v1/player', '//api/v1/player', '/api/%61uth/me', '/%61pi/v1/player',
      '/api/auth/../v1/player', '/api/auth/%2e%2e/v1/player', '/api/data/skill-unlocks/../../v1/player', '/Api/Auth']) {
      assert.equal(await rawGet(server, path), 401, path);
    }
  });

  it('the public endpoints need no token', async () => {
    for (const path of ['/health', '/status', '/env.js', '/api/data/skill-unlocks', '/api/data/skill-unlocks/', '/manifests/npcs.json']) {
      assert.equal((await call(`${server.baseUrl}${path}`)).status, 200, path);
    }
  });

  it('an anonymous token lacks the admin role (403 on an admin route), a token with it passes', async () => {
    const app = express();
    app.use(authGate(server.context.auth));
    app.get('/admin-only', requireRole('admin'), (_req, res) => void res.json({ ok: true }));
    app.use(errorHandler(server.context.logger));
    const adminApp: Server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    try {
      const url = `http://127.0.0.1:${(adminApp.address() as AddressInfo).port}/admin-only`;
      const refused = await call(url, { headers: bearer(anon.token) });
      assertProblem(refused, 403, 'INSUFFICIENT_ROLE');
      assert.match(refused.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);
      assertUnauthorized(await call(url), 'AUTH_REQUIRED');
      const operator = await insertAccount(server, { roles: ['player', 'admin'] });
      const admin = server.context.auth.tokens.sign({ accountId: operator.id, roles: ['player', 'admin'], scope: 'player' });
      assert.equal((await call(url, { headers: bearer(admin.token) })).status, 200);
      // The role taken away from the account: its token stops working before it expires.
      await server.context.db.em.fork().nativeUpdate(User, { id: operator.id }, { roles: ['player'] });
      await server.context.auth.sessions.accountChanged(operator.id);
      assertProblem(await call(url, { headers: bearer(admin.token) }), 403, 'INSUFFICIENT_ROLE');
    } finally {
      await new Promise((resolve) => adminApp.close(resolve));
    }
  });

  it('POST /api/auth/exchange is refused in anonymous mode with IDP_NOT_CONFIGURED', async () => {
    assertProblem(await post(`${server.baseUrl}/api/auth/exchange`, { idpToken: 'x.y.z' }), 403, 'IDP_NOT_CONFIGURED');
  });

  it('POST /api/auth/refresh issues a new token for the same account; it needs a valid one', async () => {
    const refreshed = await post(`${server.baseUrl}/api/auth/refresh`, undefined, bearer(anon.token));
    assert.equal(refreshed.status, 200);
    assert.equal(refreshed.body.accountId, anon.accountId);
    assert.equal(claimsOf(refreshed.body.token).sub, anon.accountId);
    assert.notEqual(claimsOf(refreshed.body.token).jti, claimsOf(anon.token).jti);
    assertUnauthorized(await post(`${server.baseUrl}/api/auth/refresh`), 'AUTH_REQUIRED');
  });

  it('character tokens: only for a character you own (404 missing, 403 another account\'s or another bound one)', async () => {
    const mine = await insertCharacter(server, anon.accountId);
    const mine2 = await insertCharacter(server, anon.accountId);
    const other = await insertAccount(server);
    const theirs = await insertCharacter(server, other.id);
    const url = `${server.baseUrl}/api/auth/character-token`;

    const granted = await post(url, { characterId: mine.id }, bearer(anon.token));
    assert.equal(granted.status, 200);
    assert.equal(granted.body.characterId, mine.id);
    assert.equal(claimsOf(granted.body.token).characterId, mine.id);
    assert.equal(claimsOf(granted.body.token).sub, anon.accountId);

    const stolen = await post(url, { characterId: theirs.id }, bearer(anon.token));
    assertProblem(stolen, 403, 'CHARACTER_NOT_OWNED');
    assert.ok(!JSON.stringify(stolen.body).includes(other.id), 'the owner is not revealed');
    assertProblem(await post(url, { characterId: randomUUID() }, bearer(anon.token)), 404, 'CHARACTER_NOT_FOUND');
    assertProblem(await post(url, { characterId: mine2.id }, bearer(granted.body.token)), 403, 'CHARACTER_NOT_OWNED');
    assertProblem(await post(url, { character: mine.id }, bearer(anon.token)), 400, 'VALIDATION_FAILED');
    assertUnauthorized(await post(url, { characterId: mine.id }), 'AUTH_REQUIRED');

    const agentToken = server.context.auth.tokens.sign({ accountId: anon.accountId, roles: ['player'], scope: 'agent', characterId: mine.id });
    assertProblem(await post(url, { characterId: mine.id }, bearer(agentToken.token)), 403, 'INSUFFICIENT_SCOPE');

    const me = await call(`${server.baseUrl}/api/auth/me`, { headers: bearer(anon.token) });
    assert.deepEqual(new Set(me.body.characters.map((c: { id: string }) => c.id)), new Set([mine.id, mine2.id]));
  });

  it('expired temporary identities are deleted with their characters, and their tokens stop working', async () => {
    const created = (await post(`${server.baseUrl}/api/auth/anonymous`)).body;
    const character = await insertCharacter(server, created.accountId);
    const keptTemporary = (await post(`${server.baseUrl}/api/auth/anonymous`)).body;
    const permanent = await insertAccount(server, { isTemporary: false, expiresAt: new Date(Date.now() - 1000) });
    const conn = server.context.db.em.getConnection();
    await conn.execute('update users set expires_at = ? where id = ?', [new Date(Date.now() - 1000), created.accountId]);

    const deleted = await server.context.auth.cleanupExpiredTemporaryUsers();
    assert.ok(deleted >= 1);
    const em = server.context.db.em.fork();
    assert.equal(await em.count(User, { id: created.accountId }), 0);
    assert.equal(await em.count(Character, { id: character.id }), 0, 'the character went with its account');
    assert.equal(await em.count(User, { id: keptTemporary.accountId }), 1, 'an unexpired temporary identity stays');
    assert.equal(await em.count(User, { id: permanent.id }), 1, 'a permanent account is never cleaned up');
    assertUnauthorized(await call(`${server.baseUrl}/api/auth/me`, { headers: bearer(created.token) }), 'ACCOUNT_NOT_FOUND');
    await assert.rejects(server.context.auth.verifyAccessToken(created.token), { code: 'ACCOUNT_NOT_FOUND' });
  });

  it('the WebSocket-side functions: verifyAccessToken and authenticateSocket (anonymous without a token)', async () => {
    const identity = await verifyAccessToken(anon.token);
    assert.equal(identity.accountId, anon.accountId);
    assert.equal(identity.scope, 'player');
    await assert.rejects(verifyAccessToken(unsignedToken(claimsOf(anon.token))), { code: 'TOKEN_INVALID', status: 401 });
    await assert.rejects(verifyAccessToken(undefined), { code: 'AUTH_REQUIRED' });
    const fresh = await authenticateSocket({ address: '127.0.0.1' });
    assert.ok(fresh.session, 'a temporary identity was made');
    assert.equal(fresh.session.temporary, true);
    assert.equal(fresh.identity.accountId, fresh.session.accountId);
    assert.deepEqual(fresh.identity.roles, ['player']);
    const again = await authenticateSocket({ token: fresh.session.token, address: '127.0.0.1' });
    assert.equal(again.identity.accountId, fresh.session.accountId);
    assert.equal(again.session, undefined);
  });

  it('API responses carry hardening headers that leave JSON and /env.js usable', async () => {
    for (const path of ['/api/data/skill-unlocks', '/api/auth/me', '/health', '/env.js', '/api/nope']) {
      const response = await call(`${server.baseUrl}${path}`);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer', path);
      assert.equal(response.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(response.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'", path);
      assert.equal(response.headers.get('strict-transport-security'), null, 'HSTS only in production');
    }
    const env = await call(`${server.baseUrl}/env.js`);
    assert.match(env.headers.get('content-type') ?? '', /^application\/javascript/);
  });

  it('no configured secret appears in any response of this suite', () => {
    assert.ok(seen.length > 50);
    const all = seen.join('\n');
    for (const [name, value] of Object.entries(SECRETS)) assert.ok(!all.includes(value), `${name} leaked`);
  });
});

describe('temporary identity cleanup job @db', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ TEMP_USER_CLEANUP_SECONDS: '1' });
  });
  after(() => server?.close());

  it('runs periodically without anyone calling it', async () => {
    const created = (await post(`${server.baseUrl}/api/auth/anonymous`)).body;
    const character = await insertCharacter(server, created.accountId);
    await server.context.db.em.getConnection().execute('update users set expires_at = ? where id = ?', [new Date(Date.now() - 1000), created.accountId]);
    const deadline = Date.now() + 10_000;
    while (await server.context.db.em.fork().count(User, { id: created.accountId }) > 0) {
      assert.ok(Date.now() < deadline, 'the job did not delete the expired identity');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(await server.context.db.em.fork().count(Character, { id: character.id }), 0);
  });
});

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { connectTestRedis, dropKeysAndDisconnect, noRedisSkipNote, TEST_REDIS_URL } from '../helpers/redis.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const REDIS_URL = TEST_REDIS_URL;

async function get(server: TestServer, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, { headers });
  const body = await response.text();
  return { status: response.status, headers: response.headers, body };
}

async function anonymous(server: TestServer, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}/api/auth/anonymous`, { method: 'POST', headers });
  return { status: response.status, headers: response.headers, body: await response.json() as any };
}

describe('REST rate limit: 100 requests per minute per address @db', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ RATE_LIMIT_REST_PER_MINUTE: '100', RATE_LIMIT_AUTH_PER_MINUTE: '10', RATE_LIMIT_BLOCK_SECONDS: '60' });
  });
  after(() => server?.close());

  it('the 101st request within a minute is a 429 problem with Retry-After; health probes still answer', async () => {
    for (let i = 1; i <= 100; i++) {
      const ok = await get(server, '/api/data/skill-unlocks');
      assert.equal(ok.status, 200, `request ${i}`);
      assert.equal(ok.headers.get('ratelimit-limit'), '100');
      assert.equal(ok.headers.get('ratelimit-remaining'), String(100 - i));
      assert.ok(Number(ok.headers.get('ratelimit-reset')) > 0);
      if (i % 25 === 0) assert.equal((await get(server, '/health')).status, 200, 'probes are not counted');
    }
    const refused = await get(server, '/api/data/skill-unlocks');
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(JSON.parse(refused.body).code, 'RATE_LIMITED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 50 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');

    for (const path of ['/env.js', '/manifests/npcs.json', '/api/anything']) assert.equal((await get(server, path)).status, 429, `${path} blocked too`);
    assert.equal((await get(server, '/health')).status, 200);
    assert.equal((await get(server, '/status')).status, 200);
  });

  it('X-Forwarded-For is not believed without TRUST_PROXY', async () => {
    assert.equal((await get(server, '/api/data/skill-unlocks', { 'X-Forwarded-For': `198.51.100.${Math.floor(Math.random() * 200)}` })).status, 429);
  });
});

describe('authentication limit: 10 attempts per minute per address @db', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ RATE_LIMIT_AUTH_PER_MINUTE: '10' });
  });
  after(() => server?.close());

  it('the 11th attempt is a 429 AUTH_RATE_LIMITED with Retry-After, whatever the endpoint', async () => {
    for (let i = 0; i < 6; i++) assert.equal((await anonymous(server)).status, 201, `anonymous ${i + 1}`);
    const token = (await anonymous(server)).body.token; // 7
    assert.equal((await fetch(`${server.baseUrl}/api/auth/exchange`, { method: 'POST' })).status, 403); // 8 (anonymous mode)
    assert.equal((await fetch(`${server.baseUrl}/api/auth/refresh`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })).status, 200); // 9
    assert.equal((await server.context.auth.adminGate.check('wrong', { accountId: 'acc', address: '127.0.0.1' })).granted, false); // 10
    const eleventh = await anonymous(server);
    assert.equal(eleventh.status, 429);
    assert.equal(eleventh.body.code, 'AUTH_RATE_LIMITED');
    assert.ok(Number(eleventh.headers.get('retry-after')) > 0);
    const ws = await server.context.auth.authenticateSocket({ token, address: '127.0.0.1' }).then(() => 'ok', (e) => e.code);
    assert.equal(ws, 'AUTH_RATE_LIMITED', 'the WebSocket authenticate path shares the limit');
    assert.equal((await get(server, '/health')).status, 200);
    assert.equal((await get(server, '/api/data/skill-unlocks')).status, 200, 'other API calls are unaffected');
  });
});

describe('TRUST_PROXY: proxy headers believed only when configured @db', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ TRUST_PROXY: '1', RATE_LIMIT_AUTH_PER_MINUTE: '2' });
  });
  after(() => server?.close());

  it('limits per forwarded client address behind one proxy hop', async () => {
    const a = { 'X-Forwarded-For': '203.0.113.7' };
    const b = { 'X-Forwarded-For': '203.0.113.8' };
    assert.equal((await anonymous(server, a)).status, 201);
    assert.equal((await anonymous(server, a)).status, 201);
    assert.equal((await anonymous(server, a)).status, 429);
    assert.equal((await anonymous(server, b)).status, 201, 'another client behind the proxy');
    // A client cannot prepend addresses of its own: with one trusted hop only the rightmost entry counts.
    assert.equal((await anonymous(server, { 'X-Forwarded-For': '10.1.1.1, 203.0.113.7' })).status, 429);
  });
});

describe('DISABLE_RATE_LIMIT (development and test only) @db', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ DISABLE_RATE_LIMIT: 'true', RATE_LIMIT_REST_PER_MINUTE: '2', RATE_LIMIT_AUTH_PER_MINUTE: '1' });
  });
  after(() => server?.close());

  it('turns every limit off', async () => {
    for (let i = 0; i < 5; i++) {
      assert.equal((await get(server, '/api/data/skill-unlocks')).status, 200);
      assert.equal((await anonymous(server)).status, 201);
    }
    assert.equal(server.context.auth.createMessageLimiter().hit(0), 'allow');
  });
});

describe('rate limit counters in Redis (REDIS_URL) @db', function () {
  let redis: Redis | undefined;
  const servers: TestServer[] = [];
  const prefix = `rl-test-${randomUUID().slice(0, 8)}`;

  before(async function () {
    redis = await connectTestRedis();
    if (!redis) {
      noRedisSkipNote('these');
      this.skip();
    }
    for (let i = 0; i < 2; i++) {
      servers.push(await startTestServer({ REDIS_URL, RATE_LIMIT_KEY_PREFIX: prefix, CLUSTER_KEY_PREFIX: `${prefix}:cluster:`, RATE_LIMIT_REST_PER_MINUTE: '5', RATE_LIMIT_BLOCK_SECONDS: '30' }));
    }
  });
  after(async () => {
    for (const server of servers) await server.close();
    if (redis) await dropKeysAndDisconnect(redis, `${prefix}:*`);
  });

  it('two servers share one counter: the 6th request, on the other server, is refused', async () => {
    const [first, second] = servers;
    for (let i = 0; i < 3; i++) assert.equal((await get(first, '/api/data/skill-unlocks')).status, 200);
    for (let i = 0; i < 2; i++) assert.equal((await get(second, '/api/data/skill-unlocks')).status, 200);
    const sixth = await get(second, '/api/data/skill-unlocks');
    assert.equal(sixth.status, 429);
    assert.ok(Number(sixth.headers.get('retry-after')) > 20);
    assert.equal((await get(first, '/api/data/skill-unlocks')).status, 429, 'blocked on both');
    const keys = await redis!.keys(`${prefix}:rest:*`);
    assert.ok(keys.length >= 1, 'the counter lives in Redis');
  });
});

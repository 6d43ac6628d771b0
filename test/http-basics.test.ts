import assert from 'node:assert/strict';
import { json } from './helpers/http.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

const SECRETS = {
  JWT_SECRET: 'jwt-secret-value-4c1d',
  ADMIN_CODE: 'admin-code-value-9f2e',
  IDP_APP_SECRET: 'idp-app-secret-value-77aa',
  VOICE_API_KEY: 'voice-key-value-1b3c',
  VOICE_API_SECRET: 'voice-secret-value-5d6e',
};

async function expectProblem(response: Response, status: number, code: string): Promise<void> {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = await json(response);
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.type, 'string');
  assert.equal(typeof body.detail, 'string');
}

describe('HTTP basics @db', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ ...SECRETS, VOICE_URL: 'wss://voice.example.test', PUBLIC_IDP_APP_ID: 'public-app-id-3', COMMIT_HASH: 'c0ffee' });
  });
  after(() => server?.close());

  it('GET /health answers status, an ISO 8601 timestamp and the package version', async () => {
    const response = await fetch(`${server.baseUrl}/health`);
    assert.equal(response.status, 200);
    const body = await json(response);
    assert.equal(body.status, 'ok');
    assert.equal(new Date(body.timestamp).toISOString(), body.timestamp);
    assert.equal(body.version, (await import('../package.json', { with: { type: 'json' } })).default.version);
  });

  it('GET /status reports uptime, players online, rooms and the commit hash', async () => {
    const response = await fetch(`${server.baseUrl}/status`);
    assert.equal(response.status, 200);
    const body = await json(response);
    assert.equal(body.status, 'ok');
    assert.equal(typeof body.uptime, 'number');
    assert.equal(body.playersOnline, 0);
    assert.equal(body.rooms, 1, 'the world room is running');
    assert.equal(body.commitHash, 'c0ffee');
  });

  it('GET /env.js is JavaScript exposing the public configuration and no secret', async () => {
    const response = await fetch(`${server.baseUrl}/env.js`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/javascript/);
    const script = await response.text();
    assert.ok(script.includes('public-app-id-3'));
    assert.ok(script.includes('ws://localhost:5555/ws'));
    for (const [name, value] of Object.entries(SECRETS)) assert.ok(!script.includes(value), `${name} leaked`);
    const globals: Record<string, any> = {};
    new Function('window', script)(globals);
    assert.equal(globals.__GAME_ENV__.PUBLIC_IDP_APP_ID, 'public-app-id-3');
  });

  it('no secret appears in any response of the basic routes', async () => {
    for (const route of ['/health', '/status', '/env.js', '/nope']) {
      const response = await fetch(`${server.baseUrl}${route}`);
      const text = [...response.headers.values()].join('\n') + (await response.text());
      for (const [name, value] of Object.entries(SECRETS)) assert.ok(!text.includes(value), `${name} in ${route}`);
    }
  });

  it('an unknown route is a 404 problem', async () => {
    await expectProblem(await fetch(`${server.baseUrl}/no/such/route`), 404, 'NOT_FOUND');
  });

  it('malformed JSON is a 400 problem', async () => {
    const response = await fetch(`${server.baseUrl}/health`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"broken": ',
    });
    await expectProblem(response, 400, 'MALFORMED_JSON');
  });

  it('a body over 100 KB is a 413 problem', async () => {
    const response = await fetch(`${server.baseUrl}/health`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(101 * 1024) }),
    });
    await expectProblem(response, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('the matchmaker does not reflect an arbitrary origin', async () => {
    const preflight = await fetch(`${server.baseUrl}/matchmake/joinOrCreate/world`, {
      method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    assert.equal(preflight.headers.get('access-control-allow-credentials'), null);
    const plain = await fetch(`${server.baseUrl}/health`, { headers: { Origin: 'https://evil.example' } });
    assert.equal(plain.headers.get('access-control-allow-origin'), null);
  });

  it('an allowed origin is answered with the spec CORS headers', async () => {
    const response = await fetch(`${server.baseUrl}/health`, { headers: { Origin: 'http://localhost:3000' } });
    assert.equal(response.headers.get('access-control-allow-origin'), 'http://localhost:3000');
    assert.equal(response.headers.get('access-control-allow-credentials'), 'true');
    assert.equal(response.headers.get('access-control-allow-methods'), 'GET, PUT, POST, DELETE, OPTIONS, PATCH');
    assert.equal(response.headers.get('access-control-allow-headers'), 'Content-Type, Authorization, X-Requested-With');
  });

  it('clients cannot create rooms through the matchmaker', async () => {
    const response = await fetch(`${server.baseUrl}/matchmake/create/world`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}',
    });
    assert.ok(response.status >= 400 && response.status < 500, `status ${response.status}`);
    const status = await json(await fetch(`${server.baseUrl}/status`));
    assert.equal(status.rooms, 1);
  });
});

import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config.ts';
import { createOriginPolicy } from '../../src/http/cors.ts';
import { startTestServer, testEnv, type TestServer } from '../helpers/server.ts';

const ENV_ORIGINS = {
  CLIENT_URL: 'https://client.example.org',
  PUBLIC_APP_URL: 'https://app.example.org:8443',
  AGENT_URL: 'http://agents.internal:4001',
  AGENT_API_URL: 'http://127.0.0.2:4001',
};

/** With the documented defaults (docs/auth.md) plus the four environment origins. */
const ALLOWED = [
  'https://game.example', 'https://www.game.example', // production frontend and its www variant
  'https://game.pages.example', 'http://game.pages.example', // static host and its http fallback
  'https://game-server.hosting.example', // the server's own production origin
  'http://localhost:3000', 'https://localhost:8443', 'http://localhost', 'http://127.0.0.1:5173', 'https://127.0.0.1',
  'http://[::1]:3000',
  'https://pr-12.game.pages.example', 'http://pr-12.game.pages.example', 'https://a.b.game.pages.example', // frontend previews
  'https://pr-5.hosting.example', // server previews (https only)
  'https://abc.social-one.example', 'https://x.y.social-two.example', // social frames (https)
  'https://login.idp.example', // identity provider subdomains (https)
  'https://client.example.org', 'https://app.example.org:8443', 'http://agents.internal:4001', 'http://127.0.0.2:4001',
];

const REFUSED = [
  'http://localhost.evil.com', 'http://evil-localhost:3000', 'http://localhost:3000.evil.com', 'http://127.0.0.1.evil.com',
  'https://x.game.pages.example.evil.com', 'https://game.pages.example.evil.com', 'https://evilgame.pages.example',
  'null', '', 'http://pr-5.hosting.example', 'https://pr-5.hosting.example:8443', 'https://hosting.example.evil.com',
  'https://evil.example', 'https://game.example.evil.com', 'https://evilgame.example', 'http://game.example',
  'https://www.www.game.example', 'https://social-one.example', 'http://abc.social-one.example', 'https://idp.example',
  'http://login.idp.example', 'https://-x.game.pages.example', 'https://game.pages.example:8443', 'https://GAME.example',
  'https://game.example/', 'https://user@game.example', 'file://', 'chrome-extension://abcdef', '*',
  'https://client.example.org.evil.com', 'http://client.example.org', 'https://app.example.org', 'ws://localhost:3000',
];

describe('cross-origin policy', () => {
  const policy = createOriginPolicy(loadConfig(testEnv(ENV_ORIGINS)).config);

  for (const origin of ALLOWED) it(`allows ${origin}`, () => assert.equal(policy(origin), true));
  for (const origin of REFUSED) it(`refuses ${JSON.stringify(origin)}`, () => assert.equal(policy(origin), false));

  it('takes host names from configuration', () => {
    const custom = createOriginPolicy(loadConfig(testEnv({
      CORS_FRONTEND_ORIGINS: 'https://play.mygame.io,https://mygame.io', CORS_STATIC_HOST: 'mygame.pages.dev',
      CORS_SERVER_ORIGIN: 'https://api.mygame.io', CORS_SERVER_PREVIEW_HOST: 'up.railway.app',
      CORS_SOCIAL_HOSTS: 'frames.one.com,frames.two.com', CORS_IDP_HOST: 'auth.idp.io',
    })).config);
    for (const origin of ['https://play.mygame.io', 'https://www.play.mygame.io', 'https://www.mygame.io', 'https://mygame.pages.dev',
      'http://mygame.pages.dev', 'https://f00.mygame.pages.dev', 'https://api.mygame.io', 'https://pr-1.up.railway.app',
      'https://a.frames.one.com', 'https://a.frames.two.com', 'https://x.auth.idp.io']) {
      assert.equal(custom(origin), true, origin);
    }
    for (const origin of ['https://game.example', 'https://pr-12.game.pages.example', 'https://login.idp.example', 'http://pr-1.up.railway.app']) {
      assert.equal(custom(origin), false, origin);
    }
  });
});

describe('cross-origin headers and WebSocket upgrades over real connections @db', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(ENV_ORIGINS);
  });
  after(() => server?.close());

  const SPEC_HEADERS = {
    'access-control-allow-credentials': 'true',
    'access-control-allow-methods': 'GET, PUT, POST, DELETE, OPTIONS, PATCH',
    'access-control-allow-headers': 'Content-Type, Authorization, X-Requested-With',
  };

  it('every allowed origin gets exactly the spec headers on a response and on a preflight', async () => {
    for (const origin of ALLOWED) {
      const response = await fetch(`${server.baseUrl}/health`, { headers: { Origin: origin } });
      assert.equal(response.headers.get('access-control-allow-origin'), origin, origin);
      for (const [name, value] of Object.entries(SPEC_HEADERS)) assert.equal(response.headers.get(name), value, `${name} for ${origin}`);
      const preflight = await fetch(`${server.baseUrl}/api/auth/anonymous`, {
        method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
      });
      assert.equal(preflight.headers.get('access-control-allow-origin'), origin);
      assert.equal(preflight.headers.get('access-control-allow-headers'), SPEC_HEADERS['access-control-allow-headers']);
    }
  });

  it('the matchmaker (Colyseus\' own routes) follows the same policy as the Express routes', async () => {
    const preflight = (origin: string) => fetch(`${server.baseUrl}/matchmake/joinOrCreate/world`, {
      method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
    });
    const allowed = await preflight('https://pr-12.game.pages.example');
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://pr-12.game.pages.example');
    for (const [name, value] of Object.entries(SPEC_HEADERS)) assert.equal(allowed.headers.get(name), value, name);
    const refused = await preflight('https://evil.example');
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
    assert.equal(refused.headers.get('access-control-allow-credentials'), null);
    const post = await fetch(`${server.baseUrl}/matchmake/joinOrCreate/world`, {
      method: 'POST', headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' }, body: '{}',
    });
    assert.equal(post.headers.get('access-control-allow-origin'), null);
    assert.ok(post.status >= 400 && post.status < 500, `a matchmaking request without a token is a client fault (${post.status})`);
  });

  it('a refused origin gets no CORS header at all, never a wildcard', async () => {
    for (const origin of REFUSED.filter((o) => o !== '')) {
      for (const init of [{}, { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'POST' } }]) {
        const response = await fetch(`${server.baseUrl}/api/auth/anonymous`, { ...init, headers: { ...(init.headers ?? {}), Origin: origin } });
        for (const name of ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods']) {
          assert.equal(response.headers.get(name), null, `${name} for ${origin}`);
        }
      }
    }
  });

  function upgrade(path: string, headers: Record<string, string>): Promise<{ opened: true } | { status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${server.wsUrl}${path}`, { headers });
      socket.once('open', () => {
        socket.close();
        resolve({ opened: true });
      });
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      socket.once('error', (error) => reject(error));
    });
  }

  for (const path of ['/', '/ws', '/some-process/some-room?sessionId=x']) {
    it(`a WebSocket upgrade to ${path} from a refused origin is answered 403 before the handshake`, async () => {
      for (const origin of ['https://evil.example', 'http://localhost.evil.com', 'null', 'http://pr-5.hosting.example']) {
        const result = await upgrade(path, { Origin: origin });
        assert.ok('status' in result, `upgraded for ${origin}`);
        assert.equal(result.status, 403);
      }
    });
  }

  it('a WebSocket upgrade without an Origin, or from an allowed one, is not refused for its origin', async () => {
    assert.deepEqual(await upgrade('/', {}), { opened: true });
    assert.deepEqual(await upgrade('/', { Origin: 'http://localhost:3000' }), { opened: true });
    assert.deepEqual(await upgrade('/', { Origin: 'https://pr-12.game.pages.example' }), { opened: true });
  });
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { worldOf } from '../../rooms/world/running-world.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { startServer, type GameServer } from '../../src/server.ts';
import { json } from '../helpers/http.ts';
import { accountWithRoles } from '../helpers/players.ts';
import { revokeAdmin } from '../../src/db/account-roles.ts';
import { spawnServer, waitForHealth, type ServerProcess } from '../helpers/process.ts';
import { pgliteTemplate, startTestServer, testEnv, type TestServer } from '../helpers/server.ts';

const COMMIT_HASH = '3f2a1b9c0d4e';

function basic(token: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`operator:${token}`).toString('base64')}` };
}

function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

async function tokenWithRoles(server: GameServer, roles: string[]): Promise<string> {
  return (await accountWithRoles(server, roles)).token;
}

async function expectProblem(response: Response, status: number, code: string): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, status, text);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(JSON.parse(text).code, code);
}

/** A server with NODE_ENV=production on the test database (the manifests come from the local cache). */
async function startProductionServer(): Promise<GameServer & { baseUrl: string }> {
  const { config } = loadConfig(testEnv({
    NODE_ENV: 'production',
    DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://unused@127.0.0.1:1/replaced-below',
    JWT_SECRET: 'jwt-secret-operator-tools-5e4d3c2b1a',
    ADMIN_CODE: 'admin-code-operator-tools',
    PUBLIC_IDP_APP_ID: 'app-operator-tools',
    IDP_APP_SECRET: 'idp-secret-operator-tools',
    PUBLIC_CDN_URL: 'https://assets.invalid', // unreachable: the manifests come from the local cache
    PUBLIC_API_URL: 'https://game-server.example',
    PUBLIC_WS_URL: 'wss://game-server.example/ws',
  }));
  assert.equal(config.isProduction, true);
  const databaseUrl = process.env.DATABASE_URL;
  const server = await startServer({
    config: { ...config, databaseUrl },
    logger: createLogger(config),
    pgliteTemplate: databaseUrl ? undefined : await pgliteTemplate(),
  });
  return { ...server, baseUrl: `http://127.0.0.1:${server.port}` };
}

describe('operator tools in test mode @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ COMMIT_HASH });
  });
  after(() => server?.close());

  it('shows COMMIT_HASH in /status', async () => {
    const body = await json(await fetch(`${server.baseUrl}/status`));
    assert.equal(body.commitHash, COMMIT_HASH);
  });

  it('has no playground (404)', async () => {
    for (const path of ['/playground', '/playground/', '/playground/rooms']) {
      await expectProblem(await fetch(`${server.baseUrl}${path}`), 404, 'NOT_FOUND');
    }
  });

  it('refuses the monitor without a token (401, a Basic challenge) and with a bad one', async () => {
    for (const path of ['/colyseus', '/colyseus/', '/colyseus/api', '/COLYSEUS/api']) {
      const response = await fetch(`${server.baseUrl}${path}`);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Basic realm=/, path);
      await expectProblem(response, 401, 'AUTH_REQUIRED');
    }
    await expectProblem(await fetch(`${server.baseUrl}/colyseus/api`, { headers: bearer('not-a-token') }), 401, 'TOKEN_INVALID');
    await expectProblem(await fetch(`${server.baseUrl}/colyseus/api`, { headers: basic('not-a-token') }), 401, 'TOKEN_INVALID');
    await expectProblem(await fetch(`${server.baseUrl}/colyseus/api`, { headers: { Authorization: 'Basic Og==' } }), 401, 'AUTH_REQUIRED');
  });

  it('refuses the monitor to a player without the admin role (403)', async () => {
    const player = await tokenWithRoles(server, ['player']);
    await expectProblem(await fetch(`${server.baseUrl}/colyseus/api`, { headers: bearer(player) }), 403, 'INSUFFICIENT_ROLE');
    await expectProblem(await fetch(`${server.baseUrl}/colyseus/`, { headers: basic(player) }), 403, 'INSUFFICIENT_ROLE');
  });

  it('refuses the monitor to an admin token once the account lost the admin role, before the token expires', async () => {
    const admin = await accountWithRoles(server, ['player', 'admin']);
    assert.equal((await fetch(`${server.baseUrl}/colyseus/api`, { headers: bearer(admin.token) })).status, 200);
    await revokeAdmin(server.context.db.em.fork(), admin.accountId);
    await server.context.auth.sessions.accountChanged(admin.accountId);
    await expectProblem(await fetch(`${server.baseUrl}/colyseus/api`, { headers: bearer(admin.token) }), 403, 'INSUFFICIENT_ROLE');
  });

  it('serves the monitor to an admin, by Bearer or by Basic credentials', async () => {
    const admin = await tokenWithRoles(server, ['player', 'admin']);
    const page = await fetch(`${server.baseUrl}/colyseus/`, { headers: basic(admin) });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const script = /<script[^>]+src="\.\/([^"]+)"/.exec(await page.text())?.[1];
    assert.ok(script, 'the page loads a script');
    const asset = await fetch(`${server.baseUrl}/colyseus/${script}`, { headers: basic(admin) });
    assert.equal(asset.status, 200, script);
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
    assert.equal((await fetch(`${server.baseUrl}/colyseus/${script}`)).status, 401, 'its files need the admin too');

    const rooms = await fetch(`${server.baseUrl}/colyseus/api`, { headers: bearer(admin) });
    assert.equal(rooms.status, 200);
    const body = await json(rooms);
    const world = worldOf(server.context)!;
    assert.ok(body.rooms.some((room: { roomId: string; name: string }) => room.roomId === world.roomId && room.name === 'world'), JSON.stringify(body.rooms));

    const inspect = await fetch(`${server.baseUrl}/colyseus/api/room?roomId=${world.roomId}`, { headers: bearer(admin) });
    assert.equal(inspect.status, 200);
    assert.equal((await json(inspect)).roomId, world.roomId);
  });

  it('lets the monitor close a client, but not dispose a room or edit its state', async () => {
    const admin = bearer(await tokenWithRoles(server, ['player', 'admin']));
    const world = worldOf(server.context)!;
    const call = (method: string, args: unknown[]) =>
      fetch(`${server.baseUrl}/colyseus/api/room/call?${new URLSearchParams({ roomId: world.roomId, method, args: JSON.stringify(args) })}`, { headers: admin });
    assert.equal((await call('_forceClientDisconnect', ['no-such-session'])).status, 200);
    for (const method of ['disconnect', '_editStateProperty', '_deleteStateProperty', '_sendMessageToClient', 'lock', 'setMetadata']) {
      await expectProblem(await call(method, [['players'], null]), 403, 'MONITOR_METHOD_REFUSED');
    }
    const twice = `${server.baseUrl}/colyseus/api/room/call?roomId=${world.roomId}&method=_forceClientDisconnect&method=_editStateProperty&args=[]`;
    await expectProblem(await fetch(twice, { headers: admin }), 403, 'MONITOR_METHOD_REFUSED');
    assert.ok(worldOf(server.context), 'the world is still running');
  });

  it('refuses Basic credentials on requests another site triggers', async () => {
    const admin = await tokenWithRoles(server, ['player', 'admin']);
    for (const site of ['cross-site', 'same-site']) {
      const response = await fetch(`${server.baseUrl}/colyseus/api`, { headers: { ...basic(admin), 'Sec-Fetch-Site': site } });
      await expectProblem(response, 403, 'CROSS_SITE_REFUSED');
    }
    for (const site of ['same-origin', 'none']) {
      const response = await fetch(`${server.baseUrl}/colyseus/api`, { headers: { ...basic(admin), 'Sec-Fetch-Site': site } });
      assert.equal(response.status, 200, site);
    }
  });
});

describe('operator tools in production @db', function () {
  this.timeout(60_000);
  let server: GameServer & { baseUrl: string };
  before(async () => {
    server = await startProductionServer();
  });
  after(() => server?.close());

  it('has no playground (404) and keeps the monitor behind admin authentication', async () => {
    for (const path of ['/playground', '/playground/', '/playground/rooms']) {
      await expectProblem(await fetch(`${server.baseUrl}${path}`), 404, 'NOT_FOUND');
    }
    await expectProblem(await fetch(`${server.baseUrl}/colyseus/`), 401, 'AUTH_REQUIRED');
    await expectProblem(await fetch(`${server.baseUrl}/colyseus/api`, { headers: bearer(await tokenWithRoles(server, ['player'])) }), 403, 'INSUFFICIENT_ROLE');
    assert.equal((await fetch(`${server.baseUrl}/colyseus/api`, { headers: bearer(await tokenWithRoles(server, ['player', 'admin'])) })).status, 200);
  });
});

describe('operator tools in development', function () {
  this.timeout(90_000);
  let dataDir: string;
  let server: ServerProcess;
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'game-dev-'));
    server = await spawnServer({ NODE_ENV: 'development', PGLITE_DATA_DIR: path.join(dataDir, 'pglite'), LOG_LEVEL: 'warn' });
    await waitForHealth(server, 60_000);
  });
  after(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the Colyseus playground, which lists the game\'s rooms', async () => {
    const page = await fetch(`${server.baseUrl}/playground/`);
    assert.equal(page.status, 200, server.output());
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const rooms = await fetch(`${server.baseUrl}/playground/rooms`);
    assert.equal(rooms.status, 200);
    assert.ok((await json(rooms)).rooms.includes('world'));
    assert.equal((await fetch(`${server.baseUrl}/colyseus/api`)).status, 401, 'the monitor still needs an admin');
  });
});

/**
 * Per-address WebSocket connection caps (issue #17 item 6): one address opening /ws upgrades that never
 * authenticate, or any sockets at all, is refused with 429 past WS_MAX_UNAUTHENTICATED_PER_ADDRESS /
 * WS_MAX_CONNECTIONS_PER_ADDRESS, the refusals are counted, and the counts are shared through Redis.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { connectTestRedis, dropKeysAndDisconnect, noRedisSkipNote, TEST_REDIS_URL } from '../helpers/redis.ts';
import { anonymousAccount, createCharacterRow, sdkPlayer, type TestAccount } from '../helpers/players.ts';
import { spawnServer, waitForHealth, type ServerProcess } from '../helpers/process.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';

const REDIS_URL = TEST_REDIS_URL;

async function authenticated(server: TestServer, account: TestAccount): Promise<JsonWsClient> {
  const client = await JsonWsClient.connect(server.wsUrl);
  client.send('authenticate', { token: account.token });
  assert.equal((await client.waitFor('authResult')).data.success, true);
  return client;
}

async function refusals(server: TestServer, limit: string): Promise<number> {
  const text = await server.context.metrics.registry.metrics();
  const match = new RegExp(`^game_rate_limit_rejections_total\\{[^}]*limit="${limit}"[^}]*\\} (\\d+)`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

/** Connects as soon as a place is free: the server gives a place back when it sees the close. */
async function connectWhenFree(server: TestServer): Promise<JsonWsClient> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await JsonWsClient.connect(server.wsUrl);
    } catch (error) {
      if (attempt >= 100 || !/429/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe('per-address WebSocket connection caps @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  let account: TestAccount;
  const open: JsonWsClient[] = [];

  before(async () => {
    server = await startTestServer({
      WS_MAX_CONNECTIONS_PER_ADDRESS: '4', WS_MAX_UNAUTHENTICATED_PER_ADDRESS: '2', WS_AUTH_TIMEOUT_MS: '60000',
    });
    account = await anonymousAccount(server);
  });
  after(async () => {
    for (const client of open) client.socket.terminate();
    await server?.close();
  });

  it('refuses unauthenticated /ws sockets past the cap with 429; authenticating frees a place; the total cap holds too', async () => {
    const a = await JsonWsClient.connect(server.wsUrl);
    const b = await JsonWsClient.connect(server.wsUrl);
    open.push(a, b);
    await assert.rejects(JsonWsClient.connect(server.wsUrl), /upgrade refused: 429/);
    assert.equal(await refusals(server, 'ws_unauthenticated'), 1);

    a.send('authenticate', { token: account.token });
    assert.equal((await a.waitFor('authResult')).data.success, true);
    const c = await JsonWsClient.connect(server.wsUrl);
    open.push(c);
    b.send('authenticate', { token: account.token });
    assert.equal((await b.waitFor('authResult')).data.success, true);
    const d = await authenticated(server, account); // 4 of 4
    open.push(d);
    await assert.rejects(JsonWsClient.connect(server.wsUrl), /upgrade refused: 429/);
    assert.equal(await refusals(server, 'ws_connections'), 1);

    a.close();
    open.push(await connectWhenFree(server));
  });

  it('counts SDK room sockets toward the total', async () => {
    for (const client of open.splice(0)) client.socket.terminate();
    const player = await anonymousAccount(server);
    const character = await createCharacterRow(server, player.accountId);
    for (let i = 0; i < 4; i++) {
      const client = await connectWhenFree(server);
      client.send('authenticate', { token: account.token });
      assert.equal((await client.waitFor('authResult')).data.success, true);
      open.push(client);
    }
    await assert.rejects(sdkPlayer(server, player, character.id));
    open.pop()!.close();
    let room: Awaited<ReturnType<typeof sdkPlayer>> | undefined;
    for (let attempt = 0; attempt < 100 && !room; attempt++) {
      room = await sdkPlayer(server, player, character.id).catch(() => undefined);
      if (!room) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(room, 'the SDK socket is admitted once a place is free');
    await room.leave();
  });
});

describe('per-address WebSocket connection caps shared through Redis @db', function () {
  this.timeout(60_000);
  let redis: Redis | undefined;
  const servers: TestServer[] = [];
  const open: JsonWsClient[] = [];
  const prefix = `caps-test-${randomUUID().slice(0, 8)}`;

  before(async function () {
    redis = await connectTestRedis();
    if (!redis) {
      noRedisSkipNote('these');
      this.skip();
    }
    for (let i = 0; i < 2; i++) {
      servers.push(await startTestServer({
        REDIS_URL, RATE_LIMIT_KEY_PREFIX: prefix, CLUSTER_KEY_PREFIX: `${prefix}:cluster:`,
        WS_MAX_CONNECTIONS_PER_ADDRESS: '4', WS_MAX_UNAUTHENTICATED_PER_ADDRESS: '2', WS_AUTH_TIMEOUT_MS: '60000',
      }));
    }
  });
  after(async () => {
    for (const client of open) client.socket.terminate();
    for (const server of servers) await server.close();
    if (redis) await dropKeysAndDisconnect(redis, `${prefix}:*`);
  });

  it('two processes share one count per address, unauthenticated and total: past either cap a socket is refused on both', async () => {
    const [first, second] = servers;
    const accounts = await Promise.all(servers.map((server) => anonymousAccount(server)));
    const authenticate = async (client: JsonWsClient, account: TestAccount) => {
      client.send('authenticate', { token: account.token });
      assert.equal((await client.waitFor('authResult')).data.success, true);
    };
    // Unauthenticated: one waiting on each process fills the shared cap of 2.
    const a = await JsonWsClient.connect(first.wsUrl);
    const b = await JsonWsClient.connect(second.wsUrl);
    open.push(a, b);
    await assert.rejects(JsonWsClient.connect(first.wsUrl), /upgrade refused: 429/);
    await assert.rejects(JsonWsClient.connect(second.wsUrl), /upgrade refused: 429/);
    assert.equal(await refusals(first, 'ws_unauthenticated') + await refusals(second, 'ws_unauthenticated'), 2);
    // Authenticating on the first process frees an unauthenticated place on the second.
    await authenticate(a, accounts[0]!);
    const c = await JsonWsClient.connect(second.wsUrl);
    open.push(c);
    await authenticate(b, accounts[1]!);
    await authenticate(c, accounts[1]!);
    open.push(await JsonWsClient.connect(first.wsUrl)); // 4 of 4, one of them unauthenticated
    await assert.rejects(JsonWsClient.connect(second.wsUrl), /upgrade refused: 429/);
    await assert.rejects(JsonWsClient.connect(first.wsUrl), /upgrade refused: 429/);
    assert.equal(await refusals(first, 'ws_connections') + await refusals(second, 'ws_connections'), 2);
    assert.ok((await redis!.keys(`${prefix}:conn:*`)).length >= 1, 'the counts live in Redis');
    a.close();
    open.push(await connectWhenFree(second));
  });
});

describe('per-address caps when a process relays /ws sockets to the world\'s (scale-out) @db', function () {
  this.timeout(120_000);
  let redis: Redis | undefined;
  let root: string | undefined;
  const servers: ServerProcess[] = [];
  const open: JsonWsClient[] = [];
  const prefix = `caps-relay-${randomUUID().slice(0, 8)}`;

  before(async function () {
    redis = await connectTestRedis();
    if (!redis) {
      noRedisSkipNote('these');
      return this.skip();
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'game-caps-'));
    const env = (i: number) => ({
      REDIS_URL, CLUSTER_KEY_PREFIX: `${prefix}:cluster:`, RATE_LIMIT_KEY_PREFIX: prefix,
      PGLITE_DATA_DIR: path.join(root!, `pglite-${i}`), DATABASE_URL: process.env.DATABASE_URL,
      JWT_SECRET: `${prefix}-secret-0123456789abcdef0123456789`,
      WS_MAX_CONNECTIONS_PER_ADDRESS: '10', WS_MAX_UNAUTHENTICATED_PER_ADDRESS: '2', WS_AUTH_TIMEOUT_MS: '60000',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    });
    // One after the other: the first hosts the world, the second relays /ws sockets to it.
    for (let i = 0; i < 2; i++) {
      servers.push(await spawnServer(env(i)));
      await waitForHealth(servers[i]!, 60_000);
    }
  });
  after(async () => {
    for (const client of open) client.socket.terminate();
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
    if (root) fs.rmSync(root, { recursive: true, force: true });
    if (redis) await dropKeysAndDisconnect(redis, `${prefix}:*`);
  });

  it('sockets that never authenticate, sent to the process without the world, are capped like any others', async () => {
    const entry = `ws://127.0.0.1:${servers[1]!.port}`;
    // The entry process completes each handshake and relays the socket to the world's process, which counts it
    // (the cap of 2 there and in Redis): one of three is refused, by the entry (429) or by the world's process
    // through the relay (closed 1008). It used to count as authenticated on the entry and not at all where it went.
    const refusals: string[] = [];
    const live: JsonWsClient[] = [];
    for (let i = 0; i < 3; i++) {
      try {
        const client = await JsonWsClient.connect(entry);
        open.push(client);
        live.push(client);
        void client.closed.then(({ code }) => refusals.push(`closed ${code}`));
      } catch (error) {
        assert.match(String(error), /429/);
        refusals.push('429');
      }
    }
    const deadline = Date.now() + 5_000;
    while (refusals.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(refusals.length, 1, `one of three unauthenticated sockets is refused: ${JSON.stringify(refusals)}`);
    assert.match(refusals[0]!, /^(429|closed 1008)$/);
    assert.equal(live.filter((client) => client.socket.readyState === client.socket.OPEN).length, 2);
  });
});

/**
 * Issue #35, item 10: a refused WebSocket upgrade gives its socket back at once. A refusal used to half-close the
 * socket (the answer, then FIN) and keep it — its file descriptor, and for a /ws upgrade refused after admission its
 * place under the per-address cap — until the client closed its side, which a flooding client need never do: 157k
 * refused upgrades from one address took the server to 15,385 of its 20,000 descriptors. Here the clients keep
 * every socket open, and the server's own count of open connections must come down to the admitted ones.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { ConnectionCaps } from '../../src/transport/connection-caps.ts';
import { connectTestRedis, dropKeysAndDisconnect, noRedisSkipNote, TEST_REDIS_URL } from '../helpers/redis.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

interface Upgrade {
  socket: net.Socket;
  status: number;
}

/**
 * Sends one upgrade request and waits (at most 5 s) for the answer's status line. The socket is left open, its
 * writing side too when the server ends its own (`allowHalfOpen`): a client that ignores the server's FIN, as a
 * flooding one does.
 */
async function rawUpgrade(port: number, path: string, headers: Record<string, string> = {}): Promise<Upgrade> {
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`
    + `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`);
  const head = await Promise.race([
    new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(chunk.toString('latin1')))),
    sleep(5_000).then(() => ''),
  ]);
  return { socket, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0) };
}

function openConnections(server: TestServer): Promise<number> {
  return new Promise((resolve, reject) => server.httpServer.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

/** Polls the server's open connections (every 50 ms, at most 3 s) until they are `expected`; returns the last count. */
async function settlesAt(server: TestServer, expected: number): Promise<number> {
  const deadline = Date.now() + 3_000;
  let count = await openConnections(server);
  while (count !== expected && Date.now() < deadline) {
    await sleep(50);
    count = await openConnections(server);
  }
  return count;
}

describe('refused WebSocket upgrades give their sockets back at once @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  const sockets: net.Socket[] = [];

  beforeEach(async () => {
    server = await startTestServer({
      WS_MAX_CONNECTIONS_PER_ADDRESS: '4', WS_MAX_UNAUTHENTICATED_PER_ADDRESS: '2', WS_AUTH_TIMEOUT_MS: '60000',
    });
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await server?.close();
  });

  it('over the per-address cap: 20 refused /ws upgrades hold no socket while their clients keep theirs open', async () => {
    for (let i = 0; i < 2; i++) {
      const admitted = await rawUpgrade(server.port, '/ws');
      sockets.push(admitted.socket);
      assert.equal(admitted.status, 101);
    }
    const refused = await Promise.all(Array.from({ length: 20 }, () => rawUpgrade(server.port, '/ws')));
    sockets.push(...refused.map((upgrade) => upgrade.socket));
    assert.deepEqual([...new Set(refused.map((upgrade) => upgrade.status))], [429]);
    assert.equal(await settlesAt(server, 2), 2, 'only the two admitted sockets stay open on the server');
  });

  it('a disallowed origin and bad bearer tokens alike, and the places they took under the cap come back', async () => {
    const refusals = [
      await rawUpgrade(server.port, '/ws', { Origin: 'https://not-allowed.example' }),
      await rawUpgrade(server.port, '/ws', { Authorization: 'Bearer not-a-token' }),
      await rawUpgrade(server.port, '/ws', { Authorization: 'Bearer not-a-token' }),
      await rawUpgrade(server.port, '/ws', { Authorization: 'Bearer not-a-token' }),
    ];
    sockets.push(...refusals.map((upgrade) => upgrade.socket));
    assert.deepEqual(refusals.map((upgrade) => upgrade.status), [403, 401, 401, 401]);
    assert.equal(await settlesAt(server, 0), 0, 'no refused socket stays open on the server');
    // Three upgrades refused after admission gave their places back: two unauthenticated /ws sockets still fit.
    for (let i = 0; i < 2; i++) {
      const admitted = await rawUpgrade(server.port, '/ws');
      sockets.push(admitted.socket);
      assert.equal(admitted.status, 101, `admitted /ws socket ${i + 1}`);
    }
  });
});

describe('with REDIS_URL, upgrades waiting for Redis count toward the per-address cap', function () {
  this.timeout(30_000);
  let redis: Redis | undefined;
  let caps: ConnectionCaps | undefined;
  const prefix = `refused-upgrades-${randomBytes(4).toString('hex')}`;

  before(async function () {
    redis = await connectTestRedis();
    if (!redis) {
      noRedisSkipNote('this suite');
      return this.skip();
    }
    caps = new ConnectionCaps({ maxPerAddress: 5, maxUnauthenticatedPerAddress: 5, redisUrl: TEST_REDIS_URL, keyPrefix: prefix });
    const deadline = Date.now() + 5_000;
    while ((caps as unknown as { redis: Redis }).redis.status !== 'ready' && Date.now() < deadline) await sleep(20);
  });
  after(async () => {
    await caps?.close();
    if (redis) await dropKeysAndDisconnect(redis, `${prefix}:*`);
  });

  it('a burst of 15 from one address: at most 5 wait for Redis, the other 10 are refused at once', async () => {
    const settled: string[] = [];
    await Promise.all(Array.from({ length: 15 }, async () => {
      const admission = await caps!.admit('203.0.113.7', true);
      settled.push(admission.ok ? 'admitted' : admission.refusal);
    }));
    // Refused before any Redis answer came back: each holds its socket (a descriptor) only for that long.
    assert.deepEqual(settled, [...Array(10).fill('ws_connections'), ...Array(5).fill('admitted')]);
  });
});

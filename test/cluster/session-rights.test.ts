/**
 * Rights changes cross processes (docs/auth.md, Live sessions): with REDIS_URL a revocation published by another
 * process on the presence channel ends the matching session on the world's process at once, long before its own
 * sweep would. The other process is played by this test with the same RedisPresence the servers use. Needs Redis on
 * REDIS_URL / TEST_REDIS_URL (default 127.0.0.1:6379); the account-change case needs DATABASE_URL (PostgreSQL).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RedisPresence } from '@colyseus/redis-presence';
import { Redis } from 'ioredis';
import { noRedisSkipNote, redisAnswers, TEST_REDIS_URL } from '../helpers/redis.ts';
import jwt from 'jsonwebtoken';
import { RIGHTS_CHANNEL } from '../../src/auth/session-guard.ts';
import { openDatabase } from '../../src/db/database.ts';
import { User } from '../../src/db/entities/index.ts';
import { anonymousAccount } from '../helpers/players.ts';
import { spawnServer, waitForHealth, type ServerProcess } from '../helpers/process.ts';
import type { TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';

const REDIS_URL = TEST_REDIS_URL;


describe('live-session rights across processes (Redis) @db', function () {
  this.timeout(120_000);
  let server: ServerProcess | undefined;
  let presence: RedisPresence | undefined;
  let dataDir: string | undefined;
  const prefix = `test-${randomUUID().slice(0, 8)}:`;

  before(async function () {
    if (!(await redisAnswers())) {
      noRedisSkipNote('it');
      return this.skip();
    }
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'game-rights-'));
    server = await spawnServer({
      REDIS_URL,
      CLUSTER_KEY_PREFIX: prefix,
      RATE_LIMIT_KEY_PREFIX: prefix,
      PGLITE_DATA_DIR: path.join(dataDir, 'pglite'),
      DATABASE_URL: process.env.DATABASE_URL,
      // The sweep would end the session too, but only after a minute: an end within seconds is the published event.
      SESSION_CHECK_SECONDS: '60',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    });
    await waitForHealth(server, 60_000);
    presence = new RedisPresence(new Redis(REDIS_URL, { keyPrefix: prefix, maxRetriesPerRequest: 3 }));
  });

  after(async () => {
    presence?.shutdown();
    if (server) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a revocation published by another process closes the agent\'s socket at once (SESSION_REVOKED, 4001)', async () => {
    const entry = { baseUrl: server!.baseUrl, wsUrl: `ws://127.0.0.1:${server!.port}` } as TestServer;
    const owner = await anonymousAccount(entry);
    const headers = { Authorization: `Bearer ${owner.token}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${entry.baseUrl}/api/character`, { method: 'POST', headers, body: JSON.stringify({ name: `R${randomUUID().slice(0, 8)}` }) });
    const character = await created.json() as { id: string };
    assert.equal(created.status, 201, JSON.stringify(character));
    const characterId = character.id;
    const registered = await fetch(`${entry.baseUrl}/api/agent`, { method: 'POST', headers, body: JSON.stringify({ characterId }) });
    assert.equal(registered.status, 201);
    const agentToken = (await registered.json() as { token: string }).token;

    const socket = await JsonWsClient.connect(entry.wsUrl);
    socket.send('authenticate', { token: agentToken });
    assert.equal((await socket.waitFor('authResult')).data.success, true);
    socket.send('world:enter', { characterId });
    await socket.waitFor('world:joined', () => true, 10_000);

    const tokenId = (jwt.decode(agentToken) as { jti: string }).jti;
    await presence!.publish(RIGHTS_CHANNEL, { kind: 'token', tokenId });
    const closed = await Promise.race([
      socket.closed,
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('the socket stayed open after the published revocation')), 10_000)),
    ]);
    assert.equal(closed.code, 4001);
    assert.ok(socket.events.some((e) => e.type === 'error' && e.data.code === 'SESSION_REVOKED'));
  });

  it('an account change published by another process (a suspension) ends the account\'s session at once (INSUFFICIENT_ROLE, 4001)', async function () {
    // The test plays the other process on the shared database: PostgreSQL only (the embedded one is the server's alone).
    if (!process.env.DATABASE_URL) return this.skip();
    const entry = { baseUrl: server!.baseUrl, wsUrl: `ws://127.0.0.1:${server!.port}` } as TestServer;
    const player = await anonymousAccount(entry);
    const headers = { Authorization: `Bearer ${player.token}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${entry.baseUrl}/api/character`, { method: 'POST', headers, body: JSON.stringify({ name: `S${randomUUID().slice(0, 8)}` }) });
    const character = await created.json() as { id: string };
    assert.equal(created.status, 201, JSON.stringify(character));

    const socket = await JsonWsClient.connect(entry.wsUrl);
    socket.send('authenticate', { token: player.token });
    assert.equal((await socket.waitFor('authResult')).data.success, true);
    socket.send('world:enter', { characterId: character.id });
    await socket.waitFor('world:joined', () => true, 10_000);

    const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, pgliteDataDir: 'memory://', poolSize: 1 });
    try {
      await db.em.fork().nativeUpdate(User, { id: player.accountId }, { roles: [] });
    } finally {
      await db.close();
    }
    await presence!.publish(RIGHTS_CHANNEL, { kind: 'account', accountId: player.accountId });
    const closed = await Promise.race([
      socket.closed,
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('the socket stayed open after the published account change')), 10_000)),
    ]);
    assert.equal(closed.code, 4001);
    assert.ok(socket.events.some((e) => e.type === 'error' && e.data.code === 'INSUFFICIENT_ROLE'));
  });
});

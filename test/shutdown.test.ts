import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import { acquireDirectoryLock } from '../src/db/pglite-lock.ts';
import { uniqueName } from './helpers/database.ts';
import { databaseUnderTest } from './helpers/server.ts';
import { spawnServer, waitForHealth } from './helpers/process.ts';
import { JsonWsClient } from './helpers/ws-client.ts';

describe(`process lifecycle on ${databaseUnderTest()} @db`, function () {
  this.timeout(60_000);
  let dataDir: string;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'game-db-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const env = () => ({
    PGLITE_DATA_DIR: path.join(dataDir, 'pglite'),
    DATABASE_URL: process.env.DATABASE_URL,
    LOG_LEVEL: 'info',
  });

  it('SIGTERM saves, closes the database and exits 0 within 10 s, leaving it consistent', async () => {
    const server = await spawnServer(env());
    await waitForHealth(server);
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    const { code } = await server.exited;
    assert.equal(code, 0, server.output());
    assert.ok(Date.now() - signalledAt < 10_000, 'exited within 10 s');
    assert.match(server.output(), /shutdown complete/);

    if (!process.env.DATABASE_URL) {
      assert.doesNotThrow(() => acquireDirectoryLock(env().PGLITE_DATA_DIR)(), 'the embedded database lock is released');
    }
    const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, pgliteDataDir: env().PGLITE_DATA_DIR });
    try {
      assert.deepEqual(db.appliedMigrations, [], 'the schema was fully migrated before');
      const [row] = await db.em.getConnection().execute('select count(*)::int as n from characters');
      assert.equal(typeof row.n, 'number');
    } finally {
      await db.close();
    }
  });

  it('SIGTERM closes every /ws socket with 1012: twenty players in the world, one signed in, one not yet', async function () {
    this.timeout(120_000);
    const server = await spawnServer(env());
    await waitForHealth(server, 60_000);
    const wsUrl = `ws://127.0.0.1:${server.port}`;
    const players = await Promise.all(Array.from({ length: 20 }, async () => {
      const client = await JsonWsClient.connect(wsUrl);
      client.send('authenticate', {});
      assert.equal((await client.waitFor('authResult')).data.success, true);
      client.send('world:enter', { createCharacter: { name: uniqueName('s') } });
      await client.waitFor('world:joined', () => true, 15_000);
      return client;
    }));
    const signedIn = await JsonWsClient.connect(wsUrl);
    signedIn.send('authenticate', {});
    await signedIn.waitFor('authResult');
    const anonymous = await JsonWsClient.connect(wsUrl);

    server.child.kill('SIGTERM');
    const codes = await Promise.all([...players, signedIn, anonymous].map(async (client) => (await client.closed).code));
    assert.deepEqual(codes, codes.map(() => 1012), `close codes: ${codes.join(', ')}`);
    assert.equal((await server.exited).code, 0, server.output());
  });

  it('a SIGTERM that arrives while the server is still starting shuts it down cleanly once it is up', async () => {
    const server = await spawnServer(env());
    const started = Date.now();
    while (!server.output().includes('"step":3') && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 10));
    server.child.kill('SIGTERM');
    const { code, signal } = await server.exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, server.output());
    assert.match(server.output(), /shutdown complete/);
  });

  it('a second process cannot open the same embedded database', async function () {
    if (process.env.DATABASE_URL) this.skip();
    const first = await spawnServer(env());
    await waitForHealth(first);
    const second = await spawnServer(env());
    const { code } = await second.exited;
    assert.equal(code, 1);
    assert.match(second.output(), /in use by process/);
    first.child.kill('SIGTERM');
    assert.equal((await first.exited).code, 0);
  });

  it('refuses to start in production without the required variables, naming them', async () => {
    const server = await spawnServer({ NODE_ENV: 'production' });
    const { code } = await server.exited;
    assert.equal(code, 1);
    for (const name of ['DATABASE_URL', 'JWT_SECRET', 'ADMIN_CODE', 'PUBLIC_IDP_APP_ID', 'IDP_APP_SECRET']) {
      assert.ok(server.output().includes(name), name);
    }
  });

  it('stops on a bad value with one message naming the variable', async () => {
    const server = await spawnServer({ SAVE_INTERVAL: '-5' });
    assert.equal((await server.exited).code, 1);
    assert.match(server.output(), /SAVE_INTERVAL must be an integer/);
  });
});

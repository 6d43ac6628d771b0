/**
 * Issue #16 item 1: an SDK client that closes its room socket before acknowledging the join (what the Colyseus
 * load-test tool does) made WorldRoom.onDrop reject with "not joined", and nothing handled it: the process lived
 * only if the optional @pm2/io happened to be installed. Also the process-wide policy for errors nothing handled.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { createLogger } from '../../src/logger.ts';
import { GameMetrics } from '../../src/observability/metrics.ts';
import { installProcessErrorPolicy } from '../../src/observability/process-errors.ts';
import { json } from '../helpers/http.ts';
import { anonymousAccount, createCharacterRow, type TestAccount } from '../helpers/players.ts';
import { spawnServer, waitForHealth, type ServerProcess } from '../helpers/process.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';

/** Colyseus' JOIN_ROOM message byte: the server's "you are in" that an SDK client acknowledges. */
const JOIN_ROOM = 10;

/**
 * Reserves a seat in the world over HTTP, opens the room socket as the SDK would, and closes it as soon as the
 * server says the join is done, without acknowledging it. Resolves once the socket is closed.
 */
async function joinAndLeaveBeforeAcknowledging(baseUrl: string, account: TestAccount, characterId: string): Promise<void> {
  const response = await fetch(`${baseUrl}/matchmake/join/world`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${account.token}` },
    body: JSON.stringify({ characterId }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  const seat = await json(response);
  const wsUrl = baseUrl.replace(/^http/, 'ws');
  const socket = new WebSocket(`${wsUrl}/${seat.processId}/${seat.roomId}?sessionId=${seat.sessionId}`, {
    headers: { Authorization: `Bearer ${account.token}` },
  });
  await new Promise<void>((resolve, reject) => {
    socket.on('message', (data: Buffer) => {
      if (data[0] === JOIN_ROOM) socket.close();
    });
    socket.once('close', () => resolve());
    socket.once('error', reject);
  });
}

describe('a client that disconnects before acknowledging its join @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('leaves the world cleanly, with no unhandled rejection', async () => {
    const rejections: unknown[] = [];
    const record = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', record);
    try {
      const account = await anonymousAccount(server);
      const character = await createCharacterRow(server, account.accountId);
      await joinAndLeaveBeforeAcknowledging(server.baseUrl, account, character.id);
      // The player was in the world (onJoin ran) and is saved and removed by onLeave.
      await until(() => !server.context.online.has(character.id), 'the character is no longer online');
      await sleep(50); // rejections are reported after the microtask queue drains
      assert.deepEqual(rejections.map(String), []);
      // Nothing held a seat: the character can enter again at once.
      const again = await fetch(`${server.baseUrl}/matchmake/join/world`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${account.token}` },
        body: JSON.stringify({ characterId: character.id }),
      });
      assert.equal(again.status, 200);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});

describe('the server process without @pm2/io @db', function () {
  this.timeout(180_000);
  let child: ServerProcess | undefined;

  after(async () => {
    if (child && child.child.exitCode === null) {
      child.child.kill('SIGTERM');
      await child.exited;
    }
  });

  it('keeps serving after an SDK client leaves before acknowledging its join', async () => {
    // Makes `import("@pm2/io")` fail in the child, as on an install without that optional package, so the
    // process relies on the server's own handling alone.
    const hooks = `export async function resolve(specifier, context, next) {
      if (specifier === '@pm2/io') throw Object.assign(new Error('Cannot find package @pm2/io'), { code: 'ERR_MODULE_NOT_FOUND' });
      return next(specifier, context);
    }`;
    const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
    child = await spawnServer({
      NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(register)}`,
      DATABASE_URL: process.env.DATABASE_URL,
      LOG_LEVEL: 'info',
    });
    await waitForHealth(child, 90_000);
    const testServer = { baseUrl: child.baseUrl } as TestServer;
    for (let round = 0; round < 3; round++) {
      const account = await anonymousAccount(testServer);
      const me = await json(await fetch(`${child.baseUrl}/api/character`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${account.token}` },
        body: JSON.stringify({ name: `Early${round}${Date.now() % 100000}` }),
      }));
      await joinAndLeaveBeforeAcknowledging(child.baseUrl, account, me.id);
    }
    // The process is still there and serving, and logged no unhandled error.
    await sleep(200);
    assert.equal(child.child.exitCode, null, child.output());
    assert.equal((await fetch(`${child.baseUrl}/health`)).status, 200, child.output());
    assert.doesNotMatch(child.output(), /unhandled|not joined/i);
  });
});

describe('the process-wide policy for errors nothing handled', () => {
  it('logs and counts an unhandled rejection and keeps going; an uncaught exception also shuts down', async () => {
    const metrics = new GameMetrics({ playersOnline: () => 0, rooms: () => 0 });
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ nodeEnv: 'test', logLevel: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const target = new EventEmitter();
    const fatal: unknown[] = [];
    const remove = installProcessErrorPolicy({
      logger, target, count: (kind) => metrics.unhandledErrors.inc({ kind }), onUncaughtException: (error) => fatal.push(error),
    });
    target.emit('unhandledRejection', new Error('lost promise'), Promise.resolve());
    assert.deepEqual(fatal, [], 'a rejection does not stop the server');
    target.emit('uncaughtException', new Error('escaped throw'), 'uncaughtException');
    assert.deepEqual(fatal.map(String), ['Error: escaped throw']);
    remove();
    assert.equal(target.listenerCount('unhandledRejection') + target.listenerCount('uncaughtException'), 0);

    const counted = await metrics.unhandledErrors.get();
    assert.deepEqual(
      counted.values.map((v) => [v.labels.kind, v.value]).sort(),
      [['uncaught_exception', 1], ['unhandled_rejection', 1]],
    );
    const logged = lines.map((l) => [l.kind, (l.err as { message?: string } | undefined)?.message]);
    assert.deepEqual(logged, [['unhandled_rejection', 'lost promise'], ['uncaught_exception', 'escaped throw']]);
  });
});

/**
 * Logs in one format: a production server process writes nothing but JSON lines to stdout — its own log lines,
 * Colyseus' messages (handed pino as `new Server({ logger })`) and any dependency's console writes (routed through
 * the logger) alike — while a short session provokes Colyseus' own logging (docs/logging.md).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client as SdkClient } from '@colyseus/sdk';
import WebSocket from 'ws';
import { createScratchDatabase, type ScratchDatabase } from '../loadtest/lib/postgres.ts';
import { createLogger, routeConsoleToLogger } from '../src/logger.ts';
import { freePort, PROJECT_ROOT } from './helpers/process.ts';

const LOCAL_POSTGRES = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** DATABASE_URL when the suite runs on PostgreSQL; otherwise a scratch database on the local server (dropped after). */
async function productionDatabase(): Promise<ScratchDatabase | undefined> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, drop: async () => {} };
  return createScratchDatabase(LOCAL_POSTGRES, 'prodlogs').catch(() => undefined);
}

/** Opens a socket, waits for it to close (or 5 s), whatever the server answers. */
async function socketUntilClosed(url: string, onOpen: (socket: WebSocket) => void = () => {}): Promise<void> {
  const socket = new WebSocket(url);
  socket.on('error', () => {});
  socket.on('open', () => onOpen(socket));
  await Promise.race([new Promise((resolve) => socket.once('close', resolve)), sleep(5_000)]);
  socket.terminate();
}

/**
 * A room socket (Colyseus' own WebSocket transport) that, once upgraded, sends a frame with a reserved opcode: the
 * ws library rejects it and Colyseus reports the error with its stack trace.
 */
async function invalidFrame(port: number, path: string): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`
    + `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  await Promise.race([new Promise((resolve) => socket.once('data', resolve)), sleep(5_000)]);
  socket.write(Buffer.from([0x83, 0x80, 1, 2, 3, 4])); // FIN, opcode 3 (reserved), masked, empty
  await Promise.race([new Promise((resolve) => socket.once('close', resolve)), sleep(5_000)]);
  socket.destroy();
}

describe('production logs are JSON lines only @db', function () {
  this.timeout(180_000);
  let database: ScratchDatabase | undefined;
  let child: ChildProcess | undefined;
  let stdout = '';
  let stderr = '';
  let baseUrl = '';
  let port = 0;

  before(async function () {
    database = await productionDatabase();
    if (!database) {
      console.log('      (skipped: no PostgreSQL reachable; production needs DATABASE_URL — set it to run this suite)');
      return this.skip();
    }
    port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['src/start.js'], {
      cwd: PROJECT_ROOT,
      env: {
        PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port),
        // A scratch database is a first deployment: production sets up its schema only when asked (DATABASE_INIT).
        DATABASE_URL: database.url, DATABASE_INIT: 'true', JWT_SECRET: 'production-logs-secret-0123456789abcdef', ADMIN_CODE: 'production-logs-admin',
        PUBLIC_IDP_APP_ID: 'production-logs-app', IDP_APP_SECRET: 'production-logs-idp-secret',
        PUBLIC_API_URL: 'https://game-server.example', PUBLIC_WS_URL: 'wss://game-server.example/ws',
        PUBLIC_CDN_URL: 'https://assets.invalid', // unreachable: the manifests come from the local cache
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const started = Date.now();
    while (!stdout.includes('"step":7')) {
      if (child.exitCode !== null || Date.now() - started > 90_000) assert.fail(`the server did not start:\n${stdout}\n${stderr}`);
      await sleep(100);
    }
  });
  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));
    }
    await database?.drop();
  });

  it('a session that provokes Colyseus\' own messages leaves only JSON on stdout', async () => {
    // A player: login, join the world with a new character through the SDK, walk, chat, leave.
    const session = await (await fetch(`${baseUrl}/api/auth/anonymous`, { method: 'POST' })).json() as { token: string };
    const sdk = new SdkClient(baseUrl, { headers: { Authorization: `Bearer ${session.token}` } });
    const room = await sdk.join('world', { createCharacter: { name: `Log${Date.now().toString(36).slice(-8)}` } });
    room.onMessage('*', () => {});
    room.send('player:move', { x: 1, z: 1 });
    room.send('player:chat', { message: 'hello' });
    room.send('no-such-message', { x: 1 }); // a message type no handler knows
    await sleep(500);

    // Colyseus' own paths: a room socket with an unknown room, one with a seat nobody reserved, one with garbage.
    const wsBase = baseUrl.replace('http', 'ws');
    await socketUntilClosed(`${wsBase}/process/no-such-room?sessionId=nobody`);
    await socketUntilClosed(`${wsBase}/process/${room.roomId}?sessionId=nobody`);
    await socketUntilClosed(`${wsBase}/process/${room.roomId}?sessionId=nobody&reconnectionToken=bogus`);
    await socketUntilClosed(`${wsBase}/process/${room.roomId}?sessionId=${room.sessionId}`, (socket) => socket.send(Buffer.from([0xff, 0x00, 0x13])));
    await invalidFrame(port, `/process/${room.roomId}?sessionId=nobody`);
    await room.leave();
    await sleep(500);

    child!.kill('SIGTERM');
    const code = await new Promise((resolve) => child!.once('exit', resolve));
    assert.equal(code, 0, stderr);

    const lines = stdout.split('\n').filter((line) => line.length > 0);
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object';
      } catch {
        return true;
      }
    });
    assert.deepEqual(notJson, [], `${notJson.length} of ${lines.length} stdout lines are not JSON`);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const colyseus = records.filter((record) => record.source === 'colyseus');
    assert.ok(colyseus.length > 0, `Colyseus logged through the logger:\n${lines.join('\n')}`);
    assert.ok(colyseus.some((record) => /Invalid WebSocket frame[\s\S]*\n\s+at /.test(String(record.msg))), 'the stack trace is inside one JSON line');
    assert.ok(records.some((record) => record.msg === 'shutdown complete'));
    assert.equal(stderr, '', 'nothing on stderr either');
  });
});

describe('console writes of dependencies go through the logger', () => {
  it('console.warn and console.error become JSON lines (an Error as err); the console is put back', () => {
    const lines: string[] = [];
    const logger = createLogger({ nodeEnv: 'production', logLevel: 'info' }, { write: (line: string) => void lines.push(line) });
    const original = console.warn;
    const restore = routeConsoleToLogger(logger);
    try {
      console.warn('@colyseus/schema: field not defined at', { index: 3 });
      console.error('decode failed', new Error('boom'));
      console.debug('below the level: dropped');
    } finally {
      restore();
    }
    assert.equal(console.warn, original);
    const [warn, error, ...rest] = lines.map((line) => JSON.parse(line));
    assert.deepEqual(rest, []);
    assert.deepEqual([warn.level, warn.source, warn.msg], [40, 'console', '@colyseus/schema: field not defined at { index: 3 }']);
    assert.deepEqual([error.level, error.msg, error.err.message], [50, 'decode failed', 'boom']);
    assert.match(error.err.stack, /^Error: boom\n\s+at /);
  });
});

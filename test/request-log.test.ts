import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config.ts';
import { createRequestLogger, loggedUrl } from '../src/http/request-log.ts';
import { createLogger } from '../src/logger.ts';
import { startServer, type GameServer } from '../src/server.ts';
import { pgliteTemplate, testEnv } from './helpers/server.ts';
import { JsonWsClient } from './helpers/ws-client.ts';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  connId?: string;
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number };
  durationMs?: number;
  [key: string]: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request logs: one pino line per HTTP request, ids, no secrets @db', function () {
  this.timeout(60_000);
  const raw: string[] = [];
  let server: GameServer;
  let baseUrl: string;
  const lines = () => raw.map((line) => JSON.parse(line) as LogLine);
  const requestLines = () => lines().filter((l) => l.req !== undefined && l.res !== undefined);

  before(async () => {
    const { config } = loadConfig(testEnv({ LOG_LEVEL: 'debug', ADMIN_CODE: 'admin-code-reqlog-7c1d' }));
    const logger = createLogger(config, { write: (line: string) => { raw.push(line); } });
    server = await startServer({ config, logger, pgliteTemplate: config.databaseUrl ? undefined : await pgliteTemplate() });
    baseUrl = `http://127.0.0.1:${server.port}`;
  });
  after(async () => {
    await server?.close();
  });

  /** The request line with this id, once the response has finished (it is written on 'finish'). */
  async function lineFor(id: string): Promise<LogLine> {
    for (let i = 0; i < 100; i++) {
      const found = requestLines().find((l) => l.reqId === id);
      if (found) return found;
      await sleep(20);
    }
    throw new Error(`no request line for ${id}:\n${raw.join('')}`);
  }

  it('writes id, method, path, status and duration, and answers the id as X-Request-Id', async () => {
    const response = await fetch(`${baseUrl}/api/data/skill-unlocks`);
    assert.equal(response.status, 200);
    const id = response.headers.get('x-request-id');
    assert.match(id ?? '', UUID, 'a generated id is a UUID');
    const line = await lineFor(id!);
    assert.equal(line.level, 30, 'info');
    assert.deepEqual(line.req, { id, method: 'GET', url: '/api/data/skill-unlocks' });
    assert.equal(line.res?.statusCode, 200);
    assert.equal(typeof line.durationMs, 'number');
    assert.ok(line.durationMs! >= 0);
    assert.equal(line.msg, 'GET /api/data/skill-unlocks 200');
  });

  it('adopts a sane incoming X-Request-Id and replaces one that is not', async () => {
    const adopted = await fetch(`${baseUrl}/api/data/skill-unlocks`, { headers: { 'X-Request-Id': 'edge-4f2a.1:abc' } });
    assert.equal(adopted.headers.get('x-request-id'), 'edge-4f2a.1:abc');
    assert.equal((await lineFor('edge-4f2a.1:abc')).res?.statusCode, 200);
    for (const bad of ['has spaces in it', 'x'.repeat(129), '"quoted"']) {
      const replaced = await fetch(`${baseUrl}/api/data/skill-unlocks`, { headers: { 'X-Request-Id': bad } });
      const id = replaced.headers.get('x-request-id');
      assert.match(id ?? '', UUID, `"${bad.slice(0, 20)}" is replaced`);
      await lineFor(id!);
    }
  });

  it('logs probes at debug, errors and unknown routes with their status, preflights and matchmaking too', async () => {
    const health = await fetch(`${baseUrl}/health`);
    assert.equal((await lineFor(health.headers.get('x-request-id')!)).level, 20, '/health at debug');
    const missing = await fetch(`${baseUrl}/no/such/route`);
    assert.equal(missing.status, 404);
    const missingLine = await lineFor(missing.headers.get('x-request-id')!);
    assert.equal(missingLine.res?.statusCode, 404);
    assert.equal(missingLine.level, 30);
    const preflight = await fetch(`${baseUrl}/api/v1/player`, { method: 'OPTIONS', headers: { Origin: 'http://localhost:5555', 'Access-Control-Request-Method': 'GET' } });
    assert.equal((await lineFor(preflight.headers.get('x-request-id')!)).req?.method, 'OPTIONS');
    const matchmake = await fetch(`${baseUrl}/matchmake/joinOrCreate/world`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const matchLine = await lineFor(matchmake.headers.get('x-request-id')!);
    assert.equal(matchLine.req?.url, '/matchmake/joinOrCreate/world');
    assert.equal(matchLine.res?.statusCode, matchmake.status);
  });

  it('never writes a bearer token, a token query value, a cookie or the admin code', async () => {
    const issued = await fetch(`${baseUrl}/api/auth/anonymous`, { method: 'POST' });
    const { token } = await issued.json() as { token: string };
    assert.ok(token.length > 20);
    const secretQuery = 'query-secret-9d8e7f6a5b4c';
    const cookie = 'session=cookie-secret-1a2b3c4d';
    const player = await fetch(`${baseUrl}/api/v1/player`, { headers: { Authorization: `Bearer ${token}`, Cookie: cookie } });
    assert.equal(player.status, 200);
    const withQuery = await fetch(`${baseUrl}/api/v1/player?token=${secretQuery}&limit=5`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(withQuery.status, 400, 'unknown query parameters are refused');
    const queryLine = await lineFor(withQuery.headers.get('x-request-id')!);
    assert.equal(queryLine.req?.url, '/api/v1/player?token=[redacted]&limit=5');
    const publicRoute = await fetch(`${baseUrl}/api/data/skill-unlocks?access_token=${secretQuery}`, { headers: { Authorization: `Bearer ${token}` } });
    await lineFor(publicRoute.headers.get('x-request-id')!);
    await lineFor(player.headers.get('x-request-id')!);
    // The same token over /ws: the connection's lines carry a connection id, never the token.
    const socket = await JsonWsClient.connect(`ws://127.0.0.1:${server.port}`);
    socket.send('authenticate', { token });
    assert.equal((await socket.waitFor('authResult')).data.success, true);
    socket.send('world:enter', { world: 0 });
    const refused = await socket.waitFor('error');
    // A world no process runs: the refusal's info line says what the listings and the leases held for that number.
    socket.send('world:enter', { world: 77, createCharacter: { name: `Reqlog${Date.now() % 100_000}` } });
    const missing = await socket.waitFor('error', (data) => data.code !== 'INVALID_REQUEST');
    assert.equal(missing.data.code, 'WORLD_NOT_FOUND', JSON.stringify(missing.data));
    const notFound = lines().find((l) => l.msg === 'no open world with that number') as LogLine & { world?: number; listed?: unknown[]; lease?: unknown };
    assert.ok(notFound, 'the refusal is logged');
    assert.deepEqual([notFound.level, notFound.world, notFound.listed, notFound.lease], [30, 77, [], undefined]);
    socket.socket.close();
    for (let i = 0; i < 100 && !lines().some((l) => l.msg === 'ws connection closed'); i++) await sleep(20);
    const wsLines = lines().filter((l) => typeof l.connId === 'string');
    assert.deepEqual([...new Set(wsLines.map((l) => l.msg))].sort(), ['ws authenticated', 'ws connection closed', 'ws connection opened', 'ws event refused']);
    const refusal = wsLines.find((l) => l.msg === 'ws event refused') as LogLine & { code?: string; event?: string };
    assert.deepEqual([refusal.code, refusal.event], [refused.data.code, 'world:enter']);
    assert.equal(new Set(wsLines.map((l) => l.connId)).size, 1, 'one connection, one id');
    assert.match(wsLines[0].connId!, UUID);

    const everything = raw.join('');
    assert.ok(requestLines().length >= 4);
    for (const [what, value] of [['bearer token', token], ['token signature', token.split('.')[2]], ['query token', secretQuery],
      ['cookie', 'cookie-secret-1a2b3c4d'], ['admin code', 'admin-code-reqlog-7c1d']] as const) {
      assert.ok(!everything.includes(value), `the ${what} is in the logs`);
    }
    assert.ok(!/authorization/i.test(everything), 'no Authorization header is serialised');
  });

  it('redacts query values except the known harmless ones', () => {
    assert.equal(loggedUrl('/a?token=abc&limit=5&offset=10&characterId=c1&code=xyz&flag'), '/a?token=[redacted]&limit=5&offset=10&characterId=c1&code=[redacted]&flag');
    assert.equal(loggedUrl('/plain/path'), '/plain/path');
  });
});

describe('request logs below the logger level', () => {
  async function serve(level: string, handler: http.RequestListener) {
    const raw: string[] = [];
    const logger = createLogger({ nodeEnv: 'test', logLevel: level }, { write: (line: string) => { raw.push(line); } });
    const log = createRequestLogger(logger);
    const server = http.createServer((req, res) => {
      log(req, res);
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { raw, base, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it('at warn: ids still answered, successes not logged, failures logged at error without secrets', async () => {
    const target = await serve('warn', (req, res) => {
      // A handler logging through req.log gets the request id.
      if (req.url?.startsWith('/fail')) (req as unknown as { log: { warn(msg: string): void } }).log.warn('handler trouble');
      res.statusCode = req.url?.startsWith('/fail') ? 500 : 200;
      res.end('x');
    });
    try {
      const ok = await fetch(`${target.base}/ok`);
      assert.match(ok.headers.get('x-request-id') ?? '', UUID);
      const failed = await fetch(`${target.base}/fail?token=quiet-secret-55aa&limit=3`, { headers: { 'X-Request-Id': 'trace-77' } });
      assert.equal(failed.headers.get('x-request-id'), 'trace-77');
      await sleep(50);
      const lines = target.raw.map((line) => JSON.parse(line) as LogLine);
      assert.deepEqual(lines.map((l) => [l.level, l.msg, l.reqId]), [[40, 'handler trouble', 'trace-77'], [50, 'GET /fail 500 failed', 'trace-77']]);
      assert.deepEqual(lines[1].req, { id: 'trace-77', method: 'GET', url: '/fail?token=[redacted]&limit=3' });
      assert.equal(lines[1].res?.statusCode, 500);
      assert.equal(typeof lines[1].durationMs, 'number');
      assert.ok(!target.raw.join('').includes('quiet-secret-55aa'));
    } finally {
      await target.close();
    }
  });

  it('at info: requests logged, probes (debug) not', async () => {
    const target = await serve('info', (_req, res) => res.end('ok'));
    try {
      await fetch(`${target.base}/health`);
      await fetch(`${target.base}/api/thing`);
      await sleep(50);
      assert.deepEqual(target.raw.map((line) => (JSON.parse(line) as LogLine).msg), ['GET /api/thing 200']);
    } finally {
      await target.close();
    }
  });
});

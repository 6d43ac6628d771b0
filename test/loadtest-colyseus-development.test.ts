/**
 * Issue #35, item 2: the README's `npm run loadtest:colyseus -- --numClients 50 --duration 60` works on a default
 * `npm start` (development, embedded database, no limit variable set). It used to connect 8 bots and have 42
 * refused 429 by the authentication limit, which then blocked the address for a minute, an admin's /metrics too.
 * Run here with the README's arguments, a shorter --duration (every bot has joined long before) and --endpoint
 * (this test's server is not on port 5555).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT, spawnServer, waitForHealth, type ServerProcess } from './helpers/process.ts';

const DURATION_SECONDS = 20;

describe('npm run loadtest:colyseus, as the README gives it, against a development server @db', function () {
  this.timeout(300_000);
  let dir: string;
  let server: ServerProcess | undefined;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colyseus-readme-'));
    // `npm start` on a fresh clone: NODE_ENV unset (development), no limit variable, no JWT_SECRET.
    server = await spawnServer({
      NODE_ENV: undefined, LOG_LEVEL: 'warn', DATABASE_URL: process.env.DATABASE_URL,
      PGLITE_DATA_DIR: path.join(dir, 'pglite'), JWT_DEV_SECRET_FILE: path.join(dir, 'jwt-dev-secret'),
    });
    await waitForHealth(server, 120_000);
  });
  after(async () => {
    if (server) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('connects all 50 bots, fails none, and leaves the address unblocked', async () => {
    const outputFile = path.join(dir, 'run.log');
    const child = spawn('npm', ['run', '--silent', 'loadtest:colyseus', '--', '--numClients', '50', '--duration', String(DURATION_SECONDS),
      '--endpoint', server!.baseUrl, '--output', outputFile], {
      cwd: PROJECT_ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'dumb' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const safety = setTimeout(() => child.kill('SIGKILL'), (DURATION_SECONDS + 90) * 1000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(safety);
    assert.equal(code, 0, output.slice(-2000));
    const summary = fs.readFileSync(outputFile, 'utf8');
    const count = (label: string) => Number(new RegExp(`${label}: (\\d+)`).exec(summary)?.[1]);
    assert.equal(count('Successful connections'), 50, summary);
    assert.equal(count('Failed connections'), 0, summary);
    // The address is not blocked afterwards: one more login from it is answered.
    const login = await fetch(`${server!.baseUrl}/api/auth/anonymous`, { method: 'POST' });
    assert.equal(login.status, 201, await login.text());
  });
});

/**
 * Issue #35, item 3: in development without JWT_SECRET the signing secret is generated once and kept in the data
 * directory (mode 0600), so tokens outlive a restart (`npm run dev` restarts on every save); production never
 * writes it. The README's admin path — `npm run admin -- grant <accountId>`, then refresh the account's token —
 * works as written, and `npm run admin -- create` is development's one step to an admin token.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { serverSigningSecret } from '../../src/auth/tokens.ts';
import { PROJECT_ROOT, runCommand, spawnServer, waitForHealth, type CommandResult, type ServerProcess } from '../helpers/process.ts';


const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

describe('development keeps its signing secret; the README\'s admin path works @db', function () {
  this.timeout(600_000); // several server starts and operator commands, each opening the database
  let dir: string;
  let env: Record<string, string | undefined>;
  let server: ServerProcess | undefined;

  /** The server as `npm start` runs it, in development (no JWT_SECRET), on the data directory of this test. */
  async function start(): Promise<ServerProcess> {
    const started = await spawnServer({ ...env, LOG_LEVEL: 'warn' });
    await waitForHealth(started, 120_000);
    return started;
  }
  async function stop(): Promise<void> {
    if (!server) return;
    server.child.kill('SIGTERM');
    const { code } = await server.exited;
    assert.equal(code, 0, server.output());
    server = undefined;
  }

  /** `npm run admin -- <args>` exactly as the README writes it, bounded in time. */
  function npmAdmin(...args: string[]): Promise<CommandResult> {
    return runCommand('npm', ['run', '--silent', 'admin', '--', ...args], env, 180_000);
  }

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'development-secret-'));
    env = {
      PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'development', LOG_LEVEL: 'silent',
      PGLITE_DATA_DIR: path.join(dir, 'pglite'), JWT_DEV_SECRET_FILE: path.join(dir, 'jwt-dev-secret'),
      DATABASE_URL: process.env.DATABASE_URL,
    };
  });
  after(async () => {
    await stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a token issued before a restart is still accepted after it; the secret is a private file', async () => {
    server = await start();
    const session = await (await fetch(`${server.baseUrl}/api/auth/anonymous`, { method: 'POST' })).json() as { token: string };
    await stop();
    server = await start();
    const me = await fetch(`${server.baseUrl}/api/auth/me`, bearer(session.token));
    assert.equal(me.status, 200, `the token survives the restart: ${await me.text()}`);
    await stop();
    const stat = fs.statSync(env.JWT_DEV_SECRET_FILE!);
    assert.equal(stat.mode & 0o777, 0o600, 'only its owner may read the kept secret');
    assert.ok(fs.readFileSync(env.JWT_DEV_SECRET_FILE!, 'utf8').trim().length >= 43, 'at least 32 random bytes');
  });

  it('production and test never keep a secret in a file', () => {
    const file = path.join(dir, 'never-written');
    const production = loadConfig({
      NODE_ENV: 'production', DATABASE_URL: 'postgres://game@db/game', JWT_SECRET: 'p'.repeat(48), ADMIN_CODE: 'a',
      PUBLIC_IDP_APP_ID: 'i', IDP_APP_SECRET: 's', PUBLIC_API_URL: 'https://api.game.example',
      PUBLIC_WS_URL: 'wss://api.game.example/ws', PUBLIC_CDN_URL: 'https://cdn.game.example', JWT_DEV_SECRET_FILE: file,
    }, PROJECT_ROOT).config;
    assert.equal(serverSigningSecret(production).secret, 'p'.repeat(48));
    const test = loadConfig({ NODE_ENV: 'test', JWT_DEV_SECRET_FILE: file }, PROJECT_ROOT).config;
    assert.equal(serverSigningSecret(test).source, 'process');
    assert.equal(fs.existsSync(file), false);
  });

  it('README: `npm run admin -- grant <accountId>`, then refresh the account\'s token, opens the monitor', async () => {
    server = await start();
    const guest = await (await fetch(`${server.baseUrl}/api/auth/anonymous`, { method: 'POST' })).json() as { token: string; accountId: string };
    await stop(); // the embedded database opens in one process at a time (README, docs/operations.md)
    const granted = await npmAdmin('grant', guest.accountId);
    assert.equal(granted.code, 0, granted.stderr);
    server = await start();
    const refreshed = await fetch(`${server.baseUrl}/api/auth/refresh`, { method: 'POST', ...bearer(guest.token) });
    assert.equal(refreshed.status, 200, `POST /api/auth/refresh with the account's token: ${await refreshed.clone().text()}`);
    const session = await refreshed.json() as { token: string; roles: string[] };
    assert.ok(session.roles.includes('admin'));
    assert.equal((await fetch(`${server.baseUrl}/colyseus/api`, bearer(session.token))).status, 200, 'the monitor opens');
    await stop();
  });

  it('development\'s one step: `npm run admin -- create` prints an admin token the server accepts', async () => {
    const created = await npmAdmin('create');
    assert.equal(created.code, 0, created.stderr);
    const token = created.stdout.trim().split('\n').at(-1)!;
    server = await start();
    assert.equal((await fetch(`${server.baseUrl}/colyseus/api`, bearer(token))).status, 200, `the monitor opens with ${created.stdout}`);
    const me = await (await fetch(`${server.baseUrl}/api/auth/me`, bearer(token))).json() as { roles: string[]; temporary: boolean };
    assert.deepEqual([me.roles.includes('admin'), me.temporary], [true, false]);
    await stop();
  });
});

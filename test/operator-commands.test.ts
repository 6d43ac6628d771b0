/**
 * The operator commands, run as an operator runs them (`node src/tools/….ts`, the npm scripts' commands) against
 * the server's own embedded database while the server is stopped: `mint-tokens` (load-test tokens the server
 * accepts) and `admin` (the only way to an admin account in anonymous mode, which the monitor needs).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT, runCommand, type CommandResult } from './helpers/process.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';


function bearer(token: string): { headers: Record<string, string> } {
  return { headers: { Authorization: `Bearer ${token}` } };
}

describe('operator commands: npm run mint-tokens and npm run admin @db', function () {
  this.timeout(600_000); // each command opens the embedded database in a new process (seconds each; more on a busy machine)
  let dir: string;
  let env: Record<string, string | undefined>;
  let server: TestServer | undefined;

  /** One command as a child process, bounded in time. */
  function run(script: string, ...args: string[]): Promise<CommandResult> {
    return runCommand(process.execPath, [script, ...args], env, 180_000);
  }
  const admin = (...args: string[]) => run('src/tools/admin.ts', ...args);
  const start = () => startTestServer({ PGLITE_DATA_DIR: env.PGLITE_DATA_DIR, JWT_SECRET: env.JWT_SECRET });

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'operator-commands-'));
    env = {
      PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', LOG_LEVEL: 'silent',
      PGLITE_DATA_DIR: path.join(dir, 'pglite'), JWT_SECRET: 'operator-commands-secret-9f8e7d', DATABASE_URL: process.env.DATABASE_URL,
    };
  });
  after(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  let minted: string[];
  let guest: { token: string; accountId: string };

  it('mint-tokens makes accounts and writes tokens the server accepts', async () => {
    const file = path.join(dir, 'tokens.txt');
    const result = await run('src/tools/mint-tokens.ts', '--count', '3', '--ttl', '600', '--out', file);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^3 load-test accounts and tokens, valid until .*, written to /);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'the token file is private');
    minted = fs.readFileSync(file, 'utf8').trim().split('\n');
    assert.equal(minted.length, 3);

    server = await start();
    for (const token of minted) {
      const me = await fetch(`${server.baseUrl}/api/auth/me`, bearer(token));
      assert.equal(me.status, 200);
      const body = await me.json() as { temporary: boolean; roles: string[] };
      assert.deepEqual([body.temporary, body.roles], [true, ['player']]);
    }
    const session = await (await fetch(`${server.baseUrl}/api/auth/anonymous`, { method: 'POST' })).json() as { token: string; accountId: string };
    guest = { token: session.token, accountId: session.accountId };
    assert.equal((await fetch(`${server.baseUrl}/colyseus/api`, bearer(guest.token))).status, 403, 'no admin yet');
    await server.close();
    server = undefined;
  });

  it('refuses bad input with a message and exit code 1, changing nothing', async () => {
    for (const [args, message] of [
      [['grant'], /usage: npm run admin/],
      [['promote', 'x'], /usage: npm run admin/],
      [['grant', 'no-such-account'], /no account with id "no-such-account"/],
      [['token', guest.accountId], /does not have the admin role: grant it first/],
    ] as const) {
      const result = await admin(...args);
      assert.equal(result.code, 1, args.join(' '));
      assert.match(result.stderr, message);
    }
    assert.equal((await run('src/tools/mint-tokens.ts', '--count', '0')).code, 1);
  });

  it('admin grant makes a temporary identity a permanent admin; its next token carries the role', async () => {
    const granted = await admin('grant', guest.accountId);
    assert.equal(granted.code, 0, granted.stderr);
    assert.match(granted.stdout, /admin granted to .*"admin".*the temporary identity is now a permanent account/s);
    // One line per admin; on a shared PostgreSQL other suites' admins are listed too.
    assert.match((await admin('list')).stdout, new RegExp(`^${guest.accountId}\\t`, 'm'));
    const issued = await admin('token', guest.accountId);
    assert.equal(issued.code, 0, issued.stderr);
    const operatorToken = issued.stdout.trim();

    server = await start();
    const refreshed = await fetch(`${server.baseUrl}/api/auth/refresh`, { method: 'POST', ...bearer(guest.token) });
    assert.equal(refreshed.status, 200);
    const session = await refreshed.json() as { token: string; roles: string[]; temporary: boolean };
    assert.deepEqual([session.roles.includes('admin'), session.temporary], [true, false]);
    for (const token of [session.token, operatorToken]) {
      assert.equal((await fetch(`${server.baseUrl}/colyseus/api`, bearer(token))).status, 200, 'the monitor opens');
    }
    await server.close();
    server = undefined;

    const revoked = await admin('revoke', guest.accountId);
    assert.match(revoked.stdout, /admin revoked from/);
  });
});

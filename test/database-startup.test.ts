/**
 * Issue #35, item 4: production does not start against a database it was not meant for. A misspelt database name
 * in DATABASE_URL used to create and migrate a new, empty database without a word; an existing database without the
 * server's schema was migrated alike. Production now refuses both unless DATABASE_INIT=true asks for it (a first
 * deployment). An unreachable database stops any mode with one line naming DATABASE_URL and the address tried, no
 * stack trace (it used to be a raw ECONNREFUSED stack).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createScratchDatabase, psql, type ScratchDatabase } from '../loadtest/lib/postgres.ts';
import { freePort, spawnServer, waitForHealth, type ServerProcess } from './helpers/process.ts';

const LOCAL_POSTGRES = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** What production needs besides DATABASE_URL (the public addresses are not loopback; manifests from the cache). */
const PRODUCTION = {
  NODE_ENV: 'production', JWT_SECRET: `database-startup-${randomUUID()}`, ADMIN_CODE: 'database-startup-admin',
  PUBLIC_IDP_APP_ID: 'database-startup-app', IDP_APP_SECRET: 'database-startup-idp',
  PUBLIC_API_URL: 'https://game-server.example', PUBLIC_WS_URL: 'wss://game-server.example/ws', PUBLIC_CDN_URL: 'https://assets.invalid',
  LOG_LEVEL: 'info',
};

function urlOf(name: string): string {
  const url = new URL(LOCAL_POSTGRES);
  url.pathname = `/${name}`;
  return url.toString();
}

async function databaseExists(name: string): Promise<boolean> {
  return (await psql(LOCAL_POSTGRES, `select count(*) from pg_database where datname = '${name}'`)) === '1';
}

/** A server process that must stop by itself; resolves with its exit code and output (bounded: 120 s). */
async function refusedStart(env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  const server = await spawnServer(env);
  const safety = setTimeout(() => server.child.kill('SIGKILL'), 120_000);
  const { code } = await server.exited;
  clearTimeout(safety);
  return { code, output: server.output() };
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

describe('production refuses a database it was not meant for @db', function () {
  this.timeout(300_000);
  let reachable = false;
  const created: string[] = [];
  const scratch: ScratchDatabase[] = [];

  before(async () => {
    reachable = await psql(LOCAL_POSTGRES, 'select 1').then(() => true, () => false);
  });
  beforeEach(function () {
    if (!reachable) {
      console.log(`      (skipped: no PostgreSQL at ${new URL(LOCAL_POSTGRES).host}; set TEST_POSTGRES_ADMIN_URL to run this suite)`);
      this.skip();
    }
  });
  after(async () => {
    for (const name of created) await psql(LOCAL_POSTGRES, `drop database if exists ${name} with (force)`).catch(() => {});
    for (const database of scratch) await database.drop().catch(() => {});
  });

  it('does not create a database DATABASE_URL names but that does not exist, and says what to do', async () => {
    const name = `fh_missing_${randomUUID().replaceAll('-', '').slice(0, 10)}`;
    created.push(name);
    const { code, output } = await refusedStart({ ...PRODUCTION, DATABASE_URL: urlOf(name) });
    assert.equal(code, 1, output);
    assert.match(output, new RegExp(`DATABASE_URL names database .*${name}.* which does not exist.*DATABASE_INIT=true`));
    assert.equal(await databaseExists(name), false, 'no database was created');
  });

  it('does not set up its schema in an existing database that holds none', async () => {
    const empty = await createScratchDatabase(LOCAL_POSTGRES, 'fh_empty');
    scratch.push(empty);
    const { code, output } = await refusedStart({ ...PRODUCTION, DATABASE_URL: empty.url });
    assert.equal(code, 1, output);
    assert.match(output, /DATABASE_URL.*holds no schema of this server.*DATABASE_INIT=true/);
    assert.equal(await psql(empty.url, "select count(*) from information_schema.tables where table_schema = 'public'"), '0', 'no table was made');
  });

  it('creates and migrates it when the operator asks with DATABASE_INIT=true, and starts', async () => {
    const name = `fh_init_${randomUUID().replaceAll('-', '').slice(0, 10)}`;
    created.push(name);
    const server = await spawnServer({ ...PRODUCTION, DATABASE_URL: urlOf(name), DATABASE_INIT: 'true' });
    try {
      await waitForHealth(server, 120_000);
    } finally {
      await stop(server);
    }
    assert.equal(await databaseExists(name), true);
    // The next start needs no DATABASE_INIT: the schema is there.
    const again = await spawnServer({ ...PRODUCTION, DATABASE_URL: urlOf(name) });
    try {
      await waitForHealth(again, 120_000);
    } finally {
      await stop(again);
    }
  });
});

describe('an unreachable database stops the server with one line naming DATABASE_URL', function () {
  this.timeout(120_000);

  for (const mode of ['development', 'production'] as const) {
    it(`in ${mode}: the address tried, no stack trace`, async () => {
      const port = await freePort(); // nothing listens there
      const env = mode === 'production' ? { ...PRODUCTION, LOG_LEVEL: 'info' } : { NODE_ENV: 'development', LOG_LEVEL: 'info' };
      const { code, output } = await refusedStart({ ...env, DATABASE_URL: `postgres://game:hunter2@127.0.0.1:${port}/game` });
      assert.equal(code, 1, output);
      const lines = output.split('\n').filter((line) => line.includes('DATABASE_URL'));
      assert.equal(lines.length, 1, output);
      assert.match(lines[0], new RegExp(`the database at 127\\.0\\.0\\.1:${port} \\(DATABASE_URL, .*ECONNREFUSED`));
      assert.doesNotMatch(output, /^\s+at /m, 'no stack trace');
      assert.doesNotMatch(output, /hunter2/, 'the password is not printed');
    });
  }
});

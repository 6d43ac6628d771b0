/**
 * Two real server processes on the local Redis and a scratch PostgreSQL database of their own (on DATABASE_URL's
 * server, or the local one), dropped after, for the scale-out suites. Never DATABASE_URL's database itself: the
 * suites before them leave world rows whose leases a live in-process server may still be renewing, and the suites
 * assert which world numbers their processes open. `start` returns undefined when Redis or PostgreSQL is missing
 * (the suite skips itself); `stop` ends the processes, closes `db` and drops the scratch database.
 */
import { randomUUID } from 'node:crypto';
import { adminUrl, createScratchDatabase, type ScratchDatabase } from '../../loadtest/lib/postgres.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { Character } from '../../src/db/entities/index.ts';
import { uniqueName } from './database.ts';
import { spawnServer, waitForHealth, type ServerProcess } from './process.ts';
import { noRedisSkipNote, redisAnswers, TEST_REDIS_URL } from './redis.ts';

const LOCAL_POSTGRES = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TwoProcesses {
  readonly servers: [ServerProcess, ServerProcess];
  /** The shared database, for the tests' own rows and checks. */
  readonly db: Database;
  /** A character of the account placed at a world position (as if it had played); its id. */
  character(accountId: string, at: { x: number; z: number }): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A scratch database on DATABASE_URL's server, or the local one; undefined (saying why, for the suite's skip) when
 * no PostgreSQL is reachable.
 */
export async function scratchPostgres(suite: string): Promise<ScratchDatabase | undefined> {
  const server = process.env.DATABASE_URL ? adminUrl(process.env.DATABASE_URL) : LOCAL_POSTGRES;
  const database = await createScratchDatabase(server, suite.replace(/[^a-z]/g, '')).catch(() => undefined);
  if (!database) console.log(`      (skipped: no PostgreSQL reachable; set DATABASE_URL to run the ${suite} suite)`);
  return database;
}

export async function startTwoProcesses(suite: string, env: Record<string, string>): Promise<TwoProcesses | undefined> {
  if (!(await redisAnswers())) {
    noRedisSkipNote(`the ${suite} suite`);
    return undefined;
  }
  const database = await scratchPostgres(suite);
  if (!database) return undefined;
  const run = randomUUID().slice(0, 8);
  const shared = {
    REDIS_URL: TEST_REDIS_URL, DATABASE_URL: database.url, CLUSTER_KEY_PREFIX: `test-${run}:`, RATE_LIMIT_KEY_PREFIX: `test-${run}`,
    JWT_SECRET: `${suite.replace(/[^a-z]/g, '')}-test-secret-${run}-0123456789abcdef`, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', ...env,
  };
  // One after the other: the first opens the standing worlds, the second finds them listed through Redis.
  const first = await spawnServer(shared);
  await waitForHealth(first, 60_000);
  const second = await spawnServer(shared);
  await waitForHealth(second, 60_000);
  const db = await openDatabase({ databaseUrl: database.url, pgliteDataDir: 'memory://', poolSize: 2 });
  const servers: [ServerProcess, ServerProcess] = [first, second];
  return {
    servers,
    db,
    async character(accountId, at) {
      const em = db.em.fork();
      const row = em.create(Character, { id: randomUUID(), accountId, name: uniqueName('c'), positionX: at.x, positionZ: at.z, lastLoginAt: new Date() });
      await em.flush();
      return row.id;
    },
    async stop() {
      for (const server of servers) server.child.kill('SIGTERM');
      await Promise.all(servers.map((server) => server.exited));
      await db.close();
      await database.drop();
    },
  };
}

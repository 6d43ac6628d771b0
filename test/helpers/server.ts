/**
 * Starts the real server in this process on an ephemeral port. Without DATABASE_URL each server gets its own
 * in-memory PGlite started from one migrated image (built once per test run); with DATABASE_URL all servers
 * share that PostgreSQL database, so tests create their own uniquely named rows.
 */
import { loadConfig } from '../../src/config.ts';
import { buildPgliteTemplate } from '../../src/db/database.ts';
import { createLogger } from '../../src/logger.ts';
import { startServer, type GameServer } from '../../src/server.ts';

let template: Promise<Blob> | undefined;

export function pgliteTemplate(): Promise<Blob> {
  template ??= buildPgliteTemplate();
  return template;
}

export function databaseUnderTest(): 'postgresql' | 'pglite' {
  return process.env.DATABASE_URL ? 'postgresql' : 'pglite';
}

export interface TestServer extends GameServer {
  readonly baseUrl: string;
  readonly wsUrl: string;
}

/** The test environment: NODE_ENV=test, port 0, plus the given variables. */
export function testEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: process.env.DATABASE_URL,
    ...overrides,
  };
}

export async function startTestServer(overrides: Record<string, string | undefined> = {}): Promise<TestServer> {
  const { config } = loadConfig(testEnv(overrides));
  const logger = createLogger(config);
  const server = await startServer({
    config,
    logger,
    // A given PGLITE_DATA_DIR means a database that outlives the server (restart tests).
    pgliteTemplate: config.databaseUrl || overrides.PGLITE_DATA_DIR ? undefined : await pgliteTemplate(),
  });
  return {
    ...server,
    baseUrl: `http://127.0.0.1:${server.port}`,
    wsUrl: `ws://127.0.0.1:${server.port}`,
  };
}

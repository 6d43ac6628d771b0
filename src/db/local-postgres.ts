/**
 * USE_LOCAL_POSTGRES=true (development only): start a PostgreSQL container when a container engine answers,
 * otherwise say so and let the server continue on the embedded database.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Logger } from '../logger.ts';

const run = promisify(execFile);
const CONTAINER = 'game-server-postgres';
const IMAGE = 'postgres:15-alpine';
const HOST_PORT = 54329;

export async function startLocalPostgres(logger: Logger, engine = 'docker'): Promise<string | undefined> {
  try {
    await run(engine, ['info', '--format', '{{.ServerVersion}}'], { timeout: 5_000 });
  } catch {
    logger.warn(`USE_LOCAL_POSTGRES=true but no container engine (${engine}) is available; continuing on the embedded database`);
    return undefined;
  }
  try {
    await run(engine, ['start', CONTAINER], { timeout: 15_000 }).catch(() =>
      run(engine, ['run', '-d', '--name', CONTAINER, '-e', 'POSTGRES_PASSWORD=game', '-e', 'POSTGRES_DB=game',
        '-p', `127.0.0.1:${HOST_PORT}:5432`, IMAGE], { timeout: 120_000 }));
    logger.info({ container: CONTAINER, port: HOST_PORT }, 'local PostgreSQL container running');
    return `postgres://postgres:game@127.0.0.1:${HOST_PORT}/game`;
  } catch (error) {
    logger.warn({ err: error }, 'could not start the local PostgreSQL container; continuing on the embedded database');
    return undefined;
  }
}

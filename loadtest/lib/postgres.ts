/** psql on the local PostgreSQL for the harnesses and tests that need a database of their own (loopback only). */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs one SQL command; resolves with its unaligned, tuples-only output. */
export async function psql(url: string, sql: string): Promise<string> {
  const { stdout } = await run('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql], { timeout: 60_000 });
  return stdout.trim();
}

/** The same server as `databaseUrl`, its `postgres` maintenance database. */
export function adminUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Creates a uniquely named database on the server of `adminUrl`; rejects when that server cannot be reached. */
export async function createScratchDatabase(adminUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await psql(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: async () => void await psql(adminUrl, `drop database if exists ${name} with (force)`) };
}

/** Opens the database under test directly (no server): in-memory PGlite from the template, or DATABASE_URL. */
import { randomUUID } from 'node:crypto';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { pgliteTemplate } from './server.ts';

export async function openTestDatabase(): Promise<Database> {
  const databaseUrl = process.env.DATABASE_URL;
  return openDatabase({
    databaseUrl,
    pgliteDataDir: 'memory://',
    pgliteTemplate: databaseUrl ? undefined : await pgliteTemplate(),
    poolSize: 4,
  });
}

/** A name unique across test runs sharing one PostgreSQL database (at most 12 characters). */
export function uniqueName(prefix = 'p'): string {
  return `${prefix}${randomUUID().replaceAll('-', '').slice(0, 11 - prefix.length)}`.slice(0, 12);
}

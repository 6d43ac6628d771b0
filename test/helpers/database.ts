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

/**
 * On a PostgreSQL the suites share (DATABASE_URL), the ground items and open gravestones earlier suites left in the
 * worlds numbered above `standing`: a world the matchmaker opens takes over what its number holds, and stays open
 * while it holds anything (docs/worlds.md), so a suite that watches such a world empty and close starts without
 * them. A fresh embedded database has none; nothing is deleted there. A PostgreSQL no server has run on yet is
 * migrated first, as the server would (the suite's first file failed on a fresh database: no ground_items table).
 */
export async function clearLeftoversAbove(standing: number): Promise<void> {
  if (!process.env.DATABASE_URL) return;
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, pgliteDataDir: 'memory://', runMigrations: true, poolSize: 1 });
  try {
    const connection = db.em.getConnection();
    await connection.execute('delete from ground_items where world > ?', [standing]);
    await connection.execute(`delete from player_deaths where world > ? and status = 'locked'`, [standing]);
  } finally {
    await db.close();
  }
}

/**
 * Opens the database (step 3): PostgreSQL when DATABASE_URL is set, embedded PGlite otherwise.
 * One entity set and one migration set serve both; migrations run on open.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import type { MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { ENTITIES } from './entities/index.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { acquireDirectoryLock } from './pglite-lock.ts';

export type DatabaseKind = 'postgresql' | 'pglite';

export interface Database {
  readonly kind: DatabaseKind;
  readonly orm: MikroORM;
  /** The global entity manager: always `fork()` it (or use `transactional`) per unit of work. */
  readonly em: SqlEntityManager;
  /** Names of the migrations this open applied. */
  readonly appliedMigrations: string[];
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** Directory of the embedded database, or `memory://` for an in-memory one. */
  pgliteDataDir: string;
  /** A `dumpDataDir()` image to start an in-memory PGlite from (tests: skips initdb and migrations). */
  pgliteTemplate?: Blob;
  poolSize?: number;
  runMigrations?: boolean;
}

const sharedOptions = {
  entities: ENTITIES,
  extensions: [Migrator],
  migrations: {
    migrationsList: MIGRATIONS,
    snapshotName: '.snapshot-game',
    // Migrations are diffed against a freshly migrated database (create-migration.ts), so no snapshot file is
    // kept, and starting a server never writes into the source tree.
    snapshot: false,
    snapshotOnMigrate: false,
    path: 'src/db/migrations',
    emit: 'ts' as const,
    transactional: true,
    allOrNothing: true,
    silent: true,
  },
  allowGlobalContext: false,
  debug: false,
};

async function openPglite(options: DatabaseOptions): Promise<{ orm: MikroORM; release: () => void; pglite: PGlite }> {
  const inMemory = options.pgliteDataDir.startsWith('memory://');
  let release = () => {};
  if (!inMemory) {
    fs.mkdirSync(path.dirname(options.pgliteDataDir), { recursive: true });
    fs.mkdirSync(options.pgliteDataDir, { recursive: true });
    release = acquireDirectoryLock(options.pgliteDataDir);
  }
  try {
    const pglite = await PGlite.create({
      dataDir: inMemory ? undefined : options.pgliteDataDir,
      loadDataDir: inMemory ? options.pgliteTemplate : undefined,
    });
    const orm = await PgliteORM.init({ ...sharedOptions, dbName: 'game', driverOptions: { pglite } });
    return { orm: orm as unknown as MikroORM, release, pglite };
  } catch (error) {
    release();
    throw error;
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let orm: MikroORM;
  let kind: DatabaseKind;
  let afterClose: () => Promise<void> = async () => {};

  if (options.databaseUrl) {
    kind = 'postgresql';
    orm = (await PostgresORM.init({
      ...sharedOptions,
      clientUrl: options.databaseUrl,
      pool: { min: 0, max: options.poolSize ?? 10 },
    })) as unknown as MikroORM;
  } else {
    kind = 'pglite';
    const opened = await openPglite(options);
    orm = opened.orm;
    afterClose = async () => {
      await opened.pglite.close();
      opened.release();
    };
  }

  let appliedMigrations: string[] = [];
  try {
    if (options.runMigrations !== false) appliedMigrations = (await orm.migrator.up()).map((m) => m.name);
  } catch (error) {
    await orm.close(true);
    await afterClose();
    throw error;
  }

  let closed = false;
  return {
    kind,
    orm,
    em: orm.em as SqlEntityManager,
    appliedMigrations,
    async close() {
      if (closed) return;
      closed = true;
      await orm.close(true);
      await afterClose();
    },
  };
}

/** Starts an in-memory PGlite, migrates it and returns its image: later opens from it skip initdb and migrations. */
export async function buildPgliteTemplate(): Promise<Blob> {
  const pglite = await PGlite.create();
  const orm = await PgliteORM.init({ ...sharedOptions, dbName: 'game', driverOptions: { pglite } });
  await orm.migrator.up();
  await orm.close(true);
  const image = await pglite.dumpDataDir('none');
  await pglite.close();
  return image;
}

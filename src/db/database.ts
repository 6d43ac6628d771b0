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
import { guardPool } from './pool-guard.ts';

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
  /**
   * PostgreSQL: a session left idle inside a transaction this long is ended by the server, which rolls the
   * transaction back and frees its locks. A process stalled mid-transaction (a long GC pause, SIGSTOP, a frozen VM)
   * would otherwise hold its world row's lock for as long as it is stalled, and every takeover of the world would
   * wait that long (docs/scaling.md). Transactions here are a few statements that never wait on a client.
   */
  idleInTransactionMs?: number;
  runMigrations?: boolean;
  /**
   * PostgreSQL: what to do when DATABASE_URL names a database that does not exist, or one without this server's
   * schema (no migrations table): `create` it and its schema (development, test, and production with
   * DATABASE_INIT=true), or `refuse` to start (production: a misspelt name must not become a new empty database).
   */
  whenMissing?: 'create' | 'refuse';
}

/**
 * The database cannot be used as DATABASE_URL says: unreachable, refused, missing, or without the server's schema.
 * Its message is one line naming DATABASE_URL and the address tried (never the password); main.ts prints it
 * without a stack trace, as a configuration error.
 */
export class DatabaseStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseStartError';
  }
}

/** MikroORM's default name for the table of applied migrations: its absence means "no schema of this server". */
const MIGRATIONS_TABLE = 'mikro_orm_migrations';

/** Errors of reaching or entering the server rather than of what the server does. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);
const LOGIN_CODES = new Set(['28P01', '28000']); // invalid_password, invalid_authorization_specification
const MISSING_DATABASE = '3D000'; // invalid_catalog_name

/** host:port and database name of a connection string, never its credentials. */
function describeUrl(databaseUrl: string): { address: string; database: string } {
  const url = new URL(databaseUrl);
  const host = decodeURIComponent(url.hostname) || 'localhost';
  return { address: `${host}:${url.port || '5432'}`, database: decodeURIComponent(url.pathname.replace(/^\//, '')) || url.username || 'postgres' };
}

/** The one-line DatabaseStartError for a failure to reach or enter the database; undefined for anything else. */
function startErrorOf(error: unknown, databaseUrl: string): DatabaseStartError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  const { address, database } = describeUrl(databaseUrl);
  if (CONNECTION_CODES.has(code)) {
    return new DatabaseStartError(`could not connect to the database at ${address} (DATABASE_URL, database "${database}"): ${code} — `
      + 'is PostgreSQL running there and reachable from this machine?');
  }
  if (LOGIN_CODES.has(code)) {
    return new DatabaseStartError(`the database at ${address} (DATABASE_URL, database "${database}") refused the login: `
      + `${(error as Error).message} (${code})`);
  }
  if (code === MISSING_DATABASE) {
    return new DatabaseStartError(`DATABASE_URL names database "${database}" on ${address}, which does not exist. Production does not `
      + 'create databases: correct the name, or set DATABASE_INIT=true once for a first deployment (it creates the database and its schema)');
  }
  return undefined;
}

/** Refuses a database without the migrations table (empty, or another application's) unless asked to set it up. */
async function assertHoldsSchema(orm: MikroORM, databaseUrl: string): Promise<void> {
  const [row] = await (orm.em as SqlEntityManager).getConnection().execute<Array<{ present: boolean }>>(
    'select to_regclass(?) is not null as present', [MIGRATIONS_TABLE]);
  if (row?.present) return;
  const { address, database } = describeUrl(databaseUrl);
  throw new DatabaseStartError(`DATABASE_URL names database "${database}" on ${address}, which holds no schema of this server (no `
    + `${MIGRATIONS_TABLE} table). Production does not set up a schema by itself: check the name, or set DATABASE_INIT=true once for a `
    + 'first deployment');
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
    const databaseUrl = options.databaseUrl;
    const refuse = options.whenMissing === 'refuse';
    try {
      orm = (await PostgresORM.init({
        ...sharedOptions,
        clientUrl: databaseUrl,
        pool: { min: 0, max: options.poolSize ?? 10 },
        driverOptions: {
          onPoolCreated: guardPool,
          ...(options.idleInTransactionMs ? { idle_in_transaction_session_timeout: options.idleInTransactionMs } : {}),
        },
        // MikroORM creates a missing database on connect by default: only when asked to.
        ensureDatabase: !refuse,
      })) as unknown as MikroORM;
    } catch (error) {
      throw startErrorOf(error, databaseUrl) ?? error;
    }
    try {
      if (refuse) await assertHoldsSchema(orm, databaseUrl);
    } catch (error) {
      await orm.close(true);
      throw startErrorOf(error, databaseUrl) ?? error;
    }
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
    // MikroORM connects lazily: an unreachable server may first show here.
    throw (options.databaseUrl && startErrorOf(error, options.databaseUrl)) || error;
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

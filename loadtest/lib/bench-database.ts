/**
 * The database a benchmark's game server runs on: a scratch database on the local PostgreSQL (`postgres`, the
 * production setup; BENCH_POSTGRES_ADMIN_URL names the server) or a fresh embedded PGlite directory (`pglite`).
 * `dispose` drops it; `stopOnSignals` runs a benchmark's cleanup when it is interrupted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScratchDatabase } from './postgres.ts';

export interface BenchDatabase {
  /** The server's environment for it (DATABASE_URL or PGLITE_DATA_DIR). */
  env: Record<string, string>;
  /** What openDatabase takes to seed it. */
  open: { databaseUrl?: string; pgliteDataDir: string };
  postgres: boolean;
  dispose(): Promise<void>;
}

export async function benchDatabase(kind: string, prefix: string): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${prefix}-`));
  const adminUrl = process.env.BENCH_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const scratch = kind === 'postgres' ? await createScratchDatabase(adminUrl, `${prefix}_bench`) : undefined;
  const pgliteDir = path.join(dataDir, 'db');
  return {
    env: scratch ? { DATABASE_URL: scratch.url } : { PGLITE_DATA_DIR: pgliteDir },
    open: scratch ? { databaseUrl: scratch.url, pgliteDataDir: 'memory://' } : { pgliteDataDir: pgliteDir },
    postgres: scratch !== undefined,
    dispose: async () => {
      await scratch?.drop().catch(() => {});
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `stop` and exits (130, 143) when the benchmark is interrupted or terminated. */
export function stopOnSignals(stop: () => Promise<void>): void {
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));
  process.once('SIGTERM', () => void stop().finally(() => process.exit(143)));
}

/**
 * The game server a load scenario runs against: seeded first (characters, items, tokens), then started as a
 * child process on a free loopback port. The embedded database lives in a temporary directory removed afterwards;
 * with DATABASE_URL (which must point to this machine) the scenario seeds and uses that PostgreSQL instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import type { GameData } from '../../src/manifests/game-data.ts';
import { loadBundledWorld } from './game-data.ts';
import { freePort, startServerProcess, type RunningServer } from './server-process.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface ScenarioServerOptions<S> {
  /** Extra server environment (limits, timeouts). */
  env?: Record<string, string>;
  seed(db: Database, data: GameData, config: Config, secret: string): Promise<S>;
}

export async function withScenarioServer<S, R>(options: ScenarioServerOptions<S>, body: (server: RunningServer, seeded: S, data: GameData) => Promise<R>): Promise<R> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl && !LOOPBACK.has(new URL(databaseUrl).hostname)) {
    throw new Error('load scenarios run on loopback only: DATABASE_URL must point to localhost');
  }
  const secret = `loadtest-${randomUUID()}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loadtest-'));
  const pgliteDir = path.join(dataDir, 'db');
  const storage: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : { PGLITE_DATA_DIR: pgliteDir };
  try {
    const data = loadBundledWorld();
    const { config } = loadConfig({ NODE_ENV: 'test', JWT_SECRET: secret, ...storage });
    const db = await openDatabase({ databaseUrl, pgliteDataDir: pgliteDir });
    let seeded: S;
    try {
      seeded = await options.seed(db, data, config, secret);
    } finally {
      await db.close();
    }
    const port = await freePort();
    const server = await startServerProcess(['src/start.js'], {
      NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', JWT_SECRET: secret, LOG_LEVEL: 'warn', ...storage, ...options.env,
    }, port);
    try {
      return await body(server, seeded, data);
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

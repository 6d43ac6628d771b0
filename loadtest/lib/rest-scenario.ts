/** REST throughput of the game server's routes against a bare Express route answering the same body. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { httpLoad, type HttpLoadResult } from './http-load.ts';
import { freePort, startServerProcess } from './server-process.ts';

export interface RestComparison {
  route: string;
  game: HttpLoadResult;
  bare: HttpLoadResult;
  ratio: number;
}

export async function compareRest(options: { concurrency: number; durationSeconds: number }): Promise<RestComparison[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-rest-'));
  const port = await freePort();
  const game = await startServerProcess(['src/start.js'], {
    NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', PGLITE_DATA_DIR: path.join(dataDir, 'db'), LOG_LEVEL: 'warn',
  }, port);
  const comparisons: RestComparison[] = [];
  try {
    const anonymous = await (await fetch(`${game.baseUrl}/api/auth/anonymous`, { method: 'POST' })).json() as { token: string };
    const auth = { Authorization: `Bearer ${anonymous.token}` };
    const routes: Array<{ route: string; headers?: Record<string, string> }> = [{ route: '/api/data/skill-unlocks' }];
    if ((await fetch(`${game.baseUrl}/api/v1/player`, { headers: auth })).status === 200) routes.push({ route: '/api/v1/player', headers: auth });
    for (const { route, headers } of routes) {
      const bodyFile = path.join(dataDir, 'body.json');
      fs.writeFileSync(bodyFile, Buffer.from(await (await fetch(`${game.baseUrl}${route}`, { headers })).arrayBuffer()));
      const barePort = await freePort();
      const bare = await startServerProcess(['loadtest/baseline/bare-express.ts', String(barePort), bodyFile], {}, barePort);
      try {
        // Warm both up, then measure one after the other on the same machine.
        await httpLoad(`${game.baseUrl}${route}`, { concurrency: options.concurrency, durationSeconds: 2, headers });
        await httpLoad(`${bare.baseUrl}/bare`, { concurrency: options.concurrency, durationSeconds: 2 });
        const gameResult = await httpLoad(`${game.baseUrl}${route}`, { ...options, headers });
        const bareResult = await httpLoad(`${bare.baseUrl}/bare`, options);
        comparisons.push({ route, game: gameResult, bare: bareResult, ratio: Math.round((gameResult.requestsPerSecond / bareResult.requestsPerSecond) * 100) / 100 });
      } finally {
        await bare.stop();
      }
    }
  } finally {
    await game.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return comparisons;
}

/** Milliseconds from spawning the server to its first /health 200: on a fresh data directory and on an existing one. */
export async function measureColdStart(repeats = 3): Promise<{ freshMs: number; existingMs: number[] }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cold-'));
  const env = (port: number) => ({ NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', PGLITE_DATA_DIR: path.join(dataDir, 'db'), LOG_LEVEL: 'warn' });
  try {
    let port = await freePort();
    const first = await startServerProcess(['src/start.js'], env(port), port);
    await first.stop();
    const existingMs: number[] = [];
    for (let i = 0; i < repeats; i++) {
      port = await freePort();
      const again = await startServerProcess(['src/start.js'], env(port), port);
      existingMs.push(Math.round(again.startedInMs));
      await again.stop();
    }
    return { freshMs: Math.round(first.startedInMs), existingMs };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Starts a server process for a benchmark on a free loopback port and stops it; bounded waits only. A server
 * outlives no load tool: it is stopped by `stop()`, by `stopAllServers()` (the tool's own bound or a signal), and
 * by itself once the tool is gone (orphan-guard.ts, for a tool killed with no chance to clean up).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The Node flags `npm start` gives the game server (package.json's start script is their one source; the Dockerfile
 * repeats them and a test keeps the two equal): benchmarks run the server as production does.
 */
export function gameNodeFlags(): string[] {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = scripts.start.split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.indexOf('src/start.js'));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  readonly child: ChildProcess;
  readonly port: number;
  readonly baseUrl: string;
  readonly wsUrl: string;
  /** Milliseconds from spawn to the first /health 200. */
  readonly startedInMs: number;
  stop(): Promise<void>;
}

/** The servers started and not stopped yet. */
const running = new Set<RunningServer>();

const ORPHAN_GUARD = `--import=${pathToFileURL(path.join(ROOT, 'loadtest/lib/orphan-guard.ts')).href}`;

/** Stops every server this process started and has not stopped (each within its own bound). */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map((server) => server.stop()));
}

export async function startServerProcess(args: string[], env: Record<string, string>, port: number, timeoutMs = 60_000): Promise<RunningServer> {
  const spawnedAt = performance.now();
  // The game server starts with the flags `npm start` gives it, before any flag of the benchmark's own.
  const start = args.indexOf('src/start.js');
  const nodeArgs = [ORPHAN_GUARD, ...(start === -1 ? args : [...gameNodeFlags(), ...args])];
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (!exited && performance.now() - spawnedAt < timeoutMs) {
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  if (exited || performance.now() - spawnedAt >= timeoutMs) {
    child.kill('SIGKILL');
    throw new Error(`server ${args.join(' ')} did not become healthy`);
  }
  const startedInMs = performance.now() - spawnedAt;
  const server: RunningServer = {
    child, port, baseUrl, wsUrl: `ws://127.0.0.1:${port}`, startedInMs,
    stop: async () => {
      running.delete(server);
      if (exited) return;
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([done, sleep(12_000)]);
      if (!exited) child.kill('SIGKILL');
    },
  };
  running.add(server);
  return server;
}

/** Reads one sample of a Prometheus series from a /metrics text. */
export function metricValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

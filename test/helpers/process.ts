/** Runs the real server as a child process (`node <npm start's flags> src/start.js`) for start-up, signal and crash tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, gameNodeFlags } from '../../loadtest/lib/server-process.ts';

export { freePort };

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly baseUrl: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function spawnServer(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...gameNodeFlags(), 'src/start.js'], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, port, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/**
 * Polls /health until it answers 200; returns the milliseconds it took. A server still not healthy at the deadline
 * is killed before this throws, so it cannot keep its port or its embedded database from the tests after it.
 */
export async function waitForHealth(server: ServerProcess, timeoutMs = 30_000): Promise<number> {
  const started = Date.now();
  let exited = false;
  void server.exited.then(() => (exited = true));
  while (Date.now() - started < timeoutMs && !exited) {
    try {
      const response = await fetch(`${server.baseUrl}/health`);
      if (response.status === 200) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  if (!exited) server.child.kill('SIGKILL');
  throw new Error(`server did not become healthy within ${timeoutMs / 1000} s:\n${server.output()}`);
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command in the project as a child process with exactly `env`, killed after `timeoutMs`; its exit code and output. */
export function runCommand(command: string, args: readonly string[], env: Record<string, string | undefined>, timeoutMs: number): Promise<CommandResult> {
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const safety = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => child.once('exit', (code) => {
    clearTimeout(safety);
    resolve({ code, stdout, stderr });
  }));
}

/**
 * Ends a test's server that talks to a dependency through a link the test cuts (loadtest/lib/chaos/link.ts): its
 * sockets, the link healed (the server's shutdown saves through it), the server, then the link and the scratch
 * database.
 */
export async function stopBehindLink(parts: {
  sockets: Array<{ socket: { terminate(): void } }>;
  link?: { heal(): Promise<void>; stop(): Promise<void> };
  server?: ServerProcess;
  database?: { drop(): Promise<void> };
}): Promise<void> {
  for (const socket of parts.sockets) socket.socket.terminate();
  await parts.link?.heal().catch(() => {});
  parts.server?.child.kill('SIGTERM');
  await parts.server?.exited;
  await parts.link?.stop();
  await parts.database?.drop();
}

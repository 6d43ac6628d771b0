/** Starts probe-child.ts beside the load: latency of HTTP probes measured outside the load generator's event loop. */
import { spawn } from 'node:child_process';
import path from 'node:path';

/** One probed URL's latency over the window, and how many answers failed (errors or non-2xx). */
export interface ProbeFigures {
  p50Ms: number;
  p99Ms: number;
  count: number;
  failures: number;
}

export function startProbeProcess(urls: string[], intervalMs: number): { stop(): Promise<ProbeFigures[]> } {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'probe-child.ts'), String(intervalMs), ...urls], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      child.stdin.end('stop\n');
      await exited;
      return JSON.parse(output) as ProbeFigures[];
    },
  };
}

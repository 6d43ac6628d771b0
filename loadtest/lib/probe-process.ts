/** Starts probe-child.ts beside the load: latency of HTTP probes measured outside the load generator's event loop. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { ProbeFigures } from './walker-scenario.ts';

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

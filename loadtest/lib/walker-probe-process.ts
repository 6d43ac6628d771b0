/** Starts walker-probe-child.ts: some of a run's walkers in their own process, for move → ack as a player sees it. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { SeededWalker } from './seed.ts';

export interface WalkerProbeFigures {
  /** Walkers of the probe process that joined. */
  walkers: number;
  ackP50Ms: number;
  ackP99Ms: number;
  /** Acknowledgements measured in the window. */
  acks: number;
  /** The probe process' own event-loop lag p99 in the window. */
  ownLagP99Ms: number;
}

export interface WalkerProbes {
  /** How many of its walkers joined. */
  readonly joined: number;
  /** Forgets the warm-up's samples. */
  reset(): void;
  stop(): Promise<WalkerProbeFigures | undefined>;
  kill(): void;
}

/** Resolves once the child's walkers have joined (or `timeoutMs` has passed: then none are counted and it is killed). */
export async function startWalkerProbes(kind: 'json' | 'sdk', url: string, seeds: SeededWalker[], dir: string, timeoutMs: number): Promise<WalkerProbes> {
  const seedsFile = path.join(dir, 'probe-walkers.json');
  fs.writeFileSync(seedsFile, JSON.stringify(seeds));
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'walker-probe-child.ts'), kind, url, seedsFile], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  const next = () => new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    const onLine = (line: string) => finish(line);
    const onExit = () => finish(undefined);
    function finish(line: string | undefined) {
      clearTimeout(timer);
      lines.off('line', onLine);
      child.off('exit', onExit);
      resolve(line);
    }
    lines.once('line', onLine);
    child.once('exit', onExit);
  });
  const kill = () => void (child.exitCode === null && child.kill('SIGKILL'));
  const first = await next();
  const joined = first?.startsWith('joined ') ? Number(first.slice(7)) : 0;
  if (!first) kill();
  return {
    joined,
    reset: () => void child.stdin.write('reset\n'),
    async stop() {
      if (child.exitCode !== null) return undefined;
      const answer = next();
      child.stdin.write('stop\n');
      const line = await answer;
      kill();
      return line ? JSON.parse(line) as WalkerProbeFigures : undefined;
    },
    kill,
  };
}

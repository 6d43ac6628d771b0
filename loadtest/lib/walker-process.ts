/** Starts walker-child.ts: walkers in a process of their own, their figures merged by the run (walker-scenario.ts). */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { UpdateEncoding } from '../../rooms/world/update-frames.ts';
import type { JoinOutcome } from './join-phase.ts';
import type { SeededWalker } from './seed.ts';

export type WalkerChildJoined = JoinOutcome;

/** What a walker process measured between `reset` and `stop`. */
export interface WalkerChildFigures {
  /** Every move → ack latency, ms. */
  ack: number[];
  /** Every world:update's delivery latency, ms (/ws bots). */
  delivery: number[];
  moves: number;
  errors: number;
  updatesReceived: number;
  sampledTextBytes: number;
  sampledPackedBytes: number;
  /** The process' own event-loop lag p99. */
  ownLagP99Ms: number;
}

export interface WalkerProcess {
  readonly outcome: JoinOutcome;
  /** Forgets the warm-up's samples. */
  reset(): void;
  /** Its figures since `reset` (undefined when it does not answer in time); its walkers keep walking until `quit`. */
  figures(): Promise<WalkerChildFigures | undefined>;
  /** Stops its walkers and ends the process (killed if it has not ended 2 s later). */
  quit(): Promise<void>;
}

const ANSWER_MS = 15_000;

export interface WalkerProcessOptions {
  kind: 'json' | 'sdk';
  /** The server's base URL (SDK) or WebSocket URL (/ws). */
  url: string;
  seeds: SeededWalker[];
  updates?: UpdateEncoding;
  /** A scratch directory for the seeds file. */
  dir: string;
  name: string;
  joinDeadlineMs: number;
  /** SDK bots that drop their state patches undecoded (SdkWalker `decodes`). */
  noDecode?: boolean;
}

/** Resolves once the process' join phase has ended (bounded by its deadline, plus a margin for the process itself). */
export async function startWalkerProcess(options: WalkerProcessOptions): Promise<WalkerProcess> {
  const seedsFile = path.join(options.dir, `${options.name}.json`);
  fs.writeFileSync(seedsFile, JSON.stringify(options.seeds));
  const child = spawn(process.execPath, [
    path.join(import.meta.dirname, 'walker-child.ts'), options.kind, options.url, seedsFile, String(options.joinDeadlineMs), options.updates ?? '',
    ...(options.noDecode ? ['no-decode'] : []),
  ], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = readline.createInterface({ input: child.stdout });
  const next = (timeoutMs: number) => new Promise<string | undefined>((resolve) => {
    let done = false;
    const finish = (line: string | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      lines.off('line', finish);
      resolve(line);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    lines.once('line', finish);
    void exited.then(() => finish(undefined));
  });
  const kill = () => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'));
  const first = await next(options.joinDeadlineMs + ANSWER_MS);
  const outcome: JoinOutcome = first
    ? JSON.parse(first) as JoinOutcome
    : { joined: 0, notJoined: options.seeds.map((seed) => ({ name: seed.name, reason: 'walker process did not answer' })) };
  if (!first) kill();
  const send = (line: string) => {
    if (child.exitCode === null && child.stdin.writable) child.stdin.write(`${line}\n`);
  };
  return {
    outcome,
    reset: () => send('reset'),
    async figures() {
      if (child.exitCode !== null) return undefined;
      const answer = next(ANSWER_MS);
      send('stop');
      const line = await answer;
      return line ? JSON.parse(line) as WalkerChildFigures : undefined;
    },
    async quit() {
      send('quit');
      const timer = setTimeout(kill, 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * pgbench's TPC-B on a scratch database of a local PostgreSQL, with the whole machine's CPU over its run: the
 * baseline the trade benchmarks print a trade's cost beside. The scratch database `<prefix>_<random>` is created,
 * initialised with -s 1 and dropped afterwards; every wait is bounded.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DatabaseBackendsCpuMeter } from './postgres-backends.ts';
import { adminUrl, createScratchDatabase } from './postgres.ts';
import { MachineCpuMeter } from './process-monitor.ts';

const run = promisify(execFile);

export interface PgbenchFigures {
  tps: number;
  transactions: number;
  /** Whole-machine busy CPU milliseconds per transaction over pgbench's run. */
  machineCpuMsPerTx: number;
  /** Average busy cores of the machine over pgbench's run. */
  busyCores: number;
  /**
   * CPU milliseconds per transaction of pgbench's own processes: the pgbench client and the PostgreSQL backends
   * serving its database (not the machine's other work, nor PostgreSQL's shared WAL writer and checkpointer).
   */
  processCpuMsPerTx: { client: number; backends: number; total: number };
  clients: number;
  seconds: number;
}

export async function runPgbench(databaseUrl: string, options: { seconds: number; clients: number; prefix?: string }): Promise<PgbenchFigures> {
  const scratch = await createScratchDatabase(adminUrl(databaseUrl), options.prefix ?? 'bench_pgbench');
  try {
    await run('pgbench', ['-i', '-s', '1', '-q', scratch.url], { timeout: 120_000 });
    const machine = new MachineCpuMeter();
    const backends = new DatabaseBackendsCpuMeter(new URL(scratch.url).pathname.slice(1));
    backends.start();
    machine.start();
    // bash's `time` reports the user and system CPU of pgbench itself (its worker threads included).
    const { stdout, stderr } = await run('bash', [
      '-c', 'TIMEFORMAT="cpu %3U %3S"; time pgbench "$@"', 'bash',
      '-c', String(options.clients), '-j', String(Math.min(options.clients, 2)), '-T', String(options.seconds), scratch.url,
    ], { timeout: (options.seconds + 60) * 1000 });
    const busy = machine.stop();
    const backendSeconds = backends.stop();
    const clientTimes = /^cpu ([\d.]+) ([\d.]+)$/m.exec(stderr);
    const clientSeconds = clientTimes ? Number(clientTimes[1]) + Number(clientTimes[2]) : NaN;
    const match = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout) ?? /tps = ([\d.]+)/.exec(stdout);
    if (!match) throw new Error(`could not read pgbench's tps:\n${stdout}`);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? NaN);
    return {
      tps: Number(match[1]), transactions, machineCpuMsPerTx: (busy.coreSeconds * 1000) / transactions, busyCores: busy.cores,
      processCpuMsPerTx: {
        client: (clientSeconds * 1000) / transactions, backends: (backendSeconds * 1000) / transactions,
        total: ((clientSeconds + backendSeconds) * 1000) / transactions,
      },
      clients: options.clients, seconds: options.seconds,
    };
  } finally {
    await scratch.drop().catch(() => undefined);
  }
}

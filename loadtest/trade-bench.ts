/**
 * Trade benchmark: completed player-to-player trades per second over /ws, with the swap on PostgreSQL, printed
 * beside pgbench's TPC-B figure measured on the same PostgreSQL server in the same run (target: ≥ 50%).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/game_bench npm exec -- node loadtest/trade-bench.ts
 *
 * Environment: BENCH_PAIRS (default 16 trading pairs), BENCH_SECONDS (10), PGBENCH_SECONDS (10), PGBENCH_CLIENTS (4),
 * BENCH_CPU_PROF (a directory: the server writes a V8 CPU profile there when it stops), BENCH_NODE_FLAGS (further
 * Node flags for the server, space-separated).
 * Everything runs on loopback; every wait is bounded. The database named in DATABASE_URL is created when missing;
 * pgbench runs on a scratch database `<name>_pgbench_<random>` (lib/pgbench.ts: created, initialised with -s 1, dropped afterwards).
 * Each trade is the full protocol: request, accept, one add per side, both accepts on both screens, the swap
 * (one transaction locking both characters, re-validating, writing the inventories and the audit row).
 */
import { availableParallelism } from 'node:os';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { loadBundledWorld } from './lib/game-data.ts';
import { runPgbench } from './lib/pgbench.ts';
import { psql } from './lib/postgres.ts';
import { CpuMeter, MachineCpuMeter, NamedProcessesCpuMeter } from './lib/process-monitor.ts';
import { freePort, startServerProcess } from './lib/server-process.ts';
import { Samples, round } from './lib/stats.ts';
import { seedTradingPairs, trade, type TradingPair } from './lib/trading.ts';
import { enterWorld, type BotSocket } from './lib/ws-bot.ts';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PGBENCH_SECONDS = Number(process.env.PGBENCH_SECONDS ?? 10);
const PGBENCH_CLIENTS = Number(process.env.PGBENCH_CLIENTS ?? 4);
const SECRET = `trade-bench-${randomUUID()}`;
function databaseName(url: URL): string {
  return decodeURIComponent(url.pathname.replace(/^\//, ''));
}

function withDatabase(url: URL, name: string): string {
  const copy = new URL(url.toString());
  copy.pathname = `/${encodeURIComponent(name)}`;
  return copy.toString();
}

async function ensureDatabase(url: URL): Promise<void> {
  const admin = withDatabase(url, 'postgres');
  const name = databaseName(url);
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(name)) throw new Error(`unsupported database name "${name}"`);
  const exists = await psql(admin, `select 1 from pg_database where datname = '${name}'`);
  if (exists !== '1') await psql(admin, `create database "${name}"`);
}

async function seed(databaseUrl: string): Promise<TradingPair[]> {
  const db = await openDatabase({ databaseUrl, pgliteDataDir: 'memory://', poolSize: 4 });
  try {
    const { config } = loadConfig({ NODE_ENV: 'test', JWT_SECRET: SECRET });
    return await seedTradingPairs(db, loadBundledWorld(), config, SECRET, PAIRS);
  } finally {
    await db.close();
  }
}

export interface TradeBenchFigures {
  pairs: number;
  seconds: number;
  completed: number;
  failed: number;
  tradesPerSecond: number;
  swapP50Ms: number;
  swapP99Ms: number;
  serverCpuCores: number;
  /** CPU milliseconds per completed trade: the server, this load generator, PostgreSQL, the whole machine. */
  cpuMsPerTrade: { server: number; loadGenerator: number; postgres: number; machine: number };
  /** Average busy cores of the machine during the trades and during pgbench (of `cores`). */
  busyCores: { trades: number; pgbench: number };
  cores: number;
  pgbenchTps: number;
  /** Whole-machine CPU milliseconds per pgbench transaction. */
  pgbenchMachineCpuMsPerTx: number;
  ratio: number;
}

/** Runs the trade benchmark and pgbench on DATABASE_URL (loopback only) and returns the figures. */
export async function runTradeBench(): Promise<TradeBenchFigures> {
  const raw = process.env.DATABASE_URL;
  if (!raw) throw new Error('Set DATABASE_URL to a PostgreSQL database (e.g. postgres://postgres@127.0.0.1:5432/game_bench)');
  const url = new URL(raw);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error('the benchmark runs on loopback only: DATABASE_URL must point to localhost');
  }
  await ensureDatabase(url);
  const pairs = await seed(raw);
  const port = await freePort();
  const nodeFlags = [
    ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
  ];
  const server = await startServerProcess([...nodeFlags, 'src/start.js'], {
    NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: raw, JWT_SECRET: SECRET, LOG_LEVEL: 'error',
    TRADE_REQUEST_COOLDOWN_MS: '0', WS_MESSAGES_PER_SECOND: '100000', SAVE_INTERVAL: '3600',
    // One world: trading partners must share it (NOT_IN_YOUR_WORLD otherwise).
    WORLD_CAPACITY: '5000',
  }, port);
  const sockets: BotSocket[] = [];
  let completed = 0;
  let failed = 0;
  const swapLatency = new Samples();
  const cpu = new CpuMeter(server.child.pid!);
  const postgresCpu = new NamedProcessesCpuMeter('postgres');
  const machineCpu = new MachineCpuMeter();
  let elapsed = 0;
  let serverCpu = NaN;
  let ownCpu = process.cpuUsage();
  let postgresSeconds = NaN;
  let machine = { coreSeconds: NaN, cores: NaN };
  try {
    const connected = await Promise.all(pairs.map(async (pair) => [await enterWorld(server.wsUrl, pair.a), await enterWorld(server.wsUrl, pair.b)] as const));
    for (const [a, b] of connected) sockets.push(a, b);
    // Warm-up: one trade per pair.
    await Promise.all(connected.map(([a, b], i) => trade(a, b, pairs[i].a.characterId, pairs[i].b.characterId)));
    cpu.start();
    postgresCpu.start();
    machineCpu.start();
    ownCpu = process.cpuUsage();
    const started = performance.now();
    const deadline = started + SECONDS * 1000;
    await Promise.all(connected.map(async ([a, b], i) => {
      while (performance.now() < deadline) {
        try {
          swapLatency.add(await trade(a, b, pairs[i].a.characterId, pairs[i].b.characterId));
          completed++;
        } catch (error) {
          failed++;
          console.error(`pair ${i}: ${(error as Error).message}`);
          await sleep(100);
        }
      }
    }));
    elapsed = (performance.now() - started) / 1000;
    serverCpu = cpu.stop();
    postgresSeconds = postgresCpu.stop();
    machine = machineCpu.stop();
    ownCpu = process.cpuUsage(ownCpu);
  } finally {
    for (const socket of sockets) socket.close();
    await server.stop();
  }
  const tradesPerSecond = completed / elapsed;
  const bench = await runPgbench(raw, { seconds: PGBENCH_SECONDS, clients: PGBENCH_CLIENTS, prefix: `${databaseName(url)}_pgbench` });
  const tps = bench.tps;
  const ratio = tradesPerSecond / tps;
  const perTrade = (coreSeconds: number) => round((coreSeconds * 1000) / completed, 2);
  const cpuMsPerTrade = {
    server: perTrade(serverCpu * elapsed), loadGenerator: perTrade((ownCpu.user + ownCpu.system) / 1e6),
    postgres: perTrade(postgresSeconds), machine: perTrade(machine.coreSeconds),
  };
  const cores = availableParallelism();
  console.log('');
  console.log('Trade benchmark (full /ws protocol, swap on PostgreSQL)');
  console.log(`  pairs trading concurrently       ${PAIRS}`);
  console.log(`  duration                         ${round(elapsed, 1)} s`);
  console.log(`  completed trades                 ${completed} (${failed} failed)`);
  console.log(`  completed trades per second      ${round(tradesPerSecond, 1)}`);
  console.log(`  swap latency p50 / p95 / p99     ${round(swapLatency.p(50), 1)} / ${round(swapLatency.p(95), 1)} / ${round(swapLatency.p(99), 1)} ms (last accept → tradeCompleted)`);
  console.log(`  server CPU                       ${round(serverCpu * 100, 0)}% of one core`);
  console.log(`  CPU per trade                    server ${cpuMsPerTrade.server} ms · load generator ${cpuMsPerTrade.loadGenerator} ms · PostgreSQL ${cpuMsPerTrade.postgres} ms`);
  console.log(`                                   whole machine ${cpuMsPerTrade.machine} ms (${round(machine.cores, 2)} of ${cores} cores busy)`);
  console.log(`  pgbench TPC-B (-s 1 -c ${PGBENCH_CLIENTS} -T ${PGBENCH_SECONDS})      ${round(tps, 1)} tps`);
  console.log(`  CPU per pgbench transaction      whole machine ${round(bench.machineCpuMsPerTx, 2)} ms (${round(bench.busyCores, 2)} of ${cores} cores busy)`);
  console.log(`  ratio trades/s ÷ pgbench tps     ${round(ratio * 100, 1)}% (target ≥ 50%: ${ratio >= 0.5 ? 'met' : 'NOT met'})`);
  return {
    pairs: PAIRS, seconds: round(elapsed, 1), completed, failed, tradesPerSecond: round(tradesPerSecond, 1),
    swapP50Ms: round(swapLatency.p(50), 1), swapP99Ms: round(swapLatency.p(99), 1), serverCpuCores: round(serverCpu, 3),
    cpuMsPerTrade, busyCores: { trades: round(machine.cores, 2), pgbench: round(bench.busyCores, 2) }, cores,
    pgbenchTps: round(tps, 1), pgbenchMachineCpuMsPerTx: round(bench.machineCpuMsPerTx, 2), ratio: round(ratio, 3),
  };
}

if (process.argv[1] === import.meta.filename) {
  runTradeBench().then(() => process.exit(0), (error) => {
    console.error(error);
    process.exit(1);
  });
}

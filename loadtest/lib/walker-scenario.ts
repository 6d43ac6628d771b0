/**
 * One walker run: seed N characters, start the server (the game, or the bare Colyseus baseline), bring N bots
 * in, warm up, then measure server CPU, event-loop lag p99, move → acknowledgement latency, update delivery
 * and resident memory per player over a fixed window. Every wait and loop is bounded.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { computeBlockedTiles } from '../../src/manifests/blocked-tiles.ts';
import { loadBundledWorld } from './game-data.ts';
import { CpuMeter, rssBytes } from './process-monitor.ts';
import { seedWalkers } from './seed.ts';
import { freePort, metricValue, startServerProcess, type RunningServer } from './server-process.ts';
import { cpuUsPerPlayerTick, tickFigures, type TickFigures } from './tick-figures.ts';
import { startProbeProcess, type ProbeFigures } from './probe-process.ts';
import { startWalkerProbes, type WalkerProbeFigures, type WalkerProbes } from './walker-probe-process.ts';
import { round } from './stats.ts';
import { JsonWalker, newWalkerStats, SdkWalker, startWithin, type Walker } from './walkers.ts';
import { defaultJoinDeadlineSeconds, describeNotJoined, joinPhase } from './join-phase.ts';
import type { UpdateEncoding } from '../../rooms/world/update-frames.ts';

export interface WalkerRunOptions {
  kind: 'json' | 'sdk';
  server: 'game' | 'bare';
  /** The world:update encoding /ws bots ask for (default json); SDK bots: room messages instead of schema sync. */
  updates?: UpdateEncoding;
  clients: number;
  durationSeconds: number;
  /** The join phase ends this long after it starts, every walker in or not (default: defaultJoinDeadlineSeconds). */
  joinDeadlineSeconds?: number;
  warmupSeconds?: number;
  /** Poll /health and /status during the measured window (game server only). */
  probes?: boolean;
  /** Players per world on the game server (WORLD_CAPACITY); default: every walker in one world. */
  worldCapacity?: number;
  /**
   * This many of the `clients` walk from a process of their own (walker-probe-child.ts), which measures their
   * move → ack apart from the load generator's loop (default 0).
   */
  probeWalkers?: number;
  log?: (line: string) => void;
}

export interface WalkerRunResult {
  label: string;
  kind: 'json' | 'sdk';
  /** Players per world the game server ran with (WORLD_CAPACITY), and the worlds it had open at the end. */
  worldCapacity?: number;
  worlds?: number;
  /** Bytes of the same world:update frames packed with msgpack, per byte of the JSON text received (sampled). */
  msgpackToJsonBytes?: number;
  /** Set for /ws bots that asked for another world:update encoding than the readable default. */
  updates?: UpdateEncoding;
  server: 'game' | 'bare';
  clients: number;
  joined: number;
  /** The walkers that never joined (lib/join-phase.ts): how many, by reason, and the first names. */
  notJoined: ReturnType<typeof describeNotJoined>;
  serverCpuCores: number;
  eventLoopLagP99Ms: number;
  ackP50Ms: number;
  ackP99Ms: number;
  deliveryP50Ms: number | null;
  deliveryP99Ms: number | null;
  rssMb: number;
  rssPerPlayerKb: number;
  movesPerSecond: number;
  errors: number;
  /** /health and /status polled every 100 ms by a probe in its own process (probe-child.ts). */
  health?: ProbeFigures;
  status?: ProbeFigures;
  /** A bare Express /health in an idle process, probed alike in the same window (the machine's floor). */
  bareHealth?: ProbeFigures;
  /** The load generator's own event-loop lag p99 over the measured window (its bots' latencies include it). */
  loadGeneratorLagP99Ms?: number;
  /** The walkers that walked from their own process (`probeWalkers`): their move → ack, apart from the load generator's loop. */
  probeWalkers?: WalkerProbeFigures;
  /** Event-loop lag p99 of the same server before any bot joined (5 s idle). */
  idleLagP99Ms?: number;
  /** Server CPU per player per 600 ms tick, in microseconds. */
  cpuUsPerPlayerTick?: number;
  /** The part of cpuUsPerPlayerTick the kernel spent on the server's behalf (socket reads and writes). */
  kernelUsPerPlayerTick?: number;
  /** The game server's own tick figures over the measured window (game_tick_* series). */
  tick?: TickFigures;
}

const SECRET = 'benchmark-secret-not-for-production';
/** A scrape of a saturated server gives up after this long (the run must end whatever the server does). */
const SCRAPE_TIMEOUT_MS = 10_000;
const METRICS_TOKEN = 'benchmark-metrics-token';

/**
 * The server's /metrics text (prom-client's event-loop lag histogram restarts at each scrape); empty, with a line in
 * the log, when the server does not answer in time (its figures are then missing, and the run goes on to its end).
 */
async function scrapeMetrics(server: RunningServer, authorized: boolean, log: (line: string) => void): Promise<string> {
  try {
    const response = await fetch(`${server.baseUrl}/metrics`, {
      ...(authorized ? { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } } : {}),
      signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS),
    });
    return await response.text();
  } catch (error) {
    log(`  /metrics did not answer: ${error instanceof Error ? error.message : String(error)}`);
    return '';
  }
}

/** loadtest/baseline/bare-express.ts on a free port. */
async function startBareHealth(dir: string): Promise<RunningServer> {
  const port = await freePort();
  const body = path.join(dir, 'bare-health.json');
  fs.writeFileSync(body, '{}');
  return startServerProcess(['loadtest/baseline/bare-express.ts', String(port), body], {}, port);
}

const lagP99Ms = (metrics: string) => (metricValue(metrics, 'nodejs_eventloop_lag_p99_seconds') ?? NaN) * 1000;

/** BENCH_CPU_PROF (a directory: the game server writes a V8 CPU profile there when it stops), BENCH_NODE_FLAGS. */
export function profilingFlags(): string[] {
  return [
    ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
  ];
}

export async function runWalkers(options: WalkerRunOptions): Promise<WalkerRunResult> {
  const log = options.log ?? (() => {});
  const data = loadBundledWorld();
  const grid = computeBlockedTiles(data);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-walkers-'));
  const pgliteDir = path.join(dataDir, 'db');
  const { config } = loadConfig({ NODE_ENV: 'test', PGLITE_DATA_DIR: pgliteDir, JWT_SECRET: SECRET });
  const db = await openDatabase({ pgliteDataDir: pgliteDir });
  const seeds = await seedWalkers(db, data, config, SECRET, options.clients);
  await db.close();

  const port = await freePort();
  const server = options.server === 'game'
    ? await startServerProcess([...profilingFlags(), 'src/start.js'], {
      NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', PGLITE_DATA_DIR: pgliteDir, JWT_SECRET: SECRET,
      METRICS_TOKEN, LOG_LEVEL: 'warn', SAVE_INTERVAL: '60',
      WORLD_CAPACITY: String(options.worldCapacity ?? Math.max(options.clients, 1)),
    }, port)
    : await startServerProcess(['loadtest/baseline/bare-server.ts', String(port)], { NODE_ENV: 'test' }, port);
  const idleRss = rssBytes(server.child.pid!);
  const game = options.server === 'game';
  let idleLagP99Ms: number | undefined;
  if (game) {
    await scrapeMetrics(server, true, log);
    await sleep(5_000);
    idleLagP99Ms = lagP99Ms(await scrapeMetrics(server, true, log));
  }
  const stats = newWalkerStats();
  const probeSeeds = seeds.splice(seeds.length - Math.min(options.probeWalkers ?? 0, seeds.length));
  let probeWalkers: WalkerProbes | undefined;
  const walkers: Walker[] = seeds.map((seed) => options.kind === 'json'
    ? new JsonWalker(server.wsUrl, seed, grid, stats, options.updates)
    : new SdkWalker(server.baseUrl, seed, grid, stats, options.updates));
  try {
    log(`  ${options.server} server: pid ${server.child.pid} on port ${server.port}`);
    const { joined, notJoined } = await joinPhase(walkers, {
      start: startWithin, name: (walker) => walker.name, log,
      deadlineMs: (options.joinDeadlineSeconds ?? defaultJoinDeadlineSeconds(options.clients)) * 1000,
    });
    if (probeSeeds.length > 0) {
      const url = options.kind === 'json' ? server.wsUrl : server.baseUrl;
      probeWalkers = await startWalkerProbes(options.kind, url, probeSeeds, dataDir, 60_000);
      log(`  ${probeWalkers.joined}/${probeSeeds.length} walkers of the probe process in`);
    }
    const allJoined = joined + (probeWalkers?.joined ?? 0);
    log(`  ${allJoined}/${walkers.length + probeSeeds.length} ${options.kind} walkers in the ${options.server} world; warming up`);
    await sleep((options.warmupSeconds ?? 5) * 1000);
    const cpu = new CpuMeter(server.child.pid!);
    const metricsBefore = await scrapeMetrics(server, game, log);
    stats.ack.reset();
    probeWalkers?.reset();
    stats.delivery.reset();
    stats.sampledTextBytes = 0;
    stats.sampledPackedBytes = 0;
    const movesBefore = stats.movesSent;
    cpu.start();
    // Beside the game's routes, a bare Express /health in an idle process of its own: what the probe measures on this
    // busy machine when the server answers at once (scheduling, the probe's own process).
    const bare = options.probes && options.server === 'game' ? await startBareHealth(dataDir) : undefined;
    const probes = bare ? startProbeProcess([`${server.baseUrl}/health`, `${server.baseUrl}/status`, `${bare.baseUrl}/health`], 100) : undefined;
    const ownLag = monitorEventLoopDelay({ resolution: 10 });
    ownLag.enable();
    const progress = setInterval(() => {
      log(`  [walkers] ${stats.movesSent - movesBefore} moves  ack p50 ${round(stats.ack.p(50), 1)} ms  p99 ${round(stats.ack.p(99), 1)} ms  errors ${stats.errors}`);
    }, 5_000);
    await sleep(options.durationSeconds * 1000);
    clearInterval(progress);
    const cores = cpu.stop();
    const [health, status, bareHealth] = (await probes?.stop()) ?? [];
    const probeFigures = await probeWalkers?.stop();
    await bare?.stop();
    ownLag.disable();
    const metricsAfter = await scrapeMetrics(server, game, log);
    const lag = lagP99Ms(metricsAfter);
    const rss = rssBytes(server.child.pid!);
    const result: WalkerRunResult = {
      label: `${options.server === 'game' ? 'WorldRoom' : 'bare Colyseus room'} · ${options.kind === 'json' ? '/ws JSON' : 'SDK'} bots${options.updates === 'compact' ? ' (compact updates)' : options.kind === 'sdk' && options.updates ? ` (${options.updates} room messages)` : ''}`,
      kind: options.kind,
      ...(game ? {
        worldCapacity: options.worldCapacity ?? Math.max(options.clients, 1),
        worlds: metricsAfter.split('\n').filter((line) => line.startsWith('game_world_players{')).length,
      } : {}),
      ...(options.updates && (options.updates !== 'json' || options.kind === 'sdk') ? { updates: options.updates } : {}),
      server: options.server,
      clients: options.clients,
      joined: allJoined,
      notJoined: describeNotJoined(notJoined),
      serverCpuCores: round(cores, 3),
      eventLoopLagP99Ms: round(lag, 1),
      ackP50Ms: round(stats.ack.p(50), 1),
      ackP99Ms: round(stats.ack.p(99), 1),
      deliveryP50Ms: stats.delivery.count ? round(stats.delivery.p(50), 1) : null,
      deliveryP99Ms: stats.delivery.count ? round(stats.delivery.p(99), 1) : null,
      ...(stats.sampledTextBytes > 0 ? { msgpackToJsonBytes: round(stats.sampledPackedBytes / stats.sampledTextBytes, 2) } : {}),
      rssMb: round(rss / 2 ** 20, 1),
      rssPerPlayerKb: round((rss - idleRss) / 1024 / Math.max(1, allJoined), 1),
      movesPerSecond: round((stats.movesSent - movesBefore) / options.durationSeconds, 0),
      errors: stats.errors,
      ...(health ? { health } : {}),
      ...(status ? { status } : {}),
      ...(bareHealth ? { bareHealth } : {}),
      loadGeneratorLagP99Ms: round(ownLag.percentile(99) / 1e6, 1),
      ...(probeFigures ? { probeWalkers: probeFigures } : {}),
      cpuUsPerPlayerTick: cpuUsPerPlayerTick(cores, allJoined),
      kernelUsPerPlayerTick: cpuUsPerPlayerTick(cpu.kernelCores, allJoined),
      ...(game ? { idleLagP99Ms: round(idleLagP99Ms!, 1), tick: tickFigures(metricsBefore, metricsAfter) } : {}),
    };
    return result;
  } finally {
    for (const walker of walkers) walker.stop();
    probeWalkers?.kill();
    await sleep(500);
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

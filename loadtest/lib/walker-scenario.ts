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
import { seedWalkers, type SeededWalker } from './seed.ts';
import { freePort, metricValue, startServerProcess, type RunningServer } from './server-process.ts';
import { cpuUsPerPlayerTick, tickFigures, type TickFigures } from './tick-figures.ts';
import { startProbeProcess, type ProbeFigures } from './probe-process.ts';
import { startWalkerProcess, type WalkerChildFigures, type WalkerProcess } from './walker-process.ts';
import { round, Samples } from './stats.ts';
import { JsonWalker, newWalkerStats, SdkWalker, startWindow, startWithin, type Walker, type WalkerStats } from './walkers.ts';
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
   * This many of the `clients` walk from a process of their own (walker-child.ts), which measures their move → ack
   * apart from the bulk bots' processes (default 0).
   */
  probeWalkers?: number;
  /**
   * The other walkers are spread over this many processes (walker-child.ts) instead of walking in this one (default 0:
   * here). One process cannot keep up with 2,000 SDK bots decoding their patches; its loop lag is in every ack.
   */
  botProcesses?: number;
  /**
   * False: the SDK bots of the bulk processes drop their state patches undecoded (walkers.ts SdkWalker `decodes`); the
   * probe walkers always decode. Default true.
   */
  bulkDecodes?: boolean;
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
  /** Over how many processes the bulk bots were spread (0: the load generator's own). */
  botProcesses?: number;
  /** False when the SDK bots of the bulk dropped their patches undecoded. */
  bulkDecodes?: boolean;
  /** The walkers that walked from their own process (`probeWalkers`): their move → ack, apart from the bulk bots'. */
  probeWalkers?: ProbeWalkerFigures;
  /** Event-loop lag p99 of the same server before any bot joined (5 s idle). */
  idleLagP99Ms?: number;
  /** Server CPU per player per 600 ms tick, in microseconds. */
  cpuUsPerPlayerTick?: number;
  /** The part of cpuUsPerPlayerTick the kernel spent on the server's behalf (socket reads and writes). */
  kernelUsPerPlayerTick?: number;
  /** The game server's own tick figures over the measured window (game_tick_* series). */
  tick?: TickFigures;
}

export interface ProbeWalkerFigures {
  walkers: number;
  ackP50Ms: number;
  ackP99Ms: number;
  acks: number;
  /** The probe process' own event-loop lag p99. */
  ownLagP99Ms: number;
}

/** Adds a walker process' figures to the run's. */
function merge(stats: WalkerStats, figures: WalkerChildFigures): void {
  for (const value of figures.ack) stats.ack.add(value);
  for (const value of figures.delivery) stats.delivery.add(value);
  stats.movesSent += figures.moves;
  stats.errors += figures.errors;
  stats.updatesReceived += figures.updatesReceived;
  stats.sampledTextBytes += figures.sampledTextBytes;
  stats.sampledPackedBytes += figures.sampledPackedBytes;
}

/** `items` dealt into `parts` nearly equal runs, in order. */
function split<T>(items: readonly T[], parts: number): T[][] {
  const size = Math.ceil(items.length / parts);
  return Array.from({ length: parts }, (_, i) => items.slice(i * size, (i + 1) * size)).filter((part) => part.length > 0);
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

function probeWalkerFigures(walkers: number, figures: WalkerChildFigures): ProbeWalkerFigures {
  const ack = new Samples();
  for (const value of figures.ack) ack.add(value);
  return { walkers, ackP50Ms: round(ack.p(50), 1), ackP99Ms: round(ack.p(99), 1), acks: ack.count, ownLagP99Ms: figures.ownLagP99Ms };
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
  const botProcesses = options.botProcesses ?? 0;
  const url = options.kind === 'json' ? server.wsUrl : server.baseUrl;
  const joinDeadlineMs = (options.joinDeadlineSeconds ?? defaultJoinDeadlineSeconds(options.clients)) * 1000;
  const walkers: Walker[] = botProcesses > 0 ? [] : seeds.map((seed) => options.kind === 'json'
    ? new JsonWalker(server.wsUrl, seed, grid, stats, options.updates)
    : new SdkWalker(server.baseUrl, seed, grid, stats, options.updates));
  const processes: WalkerProcess[] = [];
  let probeProcess: WalkerProcess | undefined;
  const startProcess = async (part: SeededWalker[], name: string, noDecode = false) => {
    const started = await startWalkerProcess({ kind: options.kind, url, seeds: part, updates: options.updates, dir: dataDir, name, joinDeadlineMs, noDecode });
    processes.push(started);
    return started;
  };
  try {
    log(`  ${options.server} server: pid ${server.child.pid} on port ${server.port}`);
    const outcomes = botProcesses > 0
      ? (await Promise.all(split(seeds, botProcesses).map((part, i) => startProcess(part, `bots-${i + 1}`, options.kind === 'sdk' && options.bulkDecodes === false)))).map((p) => p.outcome)
      : [await joinPhase(walkers, { start: startWithin, name: (walker) => walker.name, log, deadlineMs: joinDeadlineMs })];
    if (probeSeeds.length > 0) {
      probeProcess = await startProcess(probeSeeds, 'probe-walkers');
      log(`  ${probeProcess.outcome.joined}/${probeSeeds.length} walkers of the probe process in`);
      outcomes.push(probeProcess.outcome);
    }
    const bulk = processes.filter((p) => p !== probeProcess);
    const joined = outcomes.reduce((sum, o) => sum + o.joined, 0);
    const notJoined = outcomes.flatMap((o) => o.notJoined);
    log(`  ${joined}/${options.clients} ${options.kind} walkers in the ${options.server} world${bulk.length > 0 ? ` (the bulk in ${bulk.length} processes)` : ''}; warming up`);
    await sleep((options.warmupSeconds ?? 5) * 1000);
    const cpu = new CpuMeter(server.child.pid!);
    const metricsBefore = await scrapeMetrics(server, game, log);
    for (const walkerProcess of processes) walkerProcess.reset();
    const movesBefore = startWindow(stats).movesSent;
    cpu.start();
    // Beside the game's routes, a bare Express /health in an idle process of its own: what the probe measures on this
    // busy machine when the server answers at once (scheduling, the probe's own process).
    const bare = options.probes && options.server === 'game' ? await startBareHealth(dataDir) : undefined;
    const probes = bare ? startProbeProcess([`${server.baseUrl}/health`, `${server.baseUrl}/status`, `${bare.baseUrl}/health`], 100) : undefined;
    const ownLag = monitorEventLoopDelay({ resolution: 10 });
    ownLag.enable();
    const progress = bulk.length > 0 ? undefined : setInterval(() => {
      log(`  [walkers] ${stats.movesSent - movesBefore} moves  ack p50 ${round(stats.ack.p(50), 1)} ms  p99 ${round(stats.ack.p(99), 1)} ms  errors ${stats.errors}`);
    }, 5_000);
    await sleep(options.durationSeconds * 1000);
    clearInterval(progress);
    const cores = cpu.stop();
    const [health, status, bareHealth] = (await probes?.stop()) ?? [];
    const probeFigures = await probeProcess?.figures();
    const bulkFigures = await Promise.all(bulk.map((p) => p.figures()));
    for (const figures of bulkFigures) if (figures) merge(stats, figures);
    const bulkLag = bulkFigures.map((figures) => figures?.ownLagP99Ms ?? NaN);
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
      joined,
      notJoined: describeNotJoined(notJoined),
      serverCpuCores: round(cores, 3),
      eventLoopLagP99Ms: round(lag, 1),
      ackP50Ms: round(stats.ack.p(50), 1),
      ackP99Ms: round(stats.ack.p(99), 1),
      deliveryP50Ms: stats.delivery.count ? round(stats.delivery.p(50), 1) : null,
      deliveryP99Ms: stats.delivery.count ? round(stats.delivery.p(99), 1) : null,
      ...(stats.sampledTextBytes > 0 ? { msgpackToJsonBytes: round(stats.sampledPackedBytes / stats.sampledTextBytes, 2) } : {}),
      rssMb: round(rss / 2 ** 20, 1),
      rssPerPlayerKb: round((rss - idleRss) / 1024 / Math.max(1, joined), 1),
      movesPerSecond: round((stats.movesSent - movesBefore) / options.durationSeconds, 0),
      errors: stats.errors,
      ...(health ? { health } : {}),
      ...(status ? { status } : {}),
      ...(bareHealth ? { bareHealth } : {}),
      // With the bulk in processes of their own, the worst of theirs (this one only waits).
      loadGeneratorLagP99Ms: bulk.length > 0 ? Math.max(...bulkLag) : round(ownLag.percentile(99) / 1e6, 1),
      ...(bulk.length > 0 ? { botProcesses: bulk.length } : {}),
      ...(options.kind === 'sdk' && options.bulkDecodes === false && bulk.length > 0 ? { bulkDecodes: false } : {}),
      ...(probeFigures ? { probeWalkers: probeWalkerFigures(probeProcess!.outcome.joined, probeFigures) } : {}),
      cpuUsPerPlayerTick: cpuUsPerPlayerTick(cores, joined),
      kernelUsPerPlayerTick: cpuUsPerPlayerTick(cpu.kernelCores, joined),
      ...(game ? { idleLagP99Ms: round(idleLagP99Ms!, 1), tick: tickFigures(metricsBefore, metricsAfter) } : {}),
    };
    return result;
  } finally {
    for (const walker of walkers) walker.stop();
    await Promise.all(processes.map((p) => p.quit()));
    await sleep(500);
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

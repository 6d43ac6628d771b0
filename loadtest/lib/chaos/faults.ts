/**
 * The faults a chaos run injects from outside the servers, each kind in a lane of its own (the lanes run at once, so
 * faults overlap as they do in production):
 * - `stall`: SIGSTOP of a server's process group for a while, then SIGCONT (a GC pause, CPU starvation, a VM freeze):
 *   half of them short (up to a third of the longest), half long (the last 10 s of the range);
 * - `kill`: kill -9 of a server's group and a restart on the same port and links;
 * - `redis-restart`: the run's Redis shut down (SHUTDOWN SAVE) and started again on the same port and data;
 * - `postgres-restart`: every server's PostgreSQL link drops its connections and refuses new ones for a moment (what
 *   a restart of PostgreSQL looks like from the servers; the machine's PostgreSQL itself is shared and left alone);
 * - `partition`: one server cut off from PostgreSQL, Redis, the other processes (its inbound link: its
 *   INTERNAL_ADDRESS), or all three, by dropping connections or by a black hole, for a while.
 * A process fault (stall, kill) never hits a server another process fault holds; a link is cut by one fault at a time.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster, ServerNode } from './cluster.ts';
import type { Link } from './link.ts';
import type { RedisServer } from './redis-server.ts';

export const FAULT_KINDS = ['stall', 'kill', 'redis-restart', 'postgres-restart', 'partition'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRecord {
  kind: FaultKind;
  detail: string;
  startedAt: number;
  endedAt: number;
}

export interface FaultOptions {
  /** Faults of each kind. */
  perKind: number;
  /** The time the lanes spread their faults over. */
  phaseMs: number;
  /** Range of a stall's and a partition's length. */
  stallMs: [number, number];
  partitionMs: [number, number];
  /** How long the PostgreSQL path stays down in a restart. */
  postgresDownMs: [number, number];
  /** How long a killed process stays down before its restart. */
  killDownMs: [number, number];
}

export class FaultInjector {
  readonly records: FaultRecord[] = [];
  readonly failures: string[] = [];
  private readonly cluster: Cluster;
  private readonly redis: RedisServer;
  private readonly rnd: () => number;
  private readonly options: FaultOptions;
  private readonly busyNodes = new Set<number>();
  private readonly busyLinks = new Set<Link>();
  private active = 0;
  /** When the last fault ended (every process back and every link healed). */
  lastEndedAt = 0;
  log: (line: string) => void = () => undefined;

  constructor(cluster: Cluster, redis: RedisServer, rnd: () => number, options: FaultOptions) {
    this.cluster = cluster;
    this.redis = redis;
    this.rnd = rnd;
    this.options = options;
  }

  get inProgress(): number {
    return this.active;
  }

  private between([min, max]: [number, number]): number {
    return Math.round(min + this.rnd() * (max - min));
  }

  private pickNode(): ServerNode | undefined {
    const free = this.cluster.nodes.filter((node) => !this.busyNodes.has(node.index) && node.state === 'running');
    return free.length === 0 ? undefined : free[Math.floor(this.rnd() * free.length)];
  }

  private async record(kind: FaultKind, work: () => Promise<string | undefined>): Promise<void> {
    const startedAt = Date.now();
    this.active++;
    try {
      const detail = await work();
      if (detail === undefined) return;
      const endedAt = Date.now();
      this.records.push({ kind, detail, startedAt, endedAt });
      this.lastEndedAt = Math.max(this.lastEndedAt, endedAt);
      this.log(`  fault ${kind}: ${detail} (${((endedAt - startedAt) / 1000).toFixed(1)} s)`);
    } catch (error) {
      this.failures.push(`${kind}: ${(error as Error).message}`);
      this.lastEndedAt = Date.now();
    } finally {
      this.active--;
    }
  }

  stall(): Promise<void> {
    return this.record('stall', async () => {
      const node = this.pickNode();
      if (!node) return undefined;
      this.busyNodes.add(node.index);
      try {
        // Short stalls a process should ride out, and long ones past any takeover time, with equal odds.
        const [min, max] = this.options.stallMs;
        const split = Math.min(max, Math.max(min, Math.round(max / 3)));
        const ms = this.rnd() < 0.5 ? this.between([min, split]) : this.between([Math.max(split, max - 10_000), max]);
        this.cluster.stop(node);
        await sleep(ms);
        this.cluster.resume(node);
        return `${node.name} SIGSTOP for ${(ms / 1000).toFixed(1)} s`;
      } finally {
        this.busyNodes.delete(node.index);
      }
    });
  }

  kill(): Promise<void> {
    return this.record('kill', async () => {
      const node = this.pickNode();
      if (!node) return undefined;
      this.busyNodes.add(node.index);
      try {
        await this.cluster.kill(node);
        const ms = this.between(this.options.killDownMs);
        await sleep(ms);
        const started = Date.now();
        await this.cluster.launch(node);
        return `${node.name} kill -9, down ${(ms / 1000).toFixed(1)} s, restarted in ${((Date.now() - started) / 1000).toFixed(1)} s`;
      } finally {
        this.busyNodes.delete(node.index);
      }
    });
  }

  redisRestart(): Promise<void> {
    return this.record('redis-restart', async () => {
      const started = Date.now();
      await this.redis.restart();
      return `SHUTDOWN SAVE and start, answering again after ${((Date.now() - started) / 1000).toFixed(1)} s`;
    });
  }

  postgresRestart(): Promise<void> {
    return this.record('postgres-restart', async () => {
      const links = this.cluster.nodes.map((node) => node.links.postgres).filter((link) => !this.busyLinks.has(link));
      if (links.length === 0) return undefined;
      for (const link of links) this.busyLinks.add(link);
      try {
        const ms = this.between(this.options.postgresDownMs);
        await Promise.all(links.map((link) => link.cut('drop')));
        await sleep(ms);
        await Promise.all(links.map((link) => link.heal()));
        return `${links.length} PostgreSQL paths dropped for ${(ms / 1000).toFixed(1)} s`;
      } finally {
        for (const link of links) this.busyLinks.delete(link);
      }
    });
  }

  partition(): Promise<void> {
    return this.record('partition', async () => {
      const nodes = this.cluster.nodes;
      const node = nodes[Math.floor(this.rnd() * nodes.length)];
      const from = (['postgres', 'redis', 'inbound', 'all'] as const)[Math.floor(this.rnd() * 4)];
      const links = (from === 'all' ? Object.values(node.links) : [node.links[from]]).filter((link) => !this.busyLinks.has(link));
      if (links.length === 0) return undefined;
      const mode = this.rnd() < 0.5 ? 'drop' : 'blackhole';
      for (const link of links) this.busyLinks.add(link);
      try {
        const ms = this.between(this.options.partitionMs);
        await Promise.all(links.map((link) => link.cut(mode)));
        await sleep(ms);
        await Promise.all(links.map((link) => link.heal()));
        const what = from === 'inbound' ? 'the other processes' : from === 'all' ? 'PostgreSQL, Redis and the other processes' : from === 'postgres' ? 'PostgreSQL' : 'Redis';
        return `${node.name} cut off from ${what} (${mode}) for ${(ms / 1000).toFixed(1)} s`;
      } finally {
        for (const link of links) this.busyLinks.delete(link);
      }
    });
  }

  /**
   * Runs every lane until each kind has injected `perKind` faults: a kind spaces its faults evenly over the phase
   * with a random offset in each slot. Stalls (up to 30 s each) run in two lanes, on two different processes.
   * Bounded: a lane gives up at twice the phase plus a minute, or after 50 × perKind attempts.
   */
  async run(): Promise<void> {
    const start = Date.now();
    const slot = this.options.phaseMs / Math.max(1, this.options.perKind);
    const hardEnd = start + this.options.phaseMs * 2 + 60_000;
    const lane = async (kind: FaultKind, inject: () => Promise<void>) => {
      for (let attempt = 0; attempt < this.options.perKind * 50; attempt++) {
        const done = this.records.filter((r) => r.kind === kind).length;
        if (done >= this.options.perKind || Date.now() > hardEnd) return;
        const due = start + done * slot + this.rnd() * slot * 0.5;
        if (due > Date.now()) await sleep(due - Date.now());
        await inject();
        if (this.records.filter((r) => r.kind === kind).length === done) await sleep(250);
      }
    };
    await Promise.all([
      lane('stall', () => this.stall()),
      lane('stall', () => this.stall()),
      lane('kill', () => this.kill()),
      lane('redis-restart', () => this.redisRestart()),
      lane('postgres-restart', () => this.postgresRestart()),
      lane('partition', () => this.partition()),
    ]);
  }

  counts(): Record<FaultKind, number> {
    const out = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
    for (const r of this.records) out[r.kind]++;
    return out;
  }
}

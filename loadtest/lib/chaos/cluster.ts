/**
 * The chaos run's cluster: three (or `size`) real server processes (`node <npm start's flags> src/start.js`), each in
 * its own process group, on one Redis and one PostgreSQL database, set up as the scale-out suites set them up
 * (NODE_ENV=test, REDIS_URL, DATABASE_URL, a shared JWT_SECRET and key prefix). Every path a server talks over goes
 * through a Link the harness controls: its PostgreSQL link, its Redis link, and its inbound link, which is its
 * INTERNAL_ADDRESS (how the other processes reach it for /ws hand-overs and REST forwarding). Clients reach each
 * process directly on its own port (PUBLIC_ADDRESS), as a load balancer would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, gameNodeFlags, ROOT } from '../server-process.ts';
import { Link } from './link.ts';
import type { ProcessGroups } from './process-groups.ts';

export interface ServerNode {
  readonly index: number;
  readonly name: string;
  readonly port: number;
  readonly baseUrl: string;
  readonly wsUrl: string;
  readonly links: { postgres: Link; redis: Link; inbound: Link };
  child: ChildProcess | null;
  /** `running` (as far as the harness did anything to it), `stopped` (SIGSTOP), `down` (killed, not yet back). */
  state: 'running' | 'stopped' | 'down';
  /** Processes spawned for it (a start that failed and was retried counts). */
  starts: number;
}

export interface ClusterOptions {
  size: number;
  databasePort: number;
  databaseName: string;
  redisPort: number;
  /** Variables every process gets (beside the addresses). */
  env: Record<string, string>;
  logDir: string;
}

export class Cluster {
  readonly nodes: ServerNode[] = [];
  private readonly options: ClusterOptions;
  private readonly groups: ProcessGroups;

  constructor(options: ClusterOptions, groups: ProcessGroups) {
    this.options = options;
    this.groups = groups;
  }

  async start(): Promise<void> {
    for (let index = 0; index < this.options.size; index++) {
      const port = await freePort();
      const name = `s${index + 1}`;
      const links = {
        postgres: new Link(`${name}→postgres`, this.options.databasePort),
        redis: new Link(`${name}→redis`, this.options.redisPort),
        inbound: new Link(`peers→${name}`, port),
      };
      for (const link of Object.values(links)) await link.start();
      this.nodes.push({ index, name, port, baseUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}`, links, child: null, state: 'down', starts: 0 });
    }
    // One after the other: the first opens the standing worlds, the next ones find them listed.
    for (const node of this.nodes) await this.launch(node);
  }

  /** Every link of the cluster, by name. */
  links(): Link[] {
    return this.nodes.flatMap((node) => Object.values(node.links));
  }

  private envOf(node: ServerNode): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '',
      NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(node.port),
      PUBLIC_ADDRESS: `127.0.0.1:${node.port}`,
      INTERNAL_ADDRESS: `127.0.0.1:${node.links.inbound.port}`,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${node.links.postgres.port}/${this.options.databaseName}`,
      REDIS_URL: `redis://127.0.0.1:${node.links.redis.port}`,
      ...this.options.env,
    };
  }

  /**
   * Spawns the node's process in a group of its own and waits for /health. A process that exits while starting (its
   * database or Redis path is cut at that moment) is started again, as a supervisor would: 90 s in all at most.
   */
  async launch(node: ServerNode): Promise<void> {
    const deadline = Date.now() + 90_000;
    for (let attempt = 0; attempt < 30 && Date.now() < deadline; attempt++) {
      const log = fs.openSync(path.join(this.options.logDir, `${node.name}.log`), 'a');
      const child = spawn(process.execPath, [...gameNodeFlags(), 'src/start.js'], {
        cwd: ROOT, env: this.envOf(node), detached: true, stdio: ['ignore', log, log],
      });
      fs.closeSync(log);
      this.groups.add(child);
      node.child = child;
      node.starts++;
      while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
        if (await this.healthy(node)) {
          node.state = 'running';
          return;
        }
        await sleep(100);
      }
      if (child.exitCode === null && child.signalCode === null) break;
      await sleep(500);
    }
    throw new Error(`${node.name} did not become healthy (log: ${path.join(this.options.logDir, `${node.name}.log`)})`);
  }

  async healthy(node: ServerNode): Promise<boolean> {
    try {
      return (await fetch(`${node.baseUrl}/health`, { signal: AbortSignal.timeout(1_000) })).status === 200;
    } catch {
      return false;
    }
  }

  stop(node: ServerNode): void {
    if (node.child && this.groups.signal(node.child, 'SIGSTOP')) node.state = 'stopped';
  }

  resume(node: ServerNode): void {
    if (node.child && this.groups.signal(node.child, 'SIGCONT') && node.state === 'stopped') node.state = 'running';
  }

  /** kill -9 of the node's group; resolves once it is gone. */
  async kill(node: ServerNode): Promise<void> {
    const child = node.child;
    node.state = 'down';
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    this.groups.signal(child, 'SIGKILL');
    await Promise.race([exited, sleep(10_000)]);
  }

  /** The processes a client may try (not killed); a stopped one looks like any other from outside. */
  reachable(): ServerNode[] {
    return this.nodes.filter((node) => node.state !== 'down');
  }

  async stopAll(): Promise<void> {
    for (const node of this.nodes) {
      const child = node.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) continue;
      this.groups.signal(child, 'SIGCONT');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      this.groups.signal(child, 'SIGTERM');
      await Promise.race([exited, sleep(12_000)]);
      if (child.exitCode === null && child.signalCode === null) this.groups.signal(child, 'SIGKILL');
    }
    for (const link of this.links()) await link.stop();
  }
}

/**
 * A Redis of the chaos run's own: `redis-server` on a free loopback port with its data in the run's scratch folder,
 * so the harness can restart it as often as it likes without disturbing anything else on the machine. A restart is
 * `SHUTDOWN SAVE` and a new server on the same port and data (as a managed Redis restarts: the keys come back, every
 * connection and subscription is cut). Started in its own process group; the harness kills it however it exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../server-process.ts';
import type { ProcessGroups } from './process-groups.ts';

export class RedisServer {
  readonly dir: string;
  private readonly groups: ProcessGroups;
  private child: ChildProcess | null = null;
  port = 0;

  constructor(dir: string, groups: ProcessGroups) {
    this.dir = dir;
    this.groups = groups;
  }

  async start(): Promise<void> {
    this.port ||= await freePort();
    const child = spawn('redis-server', [
      '--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--appendonly', 'no',
      '--protected-mode', 'yes', '--loglevel', 'warning',
    ], { detached: true, stdio: ['ignore', 'ignore', 'inherit'] });
    this.groups.add(child);
    this.child = child;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (await this.ping()) return;
      if (child.exitCode !== null) break;
      await sleep(50);
    }
    throw new Error(`redis-server did not start on port ${this.port}`);
  }

  /** PING over a raw socket (no client library needed for one command); `port`: a link in front of this Redis. */
  ping(port = this.port): Promise<boolean> {
    return this.command('PING', port).then((answer) => answer.startsWith('+PONG'), () => false);
  }

  private command(line: string, port = this.port): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      socket.setTimeout(2_000, () => socket.destroy(new Error('timeout')));
      socket.on('connect', () => socket.write(`${line}\r\n`));
      socket.on('data', (chunk) => {
        answer += chunk.toString();
        socket.end();
      });
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
  }

  /** SHUTDOWN SAVE, then a new server on the same port and data; resolves once it answers. */
  async restart(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await this.command('SHUTDOWN SAVE').catch(() => undefined);
      await Promise.race([exited, sleep(5_000)]);
      if (child.exitCode === null) this.groups.signal(child, 'SIGKILL');
    }
    await this.start();
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    this.groups.signal(child, 'SIGKILL');
    await Promise.race([exited, sleep(5_000)]);
  }
}

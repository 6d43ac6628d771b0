/**
 * Every child of a chaos run lives in a process group of its own (spawned `detached`), so a signal reaches the whole
 * group: SIGSTOP/SIGCONT/SIGKILL of a server process. The groups are killed when the harness exits, however it exits:
 * on a normal exit, an uncaught error or SIGINT/SIGTERM by the handlers below, and on a `kill -9` of the harness by a
 * watchdog process (watchdog.ts) that polls the harness and kills the groups listed in a file once it is gone. The
 * same file carries the last-resort commands (dropping the scratch database) run then.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export class ProcessGroups {
  private readonly groups = new Set<number>();
  /** Commands to run if the harness dies before its own cleanup (argv lists). */
  private lastResort: string[][] = [];
  private readonly listFile: string;
  private watchdog: ChildProcess | null = null;

  constructor(dir: string) {
    this.listFile = path.join(dir, 'process-groups.json');
    this.write();
    const killAll = () => this.killAll();
    process.once('exit', killAll);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        killAll();
        process.exit(130);
      });
    }
    process.once('uncaughtException', (error) => {
      console.error(error);
      killAll();
      process.exit(1);
    });
  }

  /** Starts the watchdog (once the list file exists). */
  startWatchdog(): void {
    this.watchdog = spawn(process.execPath, [path.join(import.meta.dirname, 'watchdog.ts'), String(process.pid), this.listFile], {
      detached: true, stdio: 'ignore',
    });
    this.watchdog.unref();
  }

  /** A command to run if the harness goes away before `clearLastResort` (e.g. dropping the scratch database). */
  addLastResort(argv: string[]): void {
    this.lastResort.push(argv);
    this.write();
  }

  clearLastResort(): void {
    this.lastResort = [];
    this.write();
  }

  add(child: ChildProcess): void {
    if (child.pid === undefined) return;
    const pid = child.pid;
    this.groups.add(pid);
    this.write();
    child.once('exit', () => {
      this.groups.delete(pid);
      this.write();
    });
  }

  /**
   * Signals the child's whole group; false when it is gone. Never once it has exited: its pid, and so its group id,
   * may already belong to another process (pid_max is 32,768 on this machine, and the pids wrapped during one
   * session of chaos runs), and a stall would stop that one instead — the harness' own Redis, say, or a process
   * that is not the harness' at all.
   */
  signal(child: ChildProcess, signal: NodeJS.Signals): boolean {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return false;
    try {
      process.kill(-child.pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  killAll(): void {
    for (const pid of this.groups) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    this.groups.clear();
    for (const [command, ...args] of this.lastResort) {
      try {
        execFileSync(command, args, { stdio: 'ignore', timeout: 15_000 });
      } catch {
        // best effort
      }
    }
    this.lastResort = [];
    this.write();
    try {
      if (this.watchdog?.pid) process.kill(this.watchdog.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  private write(): void {
    try {
      fs.writeFileSync(this.listFile, JSON.stringify({ groups: [...this.groups], lastResort: this.lastResort }));
    } catch {
      // the scratch folder is being removed at the end
    }
  }
}

/**
 * CPU of the PostgreSQL backends serving one database, from /proc (Linux, a PostgreSQL on this machine). A backend's
 * command line reads `postgres: <cluster>: <user> <database> <client> <state>`, so the backends of a scratch
 * database are told apart from every other PostgreSQL user of a shared machine (other tests, other benches). Shared
 * background processes (WAL writer, checkpointer) serve every database and are not counted.
 *
 * Backends come and go (a pool reconnecting, pgbench's clients exiting at its end), so the meter polls: a backend that
 * exits is counted up to its last poll (at most `pollMs` of its CPU is missed).
 */
import fs from 'node:fs';
import { cpuSeconds } from './process-monitor.ts';

/**
 * The pids of live backends connected to `database`. `skip` remembers processes that are not PostgreSQL at all, so a
 * meter polling every 100 ms reads only the PostgreSQL processes' command lines again (a backend just forked may still
 * carry the postmaster's).
 */
export function backendPids(database: string, skip = new Set<number>()): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || skip.has(Number(entry))) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (isBackendOf(cmdline, database)) pids.push(Number(entry));
      else if (!cmdline.includes('postgres')) skip.add(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** Whether a /proc cmdline (NUL-separated, or a rewritten process title) is a backend of `database`. */
export function isBackendOf(cmdline: string, database: string): boolean {
  const title = cmdline.replaceAll('\0', ' ');
  const match = /^postgres: (?:[^:]+: )?(\S+) (\S+) /.exec(title);
  return match !== null && match[2] === database;
}

export class DatabaseBackendsCpuMeter {
  private readonly database: string;
  private readonly pollMs: number;
  private readonly before = new Map<number, number>();
  private readonly latest = new Map<number, number>();
  private readonly notPostgres = new Set<number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(database: string, pollMs = 100) {
    this.database = database;
    this.pollMs = pollMs;
  }

  private poll(): void {
    for (const pid of backendPids(this.database, this.notPostgres)) {
      try {
        this.latest.set(pid, cpuSeconds(pid));
      } catch {
        // exited between the listing and the read
      }
    }
  }

  start(): void {
    this.before.clear();
    this.latest.clear();
    this.poll();
    for (const [pid, seconds] of this.latest) this.before.set(pid, seconds);
    this.timer = setInterval(() => this.poll(), this.pollMs);
    this.timer.unref();
  }

  /** Core-seconds the database's backends used since start() (a backend born since then counts from zero). */
  stop(): number {
    clearInterval(this.timer);
    this.poll();
    let used = 0;
    for (const [pid, seconds] of this.latest) used += seconds - (this.before.get(pid) ?? 0);
    return used;
  }
}

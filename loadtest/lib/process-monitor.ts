/** CPU time and resident memory of another process, read from /proc (Linux). */
import fs from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100;

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A process' CPU time so far, in seconds: in its own code (user) and in the kernel on its behalf (system). */
export function cpuTimes(pid: number): { user: number; system: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15 (1-based).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / CLOCK_TICKS_PER_SECOND, system: Number(fields[12]) / CLOCK_TICKS_PER_SECOND };
}

export function cpuSeconds(pid: number): number {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : NaN;
}

/** CPU use between two moments, as a fraction of one core. */
export class CpuMeter {
  private readonly pid: number;
  private startCpu = { user: 0, system: 0 };
  private startWall = 0;
  /** Of the cores stop() returned, those spent in the kernel (socket writes and reads, wake-ups). */
  kernelCores = 0;

  constructor(pid: number) {
    this.pid = pid;
  }

  start(): void {
    this.startCpu = cpuTimes(this.pid);
    this.startWall = performance.now();
  }

  /** Cores used on average since start() (and sets kernelCores). */
  stop(): number {
    const now = cpuTimes(this.pid);
    const seconds = (performance.now() - this.startWall) / 1000;
    this.kernelCores = (now.system - this.startCpu.system) / seconds;
    return (now.user - this.startCpu.user) / seconds + this.kernelCores;
  }
}

/** CPU seconds of every process whose command name is `name` (e.g. all PostgreSQL backends), by pid. */
function cpuSecondsByName(name: string): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === name) byPid.set(Number(entry), cpuSeconds(Number(entry)));
    } catch {
      // the process ended while we looked
    }
  }
  return byPid;
}

/**
 * CPU used by all processes of one name between two moments, in core-seconds. A process that exits inside the
 * window is not counted, so measure over a window where they live on (a server's connection pool).
 */
export class NamedProcessesCpuMeter {
  private readonly name: string;
  private before = new Map<number, number>();

  constructor(name: string) {
    this.name = name;
  }

  start(): void {
    this.before = cpuSecondsByName(this.name);
  }

  stop(): number {
    let used = 0;
    for (const [pid, seconds] of cpuSecondsByName(this.name)) used += seconds - (this.before.get(pid) ?? 0);
    return used;
  }
}

/** Busy CPU time of the whole machine (every core, every process, the kernel), in core-seconds, from /proc/stat. */
function machineBusySeconds(): number {
  const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/);
  const [user, nice, system, /* idle */, /* iowait */, irq, softirq, steal] = fields.map(Number);
  return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS_PER_SECOND;
}

export class MachineCpuMeter {
  private startBusy = 0;
  private startWall = 0;

  start(): void {
    this.startBusy = machineBusySeconds();
    this.startWall = performance.now();
  }

  /** Busy core-seconds since start() and the average number of busy cores. */
  stop(): { coreSeconds: number; cores: number } {
    const coreSeconds = machineBusySeconds() - this.startBusy;
    return { coreSeconds, cores: coreSeconds / ((performance.now() - this.startWall) / 1000) };
  }
}

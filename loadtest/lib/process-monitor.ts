/** CPU time and resident memory of another process, read from /proc (Linux). */
import fs from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100;

export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15 (1-based).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : NaN;
}

/** CPU use between two moments, as a fraction of one core. */
export class CpuMeter {
  private readonly pid: number;
  private startCpu = 0;
  private startWall = 0;

  constructor(pid: number) {
    this.pid = pid;
  }

  start(): void {
    this.startCpu = cpuSeconds(this.pid);
    this.startWall = performance.now();
  }

  /** Cores used on average since start(). */
  stop(): number {
    return (cpuSeconds(this.pid) - this.startCpu) / ((performance.now() - this.startWall) / 1000);
  }
}

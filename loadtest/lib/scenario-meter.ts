/**
 * What a load scenario counts while it runs: named counters, errors by code, one latency distribution (and
 * optionally one per label). Prints a progress line every few seconds and ends with a summary.
 */
import { Samples, round } from './stats.ts';
import { CpuMeter } from './process-monitor.ts';
import { describeNotJoined, type NotJoined } from './join-phase.ts';

export interface ScenarioSummary {
  scenario: string;
  clients: number;
  connected: number;
  /** The bots that never joined (lib/join-phase.ts): how many, by reason, and the first names. */
  notJoined: ReturnType<typeof describeNotJoined>;
  seconds: number;
  /** The scenario's unit of work (trades, items gathered, requests). */
  operation: string;
  operations: number;
  perSecond: number;
  errors: number;
  errorsByCode: Record<string, number>;
  latency: string;
  latencyP50Ms: number;
  latencyP99Ms: number;
  counts: Record<string, number>;
  /** Other measured values (e.g. a second latency), by name with their unit. */
  figures: Record<string, number>;
  serverCpuCores?: number;
  byLabel?: Record<string, { count: number; p50Ms: number; p99Ms: number }>;
}

export class ScenarioMeter {
  readonly scenario: string;
  readonly operation: string;
  /** What the latency measures, e.g. "request → response". */
  readonly latencyMeaning: string;
  readonly latency = new Samples();
  readonly counts = new Map<string, number>();
  readonly errorCodes = new Map<string, number>();
  readonly figures = new Map<string, number>();
  private readonly byLabel = new Map<string, Samples>();
  operations = 0;
  errors = 0;
  private startedAt = performance.now();
  private endedAt: number | undefined;

  constructor(scenario: string, operation: string, latencyMeaning: string) {
    this.scenario = scenario;
    this.operation = operation;
    this.latencyMeaning = latencyMeaning;
  }

  /** Starts the measured window: counts and samples from before (joining, warm-up) are dropped. */
  begin(): void {
    this.startedAt = performance.now();
    this.endedAt = undefined;
    this.operations = 0;
    this.errors = 0;
    this.counts.clear();
    this.errorCodes.clear();
    this.latency.reset();
    this.byLabel.clear();
  }

  /** Ends the measured window after `seconds`: what completes later (bots draining) is not counted. */
  endAfter(seconds: number): void {
    setTimeout(() => { this.endedAt = performance.now(); }, seconds * 1000).unref();
  }

  private get ended(): boolean {
    return this.endedAt !== undefined;
  }

  done(latencyMs?: number, label?: string): void {
    if (this.ended) return;
    this.operations++;
    if (latencyMs !== undefined) this.sample(latencyMs, label);
  }

  /** Counts `n` units of work done (no latency sample). */
  add(n: number): void {
    if (!this.ended) this.operations += n;
  }

  sample(latencyMs: number, label?: string): void {
    if (this.ended) return;
    this.latency.add(latencyMs);
    if (label !== undefined) {
      let samples = this.byLabel.get(label);
      if (!samples) this.byLabel.set(label, (samples = new Samples()));
      samples.add(latencyMs);
    }
  }

  count(name: string, n = 1): void {
    if (this.ended) return;
    this.counts.set(name, (this.counts.get(name) ?? 0) + n);
  }

  figure(name: string, value: number): void {
    this.figures.set(name, value);
  }

  error(code: string): void {
    if (this.ended) return;
    this.errors++;
    this.errorCodes.set(code, (this.errorCodes.get(code) ?? 0) + 1);
  }

  get elapsedSeconds(): number {
    return ((this.endedAt ?? performance.now()) - this.startedAt) / 1000;
  }

  /**
   * The measured window: starts counting, logs progress, runs `work` until `deadline` (performance.now() ms),
   * stops counting after `seconds`, and returns the server process' CPU cores over the window.
   */
  async measure(serverPid: number, seconds: number, log: (line: string) => void, work: (deadline: number) => Promise<unknown>): Promise<number> {
    const cpu = new CpuMeter(serverPid);
    this.begin();
    this.endAfter(seconds);
    cpu.start();
    const stopProgress = this.progress(log);
    try {
      await work(performance.now() + seconds * 1000);
    } finally {
      stopProgress();
    }
    return cpu.stop();
  }

  /** Logs one line every `everyMs` until the returned function is called. */
  progress(log: (line: string) => void, everyMs = 5_000): () => void {
    let lastOps = this.operations;
    let lastAt = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      const rate = (this.operations - lastOps) / ((now - lastAt) / 1000);
      lastOps = this.operations;
      lastAt = now;
      const extra = [...this.counts].slice(0, 4).map(([k, v]) => `${k} ${v}`).join('  ');
      log(`  [${this.scenario}] ${round(this.elapsedSeconds, 0)} s  ${this.operation} ${this.operations} (${round(rate, 1)}/s)  ` +
        `errors ${this.errors}  p50 ${round(this.latency.p(50), 1)} ms  p99 ${round(this.latency.p(99), 1)} ms${extra ? `  ${extra}` : ''}`);
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  summary(clients: number, connected: number, notJoined: readonly NotJoined[], serverCpuCores?: number): ScenarioSummary {
    const seconds = this.elapsedSeconds;
    return {
      scenario: this.scenario,
      clients,
      connected,
      notJoined: describeNotJoined(notJoined),
      seconds: round(seconds, 1),
      operation: this.operation,
      operations: this.operations,
      perSecond: round(this.operations / seconds, 1),
      errors: this.errors,
      errorsByCode: Object.fromEntries(this.errorCodes),
      latency: this.latencyMeaning,
      latencyP50Ms: round(this.latency.p(50), 1),
      latencyP99Ms: round(this.latency.p(99), 1),
      counts: Object.fromEntries(this.counts),
      figures: Object.fromEntries(this.figures),
      ...(serverCpuCores !== undefined && Number.isFinite(serverCpuCores) ? { serverCpuCores: round(serverCpuCores, 2) } : {}),
      ...(this.byLabel.size > 0 ? {
        byLabel: Object.fromEntries([...this.byLabel].map(([label, s]) => [label, { count: s.count, p50Ms: round(s.p(50), 1), p99Ms: round(s.p(99), 1) }])),
      } : {}),
    };
  }
}

/** The summary as aligned text lines. */
export function formatSummary(summary: ScenarioSummary): string[] {
  const lines = [
    `${summary.scenario}: ${summary.connected}/${summary.clients} clients, ${summary.seconds} s measured`,
    ...notJoinedLines(summary.notJoined),
    `  ${summary.operation.padEnd(22)} ${summary.operations} (${summary.perSecond}/s)`,
    `  ${'errors'.padEnd(22)} ${summary.errors}${summary.errors ? `  ${JSON.stringify(summary.errorsByCode)}` : ''}`,
    `  ${'latency p50 / p99'.padEnd(22)} ${summary.latencyP50Ms} / ${summary.latencyP99Ms} ms (${summary.latency})`,
  ];
  for (const [name, value] of [...Object.entries(summary.counts), ...Object.entries(summary.figures)]) lines.push(`  ${name.padEnd(22)} ${value}`);
  for (const [label, s] of Object.entries(summary.byLabel ?? {})) lines.push(`  ${label.padEnd(40)} ${s.count} · p50 ${s.p50Ms} ms · p99 ${s.p99Ms} ms`);
  if (summary.serverCpuCores !== undefined) lines.push(`  ${'server CPU'.padEnd(22)} ${summary.serverCpuCores} cores`);
  return lines;
}

/** The "never joined" line of a summary, when any bot never joined. */
export function notJoinedLines(notJoined: ReturnType<typeof describeNotJoined>): string[] {
  if (notJoined.count === 0) return [];
  const more = notJoined.count > notJoined.names.length ? ` and ${notJoined.count - notJoined.names.length} more` : '';
  return [`  ${'never joined'.padEnd(22)} ${notJoined.count} ${JSON.stringify(notJoined.byReason)}: ${notJoined.names.join(', ')}${more}`];
}

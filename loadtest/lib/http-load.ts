/**
 * A closed-loop HTTP load: `concurrency` workers each send the next request as soon as the previous answered,
 * for a fixed duration, over fetch's pooled keep-alive connections. Returns throughput and latency percentiles.
 */
import { Samples, round } from './stats.ts';

export interface HttpLoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

export async function httpLoad(url: string, options: { concurrency: number; durationSeconds: number; headers?: Record<string, string> }): Promise<HttpLoadResult> {
  const latencies = new Samples();
  let errors = 0;
  const deadline = performance.now() + options.durationSeconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        const response = await fetch(url, { headers: options.headers });
        await response.arrayBuffer();
        if (response.status !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.add(performance.now() - started);
    }
  };
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const elapsed = (performance.now() - startedAt) / 1000;
  return { requestsPerSecond: round(latencies.count / elapsed, 0), p50Ms: round(latencies.p(50), 2), p99Ms: round(latencies.p(99), 2), errors };
}

/** Polls a URL at a fixed interval until stopped, recording latency (probes under load). */
export function startProbe(url: string, intervalMs: number): { stop(): { p50Ms: number; p99Ms: number; count: number; failures: number } } {
  const latencies = new Samples();
  let failures = 0;
  let running = true;
  const loop = async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(url);
        await response.arrayBuffer();
        if (!response.ok) failures++;
      } catch {
        failures++;
      }
      latencies.add(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  };
  void loop();
  return {
    stop: () => {
      running = false;
      return { p50Ms: round(latencies.p(50), 2), p99Ms: round(latencies.p(99), 2), count: latencies.count, failures };
    },
  };
}

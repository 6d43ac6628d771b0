/**
 * A probe in its own process, as a hosting platform's health check is: it polls each URL every `interval` ms until a
 * line arrives on stdin, then prints each URL's latency figures as JSON and exits. Run by probe-process.ts; in the
 * load generator's process the bots' own event-loop lag would be counted as the server's latency.
 * Run: node loadtest/lib/probe-child.ts <interval ms> <url> [<url> ...]
 */
import type { ProbeFigures } from './probe-process.ts';
import { Samples, round } from './stats.ts';

const intervalMs = Number(process.argv[2]);
const urls = process.argv.slice(3);
let running = true;

async function poll(url: string): Promise<ProbeFigures> {
  const latencies = new Samples();
  let failures = 0;
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
  return { p50Ms: round(latencies.p(50), 2), p99Ms: round(latencies.p(99), 2), count: latencies.count, failures };
}

const figures = Promise.all(urls.map(poll));
process.stdin.once('data', async () => {
  running = false;
  process.stdout.write(`${JSON.stringify(await figures)}\n`);
  process.exit(0);
});

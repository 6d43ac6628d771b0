/**
 * A few of a run's walkers in a process of their own, as a player on their own machine is: their move → ack
 * latencies are then the server's, not the load generator's (with 2,000 SDK bots decoding their patches in one
 * process, that process' own loop lag was 350–580 ms, and every ack the bulk bots measure includes it).
 * Protocol (lines): it prints `joined <n>` once its walkers are in, `reset` on stdin forgets the warm-up's samples,
 * `stop` prints its figures as JSON and exits. Run by walker-probe-process.ts:
 * node loadtest/lib/walker-probe-child.ts <json|sdk> <server url> <seeds file>
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { computeBlockedTiles } from '../../src/manifests/blocked-tiles.ts';
import { loadBundledWorld } from './game-data.ts';
import type { SeededWalker } from './seed.ts';
import { round } from './stats.ts';
import { JsonWalker, newWalkerStats, SdkWalker, type Walker } from './walkers.ts';
import type { WalkerProbeFigures } from './walker-probe-process.ts';

const [kind, url, seedsFile] = process.argv.slice(2);
const seeds = JSON.parse(fs.readFileSync(seedsFile, 'utf8')) as SeededWalker[];
const grid = computeBlockedTiles(loadBundledWorld());
const stats = newWalkerStats();
const walkers: Walker[] = seeds.map((seed) => kind === 'json' ? new JsonWalker(url, seed, grid, stats) : new SdkWalker(url, seed, grid, stats));
const joined = (await Promise.allSettled(walkers.map((walker) => walker.start()))).filter((r) => r.status === 'fulfilled').length;
process.stdout.write(`joined ${joined}\n`);

const ownLag = monitorEventLoopDelay({ resolution: 10 });
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line === 'reset') {
    stats.ack.reset();
    ownLag.reset();
    ownLag.enable();
    return;
  }
  if (line !== 'stop') return;
  ownLag.disable();
  const figures: WalkerProbeFigures = {
    walkers: joined,
    ackP50Ms: round(stats.ack.p(50), 1),
    ackP99Ms: round(stats.ack.p(99), 1),
    acks: stats.ack.count,
    ownLagP99Ms: round(ownLag.percentile(99) / 1e6, 1),
  };
  for (const walker of walkers) walker.stop();
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  setTimeout(() => process.exit(0), 300).unref();
});

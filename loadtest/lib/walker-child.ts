/**
 * Walkers in a process of their own (started by walker-process.ts). A run's bulk bots can be spread over several of
 * them, so that no one load generator process is saturated (2,000 SDK bots decoding their patches kept one process'
 * loop 350–2,000 ms late, and every ack its bots measured included that), and a few walkers can walk apart from the
 * bulk, as a player on their own machine does.
 * Protocol (lines): after its join phase it prints `{"joined", "notJoined"}`; `reset` on stdin forgets the warm-up's
 * samples; `stop` prints its figures (WalkerChildFigures); `quit` stops its walkers and exits.
 * Run: node loadtest/lib/walker-child.ts <json|sdk> <server url> <seeds file> <join deadline ms> [<updates>] [no-decode]
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { computeBlockedTiles } from '../../src/manifests/blocked-tiles.ts';
import type { UpdateEncoding } from '../../rooms/world/update-frames.ts';
import { loadBundledWorld } from './game-data.ts';
import { joinPhase } from './join-phase.ts';
import type { SeededWalker } from './seed.ts';
import { round, Samples } from './stats.ts';
import { JsonWalker, newWalkerStats, SdkWalker, startWindow, startWithin, type Walker, type WindowStart } from './walkers.ts';
import type { WalkerChildFigures, WalkerChildJoined } from './walker-process.ts';

/** Samples that also keep their values, to be merged with the other processes' in the parent. */
class KeptSamples extends Samples {
  values: number[] = [];
  override add(milliseconds: number): void {
    super.add(milliseconds);
    this.values.push(round(milliseconds, 2));
  }
  override reset(): void {
    super.reset();
    this.values = [];
  }
}

const [kind, url, seedsFile, deadline, updatesArg, decoding] = process.argv.slice(2);
const updates = (updatesArg || undefined) as UpdateEncoding | undefined;
const seeds = JSON.parse(fs.readFileSync(seedsFile, 'utf8')) as SeededWalker[];
const grid = computeBlockedTiles(loadBundledWorld());
const ack = new KeptSamples();
const delivery = new KeptSamples();
const stats = { ...newWalkerStats(), ack, delivery };
const walkers: Walker[] = seeds.map((seed) => kind === 'json' ? new JsonWalker(url, seed, grid, stats, updates) : new SdkWalker(url, seed, grid, stats, updates, decoding !== 'no-decode'));
const outcome = await joinPhase(walkers, {
  start: startWithin, name: (walker) => walker.name, deadlineMs: Number(deadline), log: (line) => process.stderr.write(`${line}\n`),
});
const joined: WalkerChildJoined = outcome;
process.stdout.write(`${JSON.stringify(joined)}\n`);

const ownLag = monitorEventLoopDelay({ resolution: 10 });
let before: WindowStart = { movesSent: stats.movesSent, errors: stats.errors, updatesReceived: stats.updatesReceived };
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line === 'reset') {
    before = startWindow(stats);
    ownLag.reset();
    ownLag.enable();
    return;
  }
  if (line === 'quit') {
    for (const walker of walkers) walker.stop();
    setTimeout(() => process.exit(0), 500).unref();
    return;
  }
  if (line !== 'stop') return;
  ownLag.disable();
  const figures: WalkerChildFigures = {
    ack: ack.values,
    delivery: delivery.values,
    moves: stats.movesSent - before.movesSent,
    errors: stats.errors - before.errors,
    updatesReceived: stats.updatesReceived - before.updatesReceived,
    sampledTextBytes: stats.sampledTextBytes,
    sampledPackedBytes: stats.sampledPackedBytes,
    ownLagP99Ms: round(ownLag.percentile(99) / 1e6, 1),
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
});

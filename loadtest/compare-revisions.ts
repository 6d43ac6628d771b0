/**
 * Before vs after, in one run: the same benchmark part against two revisions of this repository, alternated so a
 * shared machine's drift falls on both. Each revision is checked out in a throwaway git worktree (sharing this
 * checkout's node_modules) and measured by its own `loadtest/bench.ts --only <part>`; the figures are read from
 * that worktree's docs/benchmarks.json, printed, and written to this checkout's docs/BENCHMARKS.md between the
 * `revisions:<part>` markers (bench.ts keeps those sections).
 *   npm run bench:compare -- --base 623357e                      # walkers, HEAD vs 623357e
 *   npm run bench:compare -- --base 623357e --only trades        # needs DATABASE_URL (pgbench beside it)
 *   npm run bench:compare -- --base 623357e --only jsonwalkers --walkers 2000   # only the /ws JSON walker run
 *                                                                 # (each tree's own runWalkers, no baselines)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/server-process.ts';
import { median, round } from './lib/stats.ts';
import type { WalkerRunResult } from './lib/walker-scenario.ts';
import type { TradeBenchFigures } from './trade-bench.ts';
import { sectionMarkers, writeSection } from './lib/benchmarks-doc.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    head: { type: 'string', default: 'HEAD' },
    only: { type: 'string', default: 'walkers' },
    walkers: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
  },
});
if (!values.base) throw new Error('--base <revision> is required');
if (!['walkers', 'trades', 'jsonwalkers'].includes(values.only)) throw new Error('--only walkers | trades | jsonwalkers');
const rounds = Math.max(1, Math.min(5, Number(values.rounds)));
const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

interface Revision {
  label: string;
  commit: string;
  tree: string;
}

function checkout(label: string, revision: string): Revision {
  const commit = git('rev-parse', '--short', revision);
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${label}-`));
  git('worktree', 'add', '--detach', tree, commit);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'), 'dir');
  return { label, commit, tree };
}

type Figures = Record<string, number | null>;

/** One /ws JSON walker run of the revision's own loadtest/lib/walker-scenario.ts (faster than its whole walker part). */
function measureJsonWalkers(revision: Revision): Figures {
  const script = `const { runWalkers } = await import('./loadtest/lib/walker-scenario.ts');
    const r = await runWalkers({ server: 'game', kind: 'json', clients: ${Number(values.walkers)}, durationSeconds: ${Number(values.duration)}, log: () => {} });
    console.log('RESULT ' + JSON.stringify(r));`;
  console.log(`${revision.label} (${revision.commit}): ${values.walkers} /ws JSON walkers, ${values.duration} s`);
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: revision.tree, encoding: 'utf8', env: process.env, timeout: 15 * 60_000 });
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (run.status !== 0 || !line) throw new Error(`the walker run of ${revision.commit} failed (${run.status ?? run.signal}): ${run.stderr.slice(-500)}`);
  const w = JSON.parse(line.slice('RESULT '.length)) as WalkerRunResult;
  return {
    'server CPU (cores)': w.serverCpuCores,
    'CPU per player per tick µs': w.cpuUsPerPlayerTick ?? null,
    'lag p99 ms': w.eventLoopLagP99Ms,
    'move→ack p99 ms': w.ackP99Ms,
    'interest ms per tick': w.tick?.phaseMeanMs.interest ?? null,
    'encode ms per tick': w.tick?.phaseMeanMs.encode ?? null,
    'send ms per tick': w.tick?.phaseMeanMs.send ?? null,
    'world:update bytes per player per tick': w.tick?.bytesPerPlayerPerTick ?? null,
  };
}

function measure(revision: Revision): Figures {
  if (values.only === 'jsonwalkers') return measureJsonWalkers(revision);
  const args = ['loadtest/bench.ts', '--only', values.only, '--walkers', values.walkers, '--duration', values.duration];
  console.log(`${revision.label} (${revision.commit}): bench ${args.slice(1).join(' ')}`);
  const run = spawnSync(process.execPath, args, { cwd: revision.tree, stdio: 'inherit', env: process.env, timeout: 30 * 60_000 });
  if (run.status !== 0) throw new Error(`the bench of ${revision.commit} failed (${run.status ?? run.signal})`);
  const results = JSON.parse(fs.readFileSync(path.join(revision.tree, 'docs/benchmarks.json'), 'utf8')) as { walkers?: WalkerRunResult[]; trades?: TradeBenchFigures };
  if (values.only === 'trades') {
    const t = results.trades;
    if (!t || !('tradesPerSecond' in t)) throw new Error('no trade figures (is DATABASE_URL set?)');
    return { 'trades/s': t.tradesPerSecond, 'server CPU ms per trade': t.cpuMsPerTrade.server, 'swap p99 ms': t.swapP99Ms, 'pgbench tps': t.pgbenchTps, ratio: t.ratio };
  }
  const figures: Figures = {};
  // The bare Colyseus room of the same bench run: a figure divided by it cancels the machine's drift between runs.
  const bare = (results.walkers ?? []).find((w) => w.server === 'bare');
  for (const w of results.walkers ?? []) {
    if (w.server !== 'game') continue;
    figures[`${w.kind} server CPU (cores)`] = w.serverCpuCores;
    if (bare) figures[`${w.kind} server CPU ÷ bare room's, same run`] = round(w.serverCpuCores / bare.serverCpuCores, 3);
    figures[`${w.kind} lag p99 ms`] = w.eventLoopLagP99Ms;
    figures[`${w.kind} move→ack p99 ms`] = w.ackP99Ms;
    figures[`${w.kind} RSS MB`] = w.rssMb;
  }
  return figures;
}

const base = checkout('base', values.base);
const head = checkout('head', values.head);
const samples = new Map<Revision, Figures[]>([[base, []], [head, []]]);
try {
  for (let i = 0; i < rounds; i++) {
    // Alternate which revision goes first, so neither always meets the machine warmer.
    for (const revision of i % 2 === 0 ? [base, head] : [head, base]) samples.get(revision)!.push(measure(revision));
  }
} finally {
  for (const revision of [base, head]) git('worktree', 'remove', '--force', revision.tree);
}

const keys = Object.keys(samples.get(base)![0]);
const rows = keys.map((key) => {
  const before = median(samples.get(base)!.map((f) => f[key] ?? NaN));
  const after = median(samples.get(head)!.map((f) => f[key] ?? NaN));
  const runs = (revision: Revision) => samples.get(revision)!.map((f) => f[key] ?? '–').join(' / ');
  return { figure: key, before: round(before, 2), after: round(after, 2), ratio: round(after / before, 2), beforeRuns: runs(base), afterRuns: runs(head) };
});
console.table(rows);

const SECTION = `revisions:${values.only}`;
const { start: START, end: END } = sectionMarkers(SECTION);
const section = [
  START,
  `## Before vs after: ${head.commit} against ${base.commit} (${values.only}, median of ${rounds} alternating runs each)`,
  '',
  `Measured on ${new Date().toISOString()}, ${os.cpus().length} cores, by \`npm run bench:compare -- --base ${values.base} --only ${values.only}` +
    `${values.only === 'trades' ? '' : ` --walkers ${values.walkers} --duration ${values.duration}`} --rounds ${rounds}\`: both revisions in one run, alternated, each from its own worktree.`,
  '',
  '| Figure | before (median) | after (median) | after / before | before, each run | after, each run |',
  '|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.figure} | ${r.before} | ${r.after} | ${r.ratio} | ${r.beforeRuns} | ${r.afterRuns} |`),
  END,
].join('\n');
writeSection(SECTION, section);
console.log('wrote the before/after section of docs/BENCHMARKS.md');

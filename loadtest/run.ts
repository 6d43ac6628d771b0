/**
 * One load-test scenario from the command line (docs/loadtest.md), e.g.
 *   npm run loadtest -- walkers --clients 500 --duration 30 --kind json
 *   npm run loadtest -- walkers --clients 500 --duration 30 --kind sdk --server bare
 *   npm run loadtest -- traders --clients 100 --duration 30
 *   npm run loadtest -- gatherers --clients 200 --duration 30
 *   npm run loadtest -- rest --clients 100 --duration 30 --interval 1000
 * The server runs on loopback only. Every run ends within its bound whatever the server does (docs/loadtest.md
 * "Every run ends"): joining stops at `--join-deadline` (the bots that never joined are counted and named), and past
 * seeding + join deadline + duration + a margin the run stops its server and exits 1. A tool killed any way stops
 * its server too (lib/orphan-guard.ts).
 */
import { parseArgs } from 'node:util';
import { runGatherers } from './lib/gatherer-scenario.ts';
import { defaultJoinDeadlineSeconds } from './lib/join-phase.ts';
import { runRestPollers } from './lib/rest-poller-scenario.ts';
import { formatSummary, notJoinedLines, type ScenarioSummary } from './lib/scenario-meter.ts';
import { stopAllServers } from './lib/server-process.ts';
import { runTraders } from './lib/trader-scenario.ts';
import { runWalkers } from './lib/walker-scenario.ts';

const SCENARIOS = ['walkers', 'traders', 'gatherers', 'rest'];
const MAX_CLIENTS = 5_000;
const MAX_SECONDS = 3_600;
/** What a run may take beyond its join deadline and duration: seeding, start-up, warm-up, stopping. */
const MARGIN_SECONDS = 180;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    clients: { type: 'string', default: '200' },
    duration: { type: 'string', default: '20' },
    kind: { type: 'string', default: 'json' },
    server: { type: 'string', default: 'game' },
    interval: { type: 'string', default: '1000' },
    'join-deadline': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

function bounded(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`--${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

const scenario = positionals[0] ?? 'walkers';
if (!SCENARIOS.includes(scenario)) {
  console.error(`unknown scenario "${scenario}" (available: ${SCENARIOS.join(', ')})`);
  process.exit(2);
}
const clients = bounded('clients', values.clients, 1, MAX_CLIENTS);
const durationSeconds = bounded('duration', values.duration, 1, MAX_SECONDS);
const joinDeadlineSeconds = values['join-deadline'] === undefined
  ? defaultJoinDeadlineSeconds(clients) : bounded('join-deadline', values['join-deadline'], 1, MAX_SECONDS);
const log = (line: string) => console.log(line);

async function stopAndExit(code: number): Promise<never> {
  await stopAllServers();
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void stopAndExit(130));
const boundSeconds = joinDeadlineSeconds + durationSeconds + MARGIN_SECONDS;
setTimeout(() => {
  console.error(`${scenario}: the run passed its bound of ${boundSeconds} s (join deadline ${joinDeadlineSeconds} s + duration ${durationSeconds} s + ${MARGIN_SECONDS} s); stopping its server`);
  void stopAndExit(1);
}, boundSeconds * 1000).unref();

log(`${scenario}: ${clients} clients, ${durationSeconds} s (join deadline ${joinDeadlineSeconds} s, bound ${boundSeconds} s)`);
if (scenario === 'walkers') {
  const kind = values.kind === 'sdk' ? 'sdk' : 'json';
  const server = values.server === 'bare' ? 'bare' : 'game';
  const result = await runWalkers({ kind, server, clients, durationSeconds, joinDeadlineSeconds, log });
  if (values.json) console.log(JSON.stringify(result));
  else {
    const { notJoined, ...figures } = result;
    console.table(figures);
    for (const line of notJoinedLines(notJoined)) log(line);
  }
} else {
  let summary: ScenarioSummary;
  if (scenario === 'traders') summary = await runTraders({ clients, durationSeconds, joinDeadlineSeconds, log });
  else if (scenario === 'gatherers') summary = await runGatherers({ clients, durationSeconds, joinDeadlineSeconds, log });
  else summary = await runRestPollers({ clients, durationSeconds, joinDeadlineSeconds, intervalMs: bounded('interval', values.interval, 0, 60_000), log });
  if (values.json) console.log(JSON.stringify(summary));
  else for (const line of formatSummary(summary)) log(line);
}
process.exit(0);

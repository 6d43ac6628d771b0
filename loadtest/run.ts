/**
 * One load-test scenario from the command line (docs/loadtest.md), e.g.
 *   npm run loadtest -- walkers --clients 500 --duration 30 --kind json
 *   npm run loadtest -- walkers --clients 500 --duration 30 --kind sdk --server bare
 *   npm run loadtest -- traders --clients 100 --duration 30
 *   npm run loadtest -- gatherers --clients 200 --duration 30
 *   npm run loadtest -- rest --clients 100 --duration 30 --interval 1000
 * The server runs on loopback only; the run ends by itself after seeding, joining and the duration.
 */
import { parseArgs } from 'node:util';
import { runGatherers } from './lib/gatherer-scenario.ts';
import { runRestPollers } from './lib/rest-poller-scenario.ts';
import { formatSummary, type ScenarioSummary } from './lib/scenario-meter.ts';
import { runTraders } from './lib/trader-scenario.ts';
import { runWalkers } from './lib/walker-scenario.ts';

const SCENARIOS = ['walkers', 'traders', 'gatherers', 'rest'];
const MAX_CLIENTS = 5_000;
const MAX_SECONDS = 3_600;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    clients: { type: 'string', default: '200' },
    duration: { type: 'string', default: '20' },
    kind: { type: 'string', default: 'json' },
    server: { type: 'string', default: 'game' },
    interval: { type: 'string', default: '1000' },
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
const log = (line: string) => console.log(line);

log(`${scenario}: ${clients} clients, ${durationSeconds} s`);
if (scenario === 'walkers') {
  const kind = values.kind === 'sdk' ? 'sdk' : 'json';
  const server = values.server === 'bare' ? 'bare' : 'game';
  const result = await runWalkers({ kind, server, clients, durationSeconds, log });
  if (values.json) console.log(JSON.stringify(result));
  else console.table(result);
} else {
  let summary: ScenarioSummary;
  if (scenario === 'traders') summary = await runTraders({ clients, durationSeconds, log });
  else if (scenario === 'gatherers') summary = await runGatherers({ clients, durationSeconds, log });
  else summary = await runRestPollers({ clients, durationSeconds, intervalMs: bounded('interval', values.interval, 0, 60_000), log });
  if (values.json) console.log(JSON.stringify(summary));
  else for (const line of formatSummary(summary)) log(line);
}
process.exit(0);

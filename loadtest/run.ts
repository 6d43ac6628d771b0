/**
 * One load-test scenario from the command line, e.g.
 *   npm run loadtest -- walkers --clients 500 --duration 30 --kind json
 *   npm run loadtest -- walkers --clients 500 --duration 30 --kind sdk --server bare
 * Loopback only; the run ends by itself after warm-up + duration.
 */
import { parseArgs } from 'node:util';
import { runWalkers } from './lib/walker-scenario.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    clients: { type: 'string', default: '200' },
    duration: { type: 'string', default: '20' },
    kind: { type: 'string', default: 'json' },
    server: { type: 'string', default: 'game' },
  },
});

const scenario = positionals[0] ?? 'walkers';
if (scenario !== 'walkers') {
  console.error(`unknown scenario "${scenario}" (available: walkers; trades: node loadtest/trade-bench.ts)`);
  process.exit(2);
}
const kind = values.kind === 'sdk' ? 'sdk' : 'json';
const server = values.server === 'bare' ? 'bare' : 'game';
const result = await runWalkers({
  kind, server, clients: Number(values.clients), durationSeconds: Number(values.duration), log: (line) => console.log(line),
});
console.table(result);
process.exit(0);

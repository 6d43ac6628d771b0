/**
 * `npm run soak -- --duration 60 --bots 8 --crashes 3 [--shoppers 2] [--seed 1]`: the economy soak (docs/soak.md).
 * Uses DATABASE_URL when set, otherwise a PGlite data directory in a temporary folder. Exits 1 on any violation.
 */
import { parseArgs } from 'node:util';
import { formatReport, runSoak } from './lib/soak/run.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    bots: { type: 'string', default: '8' },
    crashes: { type: 'string', default: '3' },
    shoppers: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

function int(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`--${name} must be an integer from ${min} to ${max}`);
    process.exit(2);
  }
  return n;
}

const report = await runSoak({
  durationSeconds: int('duration', values.duration, 5, 24 * 3600)!,
  bots: int('bots', values.bots, 3, 200)!,
  crashes: int('crashes', values.crashes, 0, 1000)!,
  shoppers: int('shoppers', values.shoppers, 1, 100),
  seed: int('seed', values.seed, 0, 2 ** 31),
  databaseUrl: process.env.DATABASE_URL || undefined,
  log: (line) => console.log(line),
});
console.log(formatReport(report));
if (values.json) console.log(JSON.stringify(report));
process.exit(report.ok ? 0 : 1);

/**
 * `npm run chaos` (short form, a few minutes) or `npm run chaos -- --long` (the operator's run): three server processes
 * under stalls, kill -9, Redis restarts, PostgreSQL path restarts and partitions, with bots over /ws and the SDK, and
 * a checker (docs/chaos.md). Needs `redis-server` on the PATH and the local PostgreSQL (CHAOS_POSTGRES_ADMIN_URL,
 * default postgres://postgres@127.0.0.1:5432/postgres) to create and drop its scratch database. Exits 1 on any
 * violation, 2 on bad arguments or a missing dependency.
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { psql } from './lib/postgres.ts';
import { formatReport } from './lib/chaos/report.ts';
import { runChaos, type ChaosOptions } from './lib/chaos/run.ts';

const { values } = parseArgs({
  options: {
    long: { type: 'boolean', default: false },
    'faults-per-kind': { type: 'string' },
    phase: { type: 'string' },
    'stall-max': { type: 'string' },
    'partition-max': { type: 'string' },
    lease: { type: 'string' },
    pairs: { type: 'string' },
    shoppers: { type: 'string' },
    walkers: { type: 'string' },
    sdk: { type: 'string' },
    worlds: { type: 'string' },
    seed: { type: 'string' },
    'server-env': { type: 'string', multiple: true },
    'keep-logs': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

function int(name: string, fallback: number, min: number, max: number): number {
  const raw = values[name as keyof typeof values];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`--${name} must be an integer from ${min} to ${max}`);
    process.exit(2);
  }
  return n;
}

/** The two sizes: the short form for CI, the long form an operator runs. */
const FORMS = {
  short: { perKind: 20, phase: 200, stallMax: 30, partitionMax: 10, lease: 3, pairs: 3, shoppers: 2, walkers: 6, sdk: 3 },
  long: { perKind: 250, phase: 7_200, stallMax: 30, partitionMax: 30, lease: 10, pairs: 6, shoppers: 3, walkers: 8, sdk: 4 },
};
const form = values.long ? FORMS.long : FORMS.short;

const serverEnv: Record<string, string> = {};
for (const pair of values['server-env'] ?? []) {
  const at = pair.indexOf('=');
  if (at < 1) {
    console.error(`--server-env takes NAME=value (got "${pair}")`);
    process.exit(2);
  }
  serverEnv[pair.slice(0, at)] = pair.slice(at + 1);
}

const adminUrl = process.env.CHAOS_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
try {
  execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('chaos: redis-server is not on the PATH (the run starts a Redis of its own); install it (Debian: apt-get install redis-server)');
  process.exit(2);
}
try {
  await psql(adminUrl, 'select 1');
} catch {
  console.error(`chaos: no PostgreSQL answers at ${adminUrl} (set CHAOS_POSTGRES_ADMIN_URL to a role that may create databases)`);
  process.exit(2);
}

const stallMax = int('stall-max', form.stallMax, 1, 30);
const partitionMax = int('partition-max', form.partitionMax, 1, 30);
const options: ChaosOptions = {
  faults: {
    perKind: int('faults-per-kind', form.perKind, 1, 100_000),
    phaseMs: int('phase', form.phase, 10, 7 * 24 * 3600) * 1000,
    stallMs: [1_000, stallMax * 1000],
    partitionMs: [1_000, partitionMax * 1000],
    postgresDownMs: [500, values.long ? 5_000 : 3_000],
    killDownMs: [0, values.long ? 5_000 : 2_000],
  },
  traderPairs: int('pairs', form.pairs, 1, 50),
  shoppers: int('shoppers', form.shoppers, 1, 50),
  walkers: int('walkers', form.walkers, 2, 100),
  sdkBankers: int('sdk', form.sdk, 1, 50),
  worlds: int('worlds', 3, 1, 10),
  leaseSeconds: int('lease', form.lease, 2, 300),
  seed: int('seed', Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31),
  adminUrl,
  serverEnv,
  keepLogs: values['keep-logs'] ?? false,
  log: (line) => console.log(line),
};
console.log(`chaos (${values.long ? 'long' : 'short'} form, seed ${options.seed}): ${options.faults.perKind} faults of each kind over ${options.faults.phaseMs / 1000} s`);
const report = await runChaos(options);
console.log(formatReport(report));
if (values.json) console.log(JSON.stringify(report));
process.exit(report.violations.length === 0 ? 0 : 1);

/**
 * What a login costs the server (docs/worlds.md "When the server is full"): the server CPU one /ws login takes —
 * connect, authenticate, `world:enter` into a full world, answered with a place in line or WORLD_FULL — beside the
 * same logins sent to a bare WebSocket server that answers them at once (loadtest/baseline/storm-floor.ts), in the
 * same run. A storm of logins is answered only as fast as the CPU this leaves; the figure is steadier than the storm
 * benchmark's walkers, whose latency is mostly the machine's.
 *   npm run bench:logins
 *   npm run bench:logins -- --logins 1000 --rounds 4 --database pglite
 * Writes the `logins` section of docs/BENCHMARKS.md.
 */
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { median } from '../src/game/admission.ts';
import { writeSection, sectionMarkers } from './lib/benchmarks-doc.ts';
import { loadBundledWorld } from './lib/game-data.ts';
import { computeBlockedTiles } from '../src/manifests/blocked-tiles.ts';
import { cpuSeconds } from './lib/process-monitor.ts';
import { seedWalkers, type SeededWalker } from './lib/seed.ts';
import { benchDatabase, stopOnSignals } from './lib/bench-database.ts';
import { freePort, startServerProcess, stopAllServers, type RunningServer } from './lib/server-process.ts';
import { round } from './lib/stats.ts';
import { startStorm } from './lib/storm-process.ts';
import { profilingFlags } from './lib/walker-scenario.ts';
import { JsonWalker, newWalkerStats, startWithin } from './lib/walkers.ts';

const SECTION = 'logins';
const SECRET = 'benchmark-secret-not-for-production';
/** After the last answer, CPU is counted this much longer (the queued logins' first places go out). */
const SETTLE_MS = 1_000;

const { values } = parseArgs({
  options: {
    logins: { type: 'string', default: '2000' },
    /** Rounds per server; the first is a warm-up and is not counted. */
    rounds: { type: 'string', default: '4' },
    database: { type: 'string', default: 'postgres' },
  },
});
const logins = Number(values.logins);
const rounds = Math.max(2, Number(values.rounds));
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

/** One round: `seeds` log in at once; the server's CPU seconds per login, and how long the last answer took. */
interface RoundFigures { cpuPerLoginUs: number; answeredMs: number; unanswered: number }

async function oneRound(server: RunningServer, seeds: SeededWalker[]): Promise<RoundFigures> {
  const storm = startStorm({
    wsUrl: server.wsUrl, world: 1, timeoutMs: 30_000,
    entries: seeds.map((seed, i) => ({ name: seed.name, token: seed.token, characterId: seed.characterId, queue: i % 2 === 0 })),
  });
  const before = cpuSeconds(server.child.pid!);
  const startedAt = performance.now();
  await storm.answered;
  const answeredMs = performance.now() - startedAt;
  await sleep(SETTLE_MS);
  const cpu = cpuSeconds(server.child.pid!) - before;
  const outcomes = await storm.report();
  await storm.stop();
  await sleep(1_000);
  return { cpuPerLoginUs: (cpu / seeds.length) * 1e6, answeredMs, unanswered: outcomes.filter((outcome) => outcome.answer === undefined).length };
}

const medianOf = (figures: RoundFigures[], pick: (figures: RoundFigures) => number) => median(figures.map(pick)) ?? NaN;

const database = await benchDatabase(values.database, 'logins');
let holder: JsonWalker | undefined;
const stop = async () => {
  holder?.stop();
  await stopAllServers();
  await database.dispose();
};
stopOnSignals(stop);

try {
  const data = loadBundledWorld();
  const { config } = loadConfig({ NODE_ENV: 'test', ...database.env, JWT_SECRET: SECRET });
  const db = await openDatabase(database.open);
  log(`seeding ${logins * rounds + 1} characters`);
  const seeds = await seedWalkers(db, data, config, SECRET, logins * rounds + 1);
  await db.close();

  // The game server: one world of one seat, taken by the first character, so every login of the storm is answered
  // with a place in line (half ask to queue) or WORLD_FULL; the admission thresholds at their defaults.
  const port = await freePort();
  const game = await startServerProcess([...profilingFlags(), 'src/start.js'], {
    NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', ...database.env, JWT_SECRET: SECRET,
    LOG_LEVEL: 'warn', WORLD_CAPACITY: '1', WORLDS_MIN: '1', WORLDS_MAX: '1', DISABLE_RATE_LIMIT: 'true',
    WS_MAX_CONNECTIONS_PER_ADDRESS: '1000000', WS_MAX_UNAUTHENTICATED_PER_ADDRESS: '1000000', WS_AUTH_TIMEOUT_MS: '60000',
    LOGIN_QUEUE_MAX: String(2 * logins * rounds),
  }, port);
  holder = new JsonWalker(game.wsUrl, seeds[0], computeBlockedTiles(data), newWalkerStats());
  await startWithin(holder, AbortSignal.timeout(30_000));
  const floorPort = await freePort();
  const floor = await startServerProcess(['loadtest/baseline/storm-floor.ts', String(floorPort)], {}, floorPort);
  await sleep(3_000);

  const figures = { game: [] as RoundFigures[], floor: [] as RoundFigures[] };
  for (let r = 0; r < rounds; r++) {
    const slice = seeds.slice(1 + r * logins, 1 + (r + 1) * logins);
    // Alternating which server goes first evens out what the machine is doing.
    for (const which of r % 2 === 0 ? ['game', 'floor'] as const : ['floor', 'game'] as const) {
      const result = await oneRound(which === 'game' ? game : floor, slice);
      log(`round ${r + 1}${r === 0 ? ' (warm-up)' : ''}, ${which}: ${logins} logins answered in ${Math.round(result.answeredMs)} ms; `
        + `${Math.round(result.cpuPerLoginUs)} µs of server CPU per login; unanswered ${result.unanswered}`);
      if (r > 0) figures[which].push(result);
    }
  }
  const gameUs = round(medianOf(figures.game, (f) => f.cpuPerLoginUs), 0);
  const floorUs = round(medianOf(figures.floor, (f) => f.cpuPerLoginUs), 0);
  const gameMs = round(medianOf(figures.game, (f) => f.answeredMs), 0);
  const floorMs = round(medianOf(figures.floor, (f) => f.answeredMs), 0);
  const unanswered = figures.game.reduce((sum, f) => sum + f.unanswered, 0);
  const { start, end } = sectionMarkers(SECTION);
  const text = [
    start, '## What a login costs the server', '',
    `\`npm run bench:logins -- --logins ${logins} --rounds ${rounds} --database ${values.database}\`, ${new Date().toISOString().slice(0, 16)}Z. `
      + `${logins} /ws logins at once (connect, authenticate, \`world:enter\` into a full world: half queue, half are refused WORLD_FULL), `
      + `${rounds - 1} counted rounds after a warm-up, medians; the game server on ${database.postgres ? 'PostgreSQL' : 'the embedded PGlite'}; `
      + 'server CPU counted from the first connection until 1 s after the last answer.', '',
    '| server | CPU per login | all answered in |',
    '|---|---|---|',
    `| bare WebSocket server answering at once (loadtest/baseline/storm-floor.ts) | ${floorUs} µs | ${floorMs} ms |`,
    `| the game server | ${gameUs} µs (${round(gameUs / floorUs, 1)} ×) | ${gameMs} ms |`,
    '',
    `Logins left unanswered: ${unanswered}.`,
    end,
  ].join('\n');
  writeSection(SECTION, text);
  console.log(text);
} finally {
  await stop();
}

/**
 * Issue #19's single-process targets, every figure beside its baseline in the same run (docs/worlds.md):
 *   1. the official client holds a full server: N SDK walkers spread over worlds of WORLD_CAPACITY, against N /ws
 *      JSON walkers in one world (and N SDK walkers in one world, the case many worlds exist for);
 *   2. cost is linear in players: server CPU per player-tick at N/4, N/2 and N walkers, SDK and JSON, in worlds of
 *      WORLD_CAPACITY — the N figure within 1.3 × the N/4 one.
 *   3. a hop costs no more than a login, and a private message to another world no more than one within a world
 *      (loadtest/lib/hop-scenario.ts).
 * Writes the `worlds` and `worlds-hops` sections of docs/BENCHMARKS.md (kept by `npm run bench`).
 *   npm run bench:worlds                              # 2,000 walkers, worlds of 500, 20 s windows
 *   npm run bench:worlds -- --walkers 1000 --capacity 250 --duration 15 --skip-one-world-sdk
 *   npm run bench:worlds -- --only hops --samples 100 --background 500   # hop and private-message latency
 *   npm run bench:worlds -- --only sdkmessages --rounds 2                # the SDK alternative vs /ws, alternated
 */
import { parseArgs } from 'node:util';
import { writeSection, sectionMarkers } from './lib/benchmarks-doc.ts';
import { round } from './lib/stats.ts';
import { runWalkers, type WalkerRunResult } from './lib/walker-scenario.ts';
import { runHopScenario, type LatencyPair } from './lib/hop-scenario.ts';

const SECTION = 'worlds';
const SDK_SECTION = 'worlds-sdk';
const HOPS_SECTION = 'worlds-hops';
const { values } = parseArgs({
  options: {
    walkers: { type: 'string', default: '2000' },
    capacity: { type: 'string', default: '500' },
    duration: { type: 'string', default: '20' },
    'skip-one-world-sdk': { type: 'boolean', default: false },
    /** walkers (targets 1 and 2), hops (hop and private-message latency) or sdkmessages (the SDK alternative against
     *  the /ws baseline alone, alternated `--rounds` times); walkers and hops by default. */
    only: { type: 'string' },
    rounds: { type: 'string', default: '2' },
    samples: { type: 'string', default: '100' },
    background: { type: 'string', default: '500' },
  },
});
const wants = (part: string) => (values.only === undefined && part !== 'sdkmessages') || values.only === part;
const walkers = Number(values.walkers);
const capacity = Number(values.capacity);
const durationSeconds = Number(values.duration);
const log = (line: string) => console.log(line);

interface Row {
  what: string;
  kind: 'json' | 'sdk';
  walkers: number;
  worldCapacity: number;
  worlds: number;
  result: WalkerRunResult;
}

/** Walkers of each run in a process of their own: move → ack without the load generator's loop lag (bench.ts). */
const PROBE_WALKERS = 50;
/** The other walkers walk from this many processes (bench.ts says why); every SDK bot here decodes its patches. */
const BOT_PROCESSES = 2;
const rows: Row[] = [];
const ratio = (a: number | undefined, b: number | undefined) => (a && b ? round(a / b, 2) : null);
async function run(what: string, kind: 'json' | 'sdk', clients: number, worldCapacity: number, updates?: 'json'): Promise<Row> {
  log(`${what}: ${clients} ${kind} walkers, worlds of ${worldCapacity}, ${durationSeconds} s`);
  const result = await runWalkers({ server: 'game', kind, clients, durationSeconds, worldCapacity, updates, probeWalkers: PROBE_WALKERS, botProcesses: BOT_PROCESSES, log });
  const row = { what, kind, walkers: clients, worldCapacity, worlds: result.worlds ?? 0, result };
  console.table([summary(row)]);
  rows.push(row);
  return row;
}

function summary(row: Row) {
  const r = row.result;
  return {
    what: row.what, walkers: r.joined, worlds: row.worlds, cpuCores: r.serverCpuCores, cpuUsPerPlayerTick: r.cpuUsPerPlayerTick,
    ackP99Ms: r.ackP99Ms, lagP99Ms: r.eventLoopLagP99Ms, idleLagP99Ms: r.idleLagP99Ms, errors: r.errors,
  };
}

if (wants('walkers')) {
  // Target 1: the JSON baseline first, then the SDK in worlds, then (optionally) the SDK in one world.
  const jsonOneWorld = await run('/ws JSON, one world (baseline)', 'json', walkers, walkers);
  const sdkWorlds = await run(`SDK, worlds of ${capacity}`, 'sdk', walkers, capacity);
  const sdkOneWorld = values['skip-one-world-sdk'] ? undefined : await run('SDK, one world', 'sdk', walkers, walkers);
  // The documented alternative to schema sync: the same deltas as /ws clients, as room messages (docs/worlds.md).
  const sdkMessagesWorlds = await run(`SDK with \`updates: "json"\` room messages, worlds of ${capacity}`, 'sdk', walkers, capacity, 'json');
  const sdkMessagesOneWorld = await run('SDK with `updates: "json"` room messages, one world', 'sdk', walkers, walkers, 'json');

  // Target 2: the same two kinds at a quarter and a half of the load, in worlds of the same capacity.
  const jsonWorlds = await run(`/ws JSON, worlds of ${capacity}`, 'json', walkers, capacity);
  const scaling: Array<{ kind: 'json' | 'sdk'; rows: Row[] }> = [];
  for (const kind of ['sdk', 'json'] as const) {
    const top = kind === 'sdk' ? sdkWorlds : jsonWorlds;
    const quarter = await run(`${kind === 'sdk' ? 'SDK' : '/ws JSON'}, worlds of ${capacity}`, kind, Math.round(walkers / 4), capacity);
    const half = await run(`${kind === 'sdk' ? 'SDK' : '/ws JSON'}, worlds of ${capacity}`, kind, Math.round(walkers / 2), capacity);
    scaling.push({ kind, rows: [quarter, half, top] });
  }

  const lines: string[] = [];
  const { start, end } = sectionMarkers(SECTION);
  lines.push(start, '## Many worlds on one process (issue #19)', '');
  lines.push(`\`npm run bench:worlds -- --walkers ${walkers} --capacity ${capacity} --duration ${durationSeconds}\`, ${new Date().toISOString().slice(0, 16)}Z. `
    + 'One game server process; the bots share the machine\'s two cores. Each row is its own server run (fresh embedded database), '
    + 'in the order listed.', '');
  lines.push('### The official client holds a full server', '');
  lines.push(`| run | walkers | worlds | server CPU (cores) | CPU / player / tick | move → ack p99 | the same, ${PROBE_WALKERS} walkers in their own process | load generator's lag p99 | event-loop lag p99 (idle) | errors |`);
  lines.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of [jsonOneWorld, sdkWorlds, sdkOneWorld, sdkMessagesWorlds, sdkMessagesOneWorld].filter((r): r is Row => r !== undefined)) {
    const r = row.result;
    lines.push(`| ${row.what} | ${r.joined} | ${row.worlds} | ${r.serverCpuCores} | ${r.cpuUsPerPlayerTick} µs | ${r.ackP99Ms} ms | ${r.probeWalkers?.ackP99Ms ?? '–'} ms | ${r.loadGeneratorLagP99Ms ?? '–'} ms | ${r.eventLoopLagP99Ms} ms (${r.idleLagP99Ms} ms) | ${r.errors} |`);
  }
  lines.push('');
  lines.push(`SDK in worlds of ${capacity} against /ws JSON in one world: ack p99 ${ratio(sdkWorlds.result.ackP99Ms, jsonOneWorld.result.ackP99Ms)} ×, `
    + `lag p99 ${ratio(sdkWorlds.result.eventLoopLagP99Ms, jsonOneWorld.result.eventLoopLagP99Ms)} × (target: ≤ 1 × each).`
    + (sdkOneWorld ? ` SDK in one world against SDK in worlds: ack p99 ${ratio(sdkOneWorld.result.ackP99Ms, sdkWorlds.result.ackP99Ms)} ×, CPU ${ratio(sdkOneWorld.result.serverCpuCores, sdkWorlds.result.serverCpuCores)} ×.`
      + ` SDK in one world against /ws JSON in one world (issue #37, single runs; its verdicts are npm run bench's, on alternated pairs): `
      + `ack p99 of the walkers in their own process ${ratio(sdkOneWorld.result.probeWalkers?.ackP99Ms, jsonOneWorld.result.probeWalkers?.ackP99Ms)} ×, `
      + `lag p99 ${ratio(sdkOneWorld.result.eventLoopLagP99Ms, jsonOneWorld.result.eventLoopLagP99Ms)} ×, CPU per player-tick ${ratio(sdkOneWorld.result.cpuUsPerPlayerTick, jsonOneWorld.result.cpuUsPerPlayerTick)} ×.` : '')
    + ` SDK with room-message updates in worlds of ${capacity} against /ws JSON in one world: ack p99 ${ratio(sdkMessagesWorlds.result.ackP99Ms, jsonOneWorld.result.ackP99Ms)} ×, `
    + `lag p99 ${ratio(sdkMessagesWorlds.result.eventLoopLagP99Ms, jsonOneWorld.result.eventLoopLagP99Ms)} ×; in one world: ack p99 ${ratio(sdkMessagesOneWorld.result.ackP99Ms, jsonOneWorld.result.ackP99Ms)} ×, `
    + `lag p99 ${ratio(sdkMessagesOneWorld.result.eventLoopLagP99Ms, jsonOneWorld.result.eventLoopLagP99Ms)} ×.`, '');
  lines.push('### Cost per player-tick against the number of players', '');
  lines.push(`| walkers | SDK CPU / player / tick | /ws JSON CPU / player / tick |`);
  lines.push('|---|---|---|');
  const [sdkRows, jsonRows] = [scaling.find((s) => s.kind === 'sdk')!.rows, scaling.find((s) => s.kind === 'json')!.rows];
  for (let i = 0; i < 3; i++) {
    lines.push(`| ${sdkRows[i].result.joined} / ${jsonRows[i].result.joined} | ${sdkRows[i].result.cpuUsPerPlayerTick} µs | ${jsonRows[i].result.cpuUsPerPlayerTick} µs |`);
  }
  lines.push(`| **${walkers} ÷ ${Math.round(walkers / 4)}** | **${ratio(sdkRows[2].result.cpuUsPerPlayerTick, sdkRows[0].result.cpuUsPerPlayerTick)} ×** | **${ratio(jsonRows[2].result.cpuUsPerPlayerTick, jsonRows[0].result.cpuUsPerPlayerTick)} ×** |`);
  lines.push('', 'Target: the largest load within 1.3 × the quarter load, per kind.', end);
  writeSection(SECTION, lines.join('\n'));
  console.log(lines.join('\n'));
}

if (wants('hops')) {
  const samples = Number(values.samples);
  const background = Number(values.background);
  log(`hops: ${samples} hops and ${samples} logins, ${samples} private messages within and across worlds, beside ${background} walkers`);
  const figures = await runHopScenario({ background, samples, log });
  const row = (what: string, baseline: string, p: LatencyPair) =>
    `| ${what} | ${p.p50Ms} ms | ${p.p99Ms} ms | ${baseline} | ${p.baselineP50Ms} ms | ${p.baselineP99Ms} ms | **${p.ratio} ×** | ${p.samples} |`;
  const { start, end } = sectionMarkers(HOPS_SECTION);
  const text = [
    start, '### Hops and private messages across worlds', '',
    `\`npm run bench:worlds -- --only hops --samples ${samples} --background ${background}\`, ${new Date().toISOString().slice(0, 16)}Z. `
      + `One server, two standing worlds, ${figures.background} /ws walkers in the first; samples alternate with their baseline.`, '',
    '| measured | p50 | p99 | baseline | p50 | p99 | p99 ÷ baseline p99 (target ≤ 1.5) | samples |',
    '|---|---|---|---|---|---|---|---|',
    row('world hop (`world:hop` → `world:hopped`)', 'fresh login (connect → `world:joined`)', figures.hops),
    row('private message to another world', 'private message in the same world', figures.privateMessages),
    '', 'A hop saves and closes the session, releases the world claim, and enters the new world after that commit: no timer guards it.', end,
  ].join('\n');
  writeSection(HOPS_SECTION, text);
  console.log(text);
}

if (wants('sdkmessages')) {
  const rounds = Number(values.rounds);
  const pairs: Array<[Row, Row]> = [];
  for (let i = 0; i < rounds; i++) {
    pairs.push([
      await run('/ws JSON, one world (baseline)', 'json', walkers, walkers),
      await run(`SDK with \`updates: "json"\` room messages, worlds of ${capacity}`, 'sdk', walkers, capacity, 'json'),
    ]);
  }
  const { start, end } = sectionMarkers(SDK_SECTION);
  const cell = (r: WalkerRunResult) => `${r.ackP99Ms} ms | ${r.eventLoopLagP99Ms} ms | ${r.serverCpuCores}`;
  const text = [
    start, '### The SDK alternative against the /ws baseline, alternated', '',
    `\`npm run bench:worlds -- --only sdkmessages --walkers ${walkers} --capacity ${capacity} --rounds ${rounds}\`, ${new Date().toISOString().slice(0, 16)}Z. `
      + `${walkers} walkers each run; SDK clients joined with \`updates: "json"\` (no view, no schema patches: rooms/world/sdk-updates.ts).`, '',
    '| round | /ws JSON one world: ack p99 | lag p99 | CPU | SDK room messages, worlds of ' + capacity + ': ack p99 | lag p99 | CPU | ack ratio | lag ratio |',
    '|---|---|---|---|---|---|---|---|---|',
    ...pairs.map(([json, sdk], i) => `| ${i + 1} | ${cell(json.result)} | ${cell(sdk.result)} | ${ratio(sdk.result.ackP99Ms, json.result.ackP99Ms)} × | ${ratio(sdk.result.eventLoopLagP99Ms, json.result.eventLoopLagP99Ms)} × |`),
    '', 'Target (issue #19): ≤ 1 × each.', end,
  ].join('\n');
  writeSection(SDK_SECTION, text);
  console.log(text);
}

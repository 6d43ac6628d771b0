/**
 * Colyseus' own load-test tool against the game server, measured: `npm run loadtest:colyseus` (loadtest/colyseus-bot.ts
 * in `@colyseus/loadtest`) with N bots holding minted tokens (`npm run mint-tokens`, so the production limit of 10
 * authentication attempts a minute stays on), against a server process of its own on an embedded database. Reads
 * the tool's summary (connections, failures, errors), the server's /metrics over the window where every bot is in
 * (moves and chat lines received, world:update frames sent, tick time) and the CPU of the server and of the tool.
 * Prints the figures and replaces the Colyseus-tool section of docs/BENCHMARKS.md (kept by `npm run bench`).
 *
 *   npm run bench:colyseus -- --clients 200 --duration 40
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { CpuMeter, rssBytes } from './lib/process-monitor.ts';
import { freePort, ROOT, startServerProcess } from './lib/server-process.ts';
import { round } from './lib/stats.ts';
import { sectionMarkers, writeSection } from './lib/benchmarks-doc.ts';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '200' },
    duration: { type: 'string', default: '40' },
    delay: { type: 'string', default: '20' },
  },
});
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.duration);
const DELAY_MS = Number(values.delay);
if (!Number.isInteger(CLIENTS) || CLIENTS < 1 || CLIENTS > 5_000 || !(SECONDS >= 10 && SECONDS <= 3_600) || !(DELAY_MS >= 0 && DELAY_MS <= 1_000)) {
  console.error('usage: npm run bench:colyseus -- [--clients 1..5000] [--duration 10..3600 s] [--delay 0..1000 ms]');
  process.exit(2);
}
const SECTION = 'colyseus-loadtest';
const { start: SECTION_START, end: SECTION_END } = sectionMarkers(SECTION);
const METRICS_TOKEN = `bench-${randomUUID()}`;

/** Sum of every sample of a series (all label sets) in a /metrics text. */
function metricSum(text: string, series: string, labels = ''): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${series}{`) && !line.startsWith(`${series} `)) continue;
    if (labels && !line.includes(labels)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

function runNode(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string; pid: number }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr, pid: child.pid! })));
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colyseus-bench-'));
const env = {
  NODE_ENV: 'test', LOG_LEVEL: 'warn', JWT_SECRET: `colyseus-bench-${randomUUID()}`, PGLITE_DATA_DIR: path.join(dir, 'pglite'),
  // Production's limits where they matter here: 10 authentication attempts a minute (the bots spend none).
  RATE_LIMIT_AUTH_PER_MINUTE: '10', WS_MAX_CONNECTIONS_PER_ADDRESS: String(CLIENTS + 50), METRICS_TOKEN, SAVE_INTERVAL: '60',
};
const tokensFile = path.join(dir, 'tokens.txt');
const summaryFile = path.join(dir, 'colyseus-loadtest.log');

try {
  console.log(`minting ${CLIENTS} tokens (npm run mint-tokens)`);
  const minted = await runNode(['src/tools/mint-tokens.ts', '--count', String(CLIENTS), '--ttl', '3600', '--out', tokensFile], env);
  if (minted.code !== 0) throw new Error(`mint-tokens failed: ${minted.stderr}`);

  const port = await freePort();
  const server = await startServerProcess(['src/start.js'], { ...env, HOST: '127.0.0.1', PORT: String(port) }, port);
  const scrape = async () => (await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  try {
    console.log(`running the tool: ${CLIENTS} bots, ${SECONDS} s`);
    const startedAt = performance.now();
    const tool = spawn(process.execPath, ['loadtest/colyseus-bot.ts', '--endpoint', server.baseUrl, '--numClients', String(CLIENTS),
      '--delay', String(DELAY_MS), '--duration', String(SECONDS), '--tokens', tokensFile, '--output', summaryFile], {
      cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'dumb' }, stdio: ['ignore', 'ignore', 'ignore'],
    });
    const exited = new Promise<number | null>((resolve) => tool.once('exit', resolve));

    // The window: from the moment every bot is in the world to one second before the tool makes them leave.
    let joinedInMs = NaN;
    while (performance.now() - startedAt < SECONDS * 1000 / 2) {
      if (metricSum(await scrape(), 'game_players_online') >= CLIENTS) {
        joinedInMs = performance.now() - startedAt;
        break;
      }
      await sleep(200);
    }
    const before = await scrape();
    const serverCpu = new CpuMeter(server.child.pid!);
    const toolCpu = new CpuMeter(tool.pid!);
    serverCpu.start();
    toolCpu.start();
    const windowStart = performance.now();
    await sleep(Math.max(1_000, SECONDS * 1000 - (performance.now() - startedAt) - 1_000));
    const windowSeconds = (performance.now() - windowStart) / 1000;
    const [serverCores, toolCores] = [serverCpu.stop(), toolCpu.stop()];
    const after = await scrape();
    const serverRssMb = rssBytes(server.child.pid!) / 2 ** 20;
    const code = await Promise.race([exited, sleep(30_000).then(() => 'timeout' as const)]);
    if (code === 'timeout') tool.kill('SIGKILL');

    const summary = fs.existsSync(summaryFile) ? fs.readFileSync(summaryFile, 'utf8') : '';
    const count = (label: string) => Number(new RegExp(`${label}: (\\d+)`).exec(summary)?.[1] ?? NaN);
    const delta = (series: string, labels = '') => metricSum(after, series, labels) - metricSum(before, series, labels);
    const ticks = delta('game_tick_duration_seconds_count');
    const figures = {
      date: new Date().toISOString(),
      cpus: os.cpus().length,
      node: process.version,
      clients: CLIENTS,
      toolExit: code,
      connected: count('Successful connections'),
      failed: count('Failed connections'),
      errors: count('Total errors'),
      allInSeconds: round(joinedInMs / 1000, 1),
      windowSeconds: round(windowSeconds, 1),
      playersInWindow: metricSum(before, 'game_players_online'),
      movesPerSecond: round(delta('game_messages_in_total', 'event="player:move"') / windowSeconds, 0),
      chatsPerSecond: round(delta('game_messages_in_total', 'event="player:chat"') / windowSeconds, 1),
      // prom-client's lag histogram restarts at each scrape: the last scrape's p99 is the window's.
      lagP99Ms: round(metricSum(after, 'nodejs_eventloop_lag_p99_seconds') * 1000, 1),
      tickMeanMs: ticks > 0 ? round(delta('game_tick_duration_seconds_sum') / ticks * 1000, 2) : NaN,
      authRejections: metricSum(after, 'game_rate_limit_rejections_total', 'limit="auth"'),
      serverCores: round(serverCores, 2),
      toolCores: round(toolCores, 2),
      serverRssMb: round(serverRssMb, 0),
    };
    console.log(figures);
    writeSection(SECTION, render(figures));
    console.log('wrote the Colyseus-tool section of docs/BENCHMARKS.md');
  } finally {
    await server.stop();
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

function render(f: Record<string, number | string | null>): string {
  return [
    SECTION_START,
    `## Colyseus' own load-test tool (${f.clients} bots with minted tokens; \`npm run bench:colyseus -- --clients ${CLIENTS} --duration ${SECONDS} --delay ${DELAY_MS}\`)`,
    '',
    `${String(f.date).slice(0, 10)}, ${f.cpus} cores, Node ${f.node}: \`npm run loadtest:colyseus\` (\`@colyseus/loadtest\` with loadtest/colyseus-bot.ts; docs/loadtest.md) `
      + `against a server process of its own on the embedded database, with 10 authentication attempts a minute allowed as in production; `
      + `each bot joins \`world\` with a new character through SDK matchmaking, walks to a random tile within 4 tiles every 600 ms tick and chats every 20 moves. `
      + `Server figures are its /metrics and its CPU over the ${f.windowSeconds} s when every bot was in; the tool shares the machine.`,
    '',
    '| tool: connected / failed / errors | all in after | players | moves in/s | chat lines/s | tick mean | event-loop lag p99 | auth 429s | server CPU | tool CPU | server RSS |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${f.connected} / ${f.failed} / ${f.errors} | ${f.allInSeconds} s | ${f.playersInWindow} | ${f.movesPerSecond} | ${f.chatsPerSecond} | ${f.tickMeanMs} ms | ${f.lagP99Ms} ms | ${f.authRejections} | ${f.serverCores} cores | ${f.toolCores} cores | ${f.serverRssMb} MiB |`,
    SECTION_END,
  ].join('\n');
}


/**
 * Issue #19's latency targets, each beside its baseline in the same server run (docs/worlds.md):
 * - a world hop (`world:hop` sent → `world:hopped`, which follows the new world's first `world:update` and
 *   `world:joined`) against a fresh login (socket opened → `authenticate` with the character → `world:joined`);
 * - a private message to a friend in another world (`chat:private` sent → the friend's `chat:privateMessage`)
 *   against one to a friend in the same world.
 * One game server with two standing worlds, and `background` /ws walkers in world 1 so the loop is not idle.
 * Samples alternate (login, hop, login, hop…; same, other, same, other…). Every wait is bounded.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { computeBlockedTiles } from '../../src/manifests/blocked-tiles.ts';
import { loadBundledWorld } from './game-data.ts';
import { seedWalkers, type SeededWalker } from './seed.ts';
import { freePort, startServerProcess } from './server-process.ts';
import { round, Samples } from './stats.ts';
import { JsonWalker, newWalkerStats } from './walkers.ts';
import { BotSocket } from './ws-bot.ts';

const SECRET = 'benchmark-secret-not-for-production';

export interface LatencyPair {
  baselineP50Ms: number;
  baselineP99Ms: number;
  p50Ms: number;
  p99Ms: number;
  /** p99 ÷ baseline p99 (target ≤ 1.5). */
  ratio: number;
  samples: number;
}

export interface HopFigures {
  background: number;
  hops: LatencyPair;
  privateMessages: LatencyPair;
}

function pair(baseline: Samples, measured: Samples): LatencyPair {
  return {
    baselineP50Ms: round(baseline.p(50), 1), baselineP99Ms: round(baseline.p(99), 1),
    p50Ms: round(measured.p(50), 1), p99Ms: round(measured.p(99), 1),
    ratio: round(measured.p(99) / baseline.p(99), 2), samples: Math.min(baseline.count, measured.count),
  };
}

/** A socket authenticated with the seed's token that entered the world (`world` or the server's pick). */
async function entered(wsUrl: string, seed: SeededWalker, world?: number): Promise<BotSocket> {
  const socket = await BotSocket.open(`${wsUrl}/ws`);
  socket.send('authenticate', { token: seed.token });
  await socket.next('authResult', (data) => data.success === true);
  socket.send('world:enter', { characterId: seed.characterId, ...(world === undefined ? {} : { world }) });
  await socket.next('world:joined');
  return socket;
}

async function befriend(a: { socket: BotSocket; seed: SeededWalker }, b: { socket: BotSocket; seed: SeededWalker }): Promise<void> {
  a.socket.send('friend:request', { characterId: b.seed.characterId });
  await b.socket.next('friend:requestReceived');
  b.socket.send('friend:accept', { characterId: a.seed.characterId });
  await a.socket.next('friend:added');
}

export async function runHopScenario(options: { background: number; samples: number; log: (line: string) => void }): Promise<HopFigures> {
  const { log } = options;
  const data = loadBundledWorld();
  const grid = computeBlockedTiles(data);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-hops-'));
  const pgliteDir = path.join(dataDir, 'db');
  const { config } = loadConfig({ NODE_ENV: 'test', PGLITE_DATA_DIR: pgliteDir, JWT_SECRET: SECRET });
  const db = await openDatabase({ pgliteDataDir: pgliteDir });
  // Background walkers, one character that logs in and out, one that hops, and two pairs of friends.
  const seeds = await seedWalkers(db, data, config, SECRET, options.background + 6);
  await db.close();
  const [loginSeed, hopSeed, a1, b1, a2, b2] = seeds.slice(options.background);

  const port = await freePort();
  const server = await startServerProcess(['src/start.js'], {
    NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', PGLITE_DATA_DIR: pgliteDir, JWT_SECRET: SECRET, LOG_LEVEL: 'warn',
    SAVE_INTERVAL: '60', WORLDS_MIN: '2', WORLD_CAPACITY: '5000', WS_MESSAGES_PER_SECOND: '1000',
    // Every login and every hop is a world entry: the per-account entry limit would stop the run.
    WORLD_ENTRIES_PER_MINUTE: '100000',
  }, port);
  const stats = newWalkerStats();
  const walkers = seeds.slice(0, options.background).map((seed) => new JsonWalker(server.wsUrl, seed, grid, stats));
  const sockets: BotSocket[] = [];
  try {
    for (let i = 0; i < walkers.length; i += 50) await Promise.allSettled(walkers.slice(i, i + 50).map((w) => w.start()));
    const worlds = ((await (await fetch(`${server.baseUrl}/api/v1/worlds`)).json()) as { worlds: Array<{ world: number }> }).worlds.map((w) => w.world);
    const [first, second] = worlds;
    log(`  ${walkers.length} background walkers in world ${first}; worlds ${worlds.join(', ')}`);

    const logins = new Samples();
    const hops = new Samples();
    const hopper = await entered(server.wsUrl, hopSeed, first);
    sockets.push(hopper);
    let hopperIn = first;
    for (let i = 0; i < options.samples; i++) {
      const started = performance.now();
      const login = await entered(server.wsUrl, loginSeed);
      logins.add(performance.now() - started);
      login.send('world:leave', {});
      await login.next('world:left');
      login.close();

      const target = hopperIn === first ? second : first;
      const hopStarted = performance.now();
      hopper.send('world:hop', { world: target });
      await hopper.next('world:hopped');
      hops.add(performance.now() - hopStarted);
      hopperIn = target;
    }
    log(`  hops: p99 ${round(hops.p(99), 1)} ms against logins p99 ${round(logins.p(99), 1)} ms`);

    const same = [{ socket: await entered(server.wsUrl, a1, first), seed: a1 }, { socket: await entered(server.wsUrl, b1, first), seed: b1 }];
    const across = [{ socket: await entered(server.wsUrl, a2, first), seed: a2 }, { socket: await entered(server.wsUrl, b2, second), seed: b2 }];
    sockets.push(...same.map((s) => s.socket), ...across.map((s) => s.socket));
    await befriend(same[0], same[1]);
    await befriend(across[0], across[1]);
    const sameWorld = new Samples();
    const otherWorld = new Samples();
    for (let i = 0; i < options.samples; i++) {
      for (const [[from, to], into] of [[same, sameWorld], [across, otherWorld]] as const) {
        const message = `m${i}`;
        const started = performance.now();
        from.socket.send('chat:private', { toId: to.seed.characterId, message });
        await to.socket.next('chat:privateMessage', (data) => data.message === message);
        into.add(performance.now() - started);
      }
      // A private message costs the sender's chat allowance (5 in 5 s): stay under it.
      await sleep(1_000);
    }
    log(`  private messages: another world p99 ${round(otherWorld.p(99), 1)} ms against the same world p99 ${round(sameWorld.p(99), 1)} ms`);
    return { background: walkers.length, hops: pair(logins, hops), privateMessages: pair(sameWorld, otherWorld) };
  } finally {
    for (const socket of sockets) socket.close();
    for (const walker of walkers) walker.stop();
    await sleep(500);
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * `npm run chaos`: a Jepsen-style run on real processes (docs/chaos.md). A scratch PostgreSQL database and a Redis of
 * its own; three server processes behind links the harness controls; economy bots (the soak's traders and shoppers),
 * /ws walkers that hop and send private messages, and SDK bankers, spread over the processes; faults of every kind
 * injected from outside; a checker that reads every process' /status and the database during the run and at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TokenService } from '../../../src/auth/tokens.ts';
import { openDatabase, type Database } from '../../../src/db/database.ts';
import { createScratchDatabase, type ScratchDatabase } from '../postgres.ts';
import { seededRandom } from '../seed.ts';
import { shopperLoop, traderPairLoop, type ShopperState } from '../soak/bots.ts';
import { ledgerOf, seedCharacters, type SeedSpec } from '../soak/ledger.ts';
import { bump, type BotEnv, type ChaosCharacter, type ChaosStats } from './bot-env.ts';
import { Cluster } from './cluster.ts';
import { ClusterBot, clusterSoakContext } from './economy-bots.ts';
import { probeEntries } from './entry-probe.ts';
import { FaultInjector, FAULT_KINDS, type FaultOptions } from './faults.ts';
import { checkFinal, checkLedgers, type LedgerSubjects } from './ledger-check.ts';
import { ProcessGroups } from './process-groups.ts';
import { RedisServer } from './redis-server.ts';
import type { ChaosReport } from './report.ts';
import { sdkBankerLoop, type SdkBanker } from './sdk-banker.ts';
import { StatusWatch } from './status-watch.ts';
import { Violations } from './violations.ts';
import { worldCensus } from './world-census.ts';
import { wsWitnessLoop, type WsWitness } from './ws-witness.ts';

/** The servers' Redis key prefix (the census reads their room listings under it). */
const KEY_PREFIX = 'chaos:';

export interface ChaosOptions {
  faults: FaultOptions;
  traderPairs: number;
  shoppers: number;
  walkers: number;
  sdkBankers: number;
  worlds: number;
  /** WORLD_LEASE_SECONDS given to the servers; the availability bound is this + 5 s. */
  leaseSeconds: number;
  seed: number;
  adminUrl: string;
  /** Extra server variables (a hook the servers may read). */
  serverEnv: Record<string, string>;
  keepLogs: boolean;
  log: (line: string) => void;
}

const SECRET = 'chaos-secret-0123456789abcdef0123456789';
const AT_BANK = { x: 107, z: 86 };
const AT_GENERAL_STORE = { x: 89, z: 87 };
const WALKERS_AT = { x: 113, z: 100 };
const OP_TIMEOUT_MS = 5_000;

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log;
  const rnd = seededRandom(options.seed);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaos-'));
  const groups = new ProcessGroups(dir);
  groups.startWatchdog();
  const violations = new Violations((kind, example) => log(`  violation (${kind}): ${example}`));
  const started = Date.now();
  let scratch: ScratchDatabase | undefined;
  let db: Database | undefined;
  let cluster: Cluster | undefined;
  let redis: RedisServer | undefined;
  let failed = true;
  try {
    scratch = await createScratchDatabase(options.adminUrl, 'chaos');
    groups.addLastResort(['psql', options.adminUrl, '-qAt', '-c', `drop database if exists ${new URL(scratch.url).pathname.slice(1)} with (force)`]);
    db = await openDatabase({ databaseUrl: scratch.url, pgliteDataDir: 'memory://', poolSize: 2 });

    // Seeding: traders and shoppers as the soak seeds them; walkers with nothing to move; SDK bankers with a kit.
    const specs: SeedSpec[] = [];
    for (let i = 0; i < options.traderPairs * 2; i++) {
      specs.push({
        role: 'trader', ...AT_BANK,
        inventory: [{ itemId: 'coins', quantity: 10_000 }, { itemId: 'feather', quantity: 500 }, { itemId: 'bronze_dagger', quantity: 1 }, { itemId: 'bread', quantity: 1 }, { itemId: 'bread', quantity: 1 }],
        bank: [{ itemId: 'coins', quantity: 1_000 }, { itemId: 'feather', quantity: 100 }, { itemId: 'bronze_dagger', quantity: 2 }],
      });
    }
    // A shopper loses the spread between buying and selling prices on every round trip: 50,000 coins lasted a short
    // run but ran out within the 80 minutes of the long form (NOT_ENOUGH_COINS from then on); 100 times as many.
    for (let i = 0; i < options.shoppers; i++) specs.push({ role: 'shopper', ...AT_GENERAL_STORE, inventory: [{ itemId: 'coins', quantity: 5_000_000 }, { itemId: 'feather', quantity: 20 }], bank: [] });
    for (let i = 0; i < options.walkers; i++) specs.push({ role: 'trader', ...WALKERS_AT, inventory: [{ itemId: 'coins', quantity: 100 }], bank: [] });
    for (let i = 0; i < options.sdkBankers; i++) {
      specs.push({ role: 'trader', ...AT_BANK, inventory: [{ itemId: 'coins', quantity: 2_000 }, { itemId: 'feather', quantity: 200 }, { itemId: 'bronze_dagger', quantity: 1 }], bank: [{ itemId: 'bread', quantity: 5 }] });
    }
    const seeded = await seedCharacters(db, specs);
    const tradersSeed = seeded.slice(0, options.traderPairs * 2);
    const shoppersSeed = seeded.slice(tradersSeed.length, tradersSeed.length + options.shoppers);
    const walkersSeed = seeded.slice(tradersSeed.length + options.shoppers, tradersSeed.length + options.shoppers + options.walkers);
    const bankersSeed = seeded.slice(tradersSeed.length + options.shoppers + options.walkers);
    // The walkers are friends of each other (both ways), so their private messages are allowed across worlds.
    for (const a of walkersSeed) {
      for (const b of walkersSeed) {
        if (a !== b) await db.em.getConnection().execute('insert into friendships (character_id, friend_id, created_at) values (?, ?, now())', [a.characterId, b.characterId]);
      }
    }
    const seededTotals = await ledgerOf(db, seeded.map((s) => s.characterId));
    const subjects: LedgerSubjects = {
      seeded: seededTotals,
      traders: tradersSeed.map((s) => s.characterId),
      invariant: [...walkersSeed, ...bankersSeed].map((s) => s.characterId),
      names: new Map(seeded.map((s) => [s.characterId, s.name])),
    };
    const tokens = new TokenService({ secret: SECRET, issuer: 'rs-game-server', audience: 'rs-game', ttlSeconds: 24 * 3600 });
    const tokenOf = (accountId: string) => tokens.sign({ accountId, roles: ['player'], scope: 'player' }).token;

    redis = new RedisServer(dir, groups);
    await redis.start();
    const databaseUrl = new URL(scratch.url);
    cluster = new Cluster({
      size: 3, databasePort: Number(databaseUrl.port || 5432), databaseName: databaseUrl.pathname.slice(1), redisPort: redis.port, logDir: dir,
      env: {
        JWT_SECRET: SECRET, LOG_LEVEL: 'warn', CLUSTER_KEY_PREFIX: KEY_PREFIX, RATE_LIMIT_KEY_PREFIX: 'chaos-rl',
        WS_MESSAGES_PER_SECOND: '1000', TRADE_REQUEST_COOLDOWN_MS: '0',
        GROUND_ITEM_PRIVATE_SECONDS: '86400', GROUND_ITEM_PUBLIC_SECONDS: '86400',
        WORLDS_MIN: String(options.worlds), WORLD_LEASE_SECONDS: String(options.leaseSeconds),
        ...options.serverEnv,
      },
    }, groups);
    log(`chaos: scratch database ${databaseUrl.pathname.slice(1)}, redis-server on ${redis.port}, logs in ${dir}`);
    await cluster.start();
    log(`chaos: ${cluster.nodes.map((n) => `${n.name} on ${n.port} (internal ${n.links.inbound.port})`).join(', ')}`);

    // The bots.
    const stats: ChaosStats = { acked: {}, refused: {}, timeouts: 0, entries: 0, sessions: { ghosts: 0, ghostAnswers: 0, actedAfterNewerGone: 0, twoAtOnce: 0, closeCodes: {} } };
    let stopAt = Number.POSITIVE_INFINITY;
    const env: BotEnv = {
      reachable: () => cluster!.reachable(), worlds: options.worlds, stopAt: () => stopAt,
      opTimeoutMs: OP_TIMEOUT_MS, entryTimeoutMs: 25_000, violations, stats,
    };
    const soakCtx = clusterSoakContext(OP_TIMEOUT_MS);
    soakCtx.stopAt = Number.MAX_SAFE_INTEGER;
    const entryUrl = () => {
      const nodes = cluster!.reachable();
      return nodes.length === 0 ? undefined : nodes[Math.floor(rnd() * nodes.length)].wsUrl;
    };
    const traders = tradersSeed.map((s, i) => new ClusterBot(s, tokenOf(s.accountId), 1 + (Math.floor(i / 2) % options.worlds), entryUrl));
    const shopperBots = shoppersSeed.map((s) => new ClusterBot(s, tokenOf(s.accountId), undefined, entryUrl));
    const shoppers: ShopperState[] = shopperBots.map((bot) => ({ bot, expected: { ...seededTotals.get(bot.id)! }, inFlight: null, inFlightApplied: 0 }));
    const character = (s: { characterId: string; name: string; accountId: string }, home: { x: number; z: number }, friends: string[]): ChaosCharacter =>
      ({ id: s.characterId, name: s.name, accountId: s.accountId, token: tokenOf(s.accountId), home, friends });
    const walkers: WsWitness[] = walkersSeed.map((s) => ({
      me: character(s, WALKERS_AT, walkersSeed.filter((o) => o !== s).map((o) => o.characterId)), lastAckAt: 0, lastProblem: '', trail: [],
    }));
    const bankers: SdkBanker[] = bankersSeed.map((s) => ({ me: character(s, AT_BANK, []), lastAckAt: 0, inventory: [], bank: null, bankUncertain: false, lastProblem: '' }));
    const seedOf = () => Math.floor(rnd() * 2 ** 31);
    const loops: Array<Promise<void>> = [];
    for (let i = 0; i < traders.length; i += 2) loops.push(traderPairLoop(traders[i], traders[i + 1], soakCtx, seededRandom(seedOf())));
    for (const s of shoppers) loops.push(shopperLoop(s, soakCtx, seededRandom(seedOf())));
    for (const w of walkers) loops.push(wsWitnessLoop(w, env, seededRandom(seedOf())));
    for (const b of bankers) loops.push(sdkBankerLoop(b, env, seededRandom(seedOf())));
    const everyBot: Array<{ name: string; lastAck(): number; problem(): string; trail?(): string[] }> = [
      ...traders.map((b) => ({ name: `trader ${b.me.name}`, lastAck: () => b.lastAckAt, problem: () => b.lastProblem })),
      ...shopperBots.map((b) => ({ name: `shopper ${b.me.name}`, lastAck: () => b.lastAckAt, problem: () => b.lastProblem })),
      ...walkers.map((w) => ({ name: `/ws walker ${w.me.name}`, lastAck: () => w.lastAckAt, problem: () => w.lastProblem, trail: () => w.trail })),
      ...bankers.map((b) => ({ name: `SDK banker ${b.me.name}`, lastAck: () => b.lastAckAt, problem: () => b.lastProblem })),
    ];

    // The checker during the run: /status every second, the ledgers every 15 s.
    let checking = true;
    const statusWatch = new StatusWatch(cluster, violations, async () => {
      const rows = await db!.em.fork().execute<Array<{ number: number; epoch: number | string | null }>>('select * from worlds');
      if (rows.length === 0 || !('epoch' in rows[0])) return undefined;
      return new Map(rows.map((row) => [Number(row.number), Number(row.epoch)]));
    });
    const statusLoop = statusWatch.run(1_000, () => !checking);
    let ledgerChecks = 0;
    const ledgerLoop = (async () => {
      for (let i = 0; i < 10_000 && checking; i++) {
        await sleep(15_000);
        if (!checking) break;
        await checkLedgers(db!, subjects, violations, `during the run (${Math.round((Date.now() - started) / 1000)} s)`).then(() => ledgerChecks++, () => undefined);
      }
    })();
    const injector = new FaultInjector(cluster, redis, rnd, options.faults);
    injector.log = log;
    const acknowledged = () => Object.values(stats.acked).reduce((a, b) => a + b, 0) + Object.values(soakCtx.acked).reduce((a, b) => a + b, 0);
    // The harness' own event loop: a long pause (a bot loop that spun without waiting) times out every wait in
    // flight at once, which the checks would read as the servers' doing.
    const harnessPause = { longestMs: 0, last: Date.now() };
    const heartbeat = setInterval(() => {
      harnessPause.longestMs = Math.max(harnessPause.longestMs, Date.now() - harnessPause.last - 100);
      harnessPause.last = Date.now();
    }, 100);
    heartbeat.unref();
    const progress = setInterval(() => log(`  t=${Math.round((Date.now() - started) / 1000)} s: ${acknowledged()} operations acknowledged, faults ${JSON.stringify(injector.counts())}, violations ${violations.total}`), 10_000);

    // Warm-up, then the faults.
    await sleep(5_000);
    const faultsStarted = Date.now();
    await injector.run();
    const faultsMs = Date.now() - faultsStarted;
    // Every process back and every link open (the lanes heal what they cut; this makes sure).
    for (const link of cluster.links()) if (link.current !== 'open') await link.heal();
    for (const node of cluster.nodes) if (node.state === 'stopped') cluster.resume(node);
    const lastFaultEnded = Math.max(injector.lastEndedAt, Date.now());
    const boundMs = (options.leaseSeconds + 5) * 1000;
    // A bot notices a dead session only when an operation goes unanswered (OP_TIMEOUT_MS), and the soak's bots wait
    // up to 3 s for their leave before entering again: a bot's own recovery gets that on top of the contract's bound.
    const recoveryBoundMs = boundMs + OP_TIMEOUT_MS + 3_000;
    log(`chaos: the last fault ended at ${new Date(lastFaultEnded).toISOString().slice(11, 23)}; every bot must have an operation acknowledged within ${recoveryBoundMs / 1000} s, every character enter again within ${boundMs / 1000} s`);

    // Recovery: the first acknowledgement of every bot after the last fault ended.
    const recoveredIn = new Map<string, number>();
    const watchUntil = lastFaultEnded + recoveryBoundMs + 10_000;
    let censusTaken = false;
    for (let i = 0; i < 10_000 && Date.now() < watchUntil && recoveredIn.size < everyBot.length; i++) {
      for (const bot of everyBot) if (!recoveredIn.has(bot.name) && bot.lastAck() > lastFaultEnded) recoveredIn.set(bot.name, bot.lastAck() - lastFaultEnded);
      if (!censusTaken && Date.now() > lastFaultEnded + recoveryBoundMs) {
        // Bots still out past the bound: where the worlds are, while it is still wrong.
        censusTaken = true;
        log(`chaos: ${everyBot.length - recoveredIn.size} bots not back ${recoveryBoundMs / 1000} s after the last fault; where the worlds are:`);
        const rows = () => db!.em.fork().execute<Array<{ number: number; epoch: string; process_id: string; room_id: string; live: boolean }>>(
          'select number, epoch, process_id, room_id, lease_until > clock_timestamp() as live from worlds order by number');
        for (const line of await worldCensus(cluster.nodes, rows, redis.port, KEY_PREFIX)) log(line);
        for (const bot of everyBot.filter((b) => !recoveredIn.has(b.name))) {
          log(`  late: ${bot.name}, last problem: ${bot.problem() || 'none seen'}`);
          for (const step of bot.trail?.() ?? []) log(`    ${step}`);
        }
      }
      await sleep(100);
    }
    for (const bot of everyBot) {
      const took = recoveredIn.get(bot.name);
      if (took === undefined) violations.add('recovery', `${bot.name}: no operation acknowledged within ${(watchUntil - lastFaultEnded) / 1000} s after the last fault ended (last problem: ${bot.problem() || 'none seen'})`);
      else if (took > recoveryBoundMs) violations.add('recovery', `${bot.name}: first operation acknowledged ${(took / 1000).toFixed(1)} s after the last fault ended (bound ${recoveryBoundMs / 1000} s; last problem: ${bot.problem() || 'none seen'})`);
    }

    // Drain: the bots finish their operation (bounded) and leave; one more /status poll; the servers stop (saving).
    stopAt = Date.now();
    soakCtx.stopAt = Date.now();
    await Promise.race([Promise.all(loops), sleep(OP_TIMEOUT_MS * 3 + 10_000)]);
    clearInterval(progress);
    clearInterval(heartbeat);
    // Every player can enter again: one fresh entry (and leave) per character, within the bound.
    await sleep(1_000);
    // What each process' way to Redis looks like now (a run once ended with every process' Redis commands failing).
    const redisPaths = await Promise.all([redis.ping(), ...cluster.nodes.map((node) => redis!.ping(node.links.redis.port))]);
    log(`chaos: Redis answers PING directly: ${redisPaths[0] ? 'yes' : 'NO'}; through ${cluster.nodes.map((node, i) => `${node.name}'s link: ${redisPaths[i + 1] ? 'yes' : 'NO'}`).join(', ')}`);
    const reentrySlowestMs = await probeEntries(cluster.nodes, seeded.map((s) => ({ id: s.characterId, name: s.name, token: tokenOf(s.accountId) })), boundMs, violations, rnd);
    await statusWatch.poll();
    checking = false;
    await Promise.race([Promise.all([statusLoop, ledgerLoop]), sleep(20_000)]);
    await cluster.stopAll();

    const final = await checkFinal(db, subjects, {
      trades: soakCtx.trades, shoppers,
      sdkBanks: bankers.map((b) => ({ id: b.me.id, bank: b.bank, uncertain: b.bankUncertain })),
    }, violations);
    for (const v of soakCtx.violations) violations.add(v.startsWith('bot error') ? 'bot-error' : 'acknowledged-missing', v);

    // The run did what it claims.
    const counts = injector.counts();
    for (const kind of FAULT_KINDS) if (counts[kind] < options.faults.perKind) violations.add('run-incomplete', `${counts[kind]} ${kind} faults of ${options.faults.perKind}`);
    for (const failure of injector.failures) violations.add('run-incomplete', `a fault failed: ${failure}`);
    const acked: Record<string, number> = { ...soakCtx.acked };
    for (const [kind, n] of Object.entries(stats.acked)) bump(acked, kind, n);
    const kinds = ['trade', 'bank:deposit', 'bank:withdraw', 'inventory:drop', 'groundItem:pickup', 'shop:buy', 'shop:sell', 'move', 'hop', 'private-message', 'sdk:move', 'sdk:bank:deposit', 'sdk:bank:withdraw'];
    for (const kind of kinds) if (!acked[kind] && !(kind === 'hop' && options.worlds < 2)) violations.add('run-incomplete', `no ${kind} was acknowledged`);
    const refused: Record<string, number> = { ...soakCtx.refused };
    for (const [code, n] of Object.entries(stats.refused)) bump(refused, code, n);

    failed = violations.total > 0;
    return {
      seconds: Math.round((Date.now() - started) / 1000), faultSeconds: Math.round(faultsMs / 1000),
      bots: { traders: traders.length, shoppers: shoppers.length, walkers: walkers.length, sdkBankers: bankers.length },
      leaseSeconds: options.leaseSeconds, boundSeconds: boundMs / 1000, recoveryBoundSeconds: recoveryBoundMs / 1000,
      faults: counts, faultExamples: injector.records.slice(0, 3).map((r) => `${r.kind}: ${r.detail}`),
      acked, refused, acknowledged: Object.values(acked).reduce((a, b) => a + b, 0),
      timeouts: stats.timeouts + soakCtx.timeouts, entries: stats.entries, reconnects: soakCtx.reconnects, emptyHanded: soakCtx.emptyHanded, harnessLongestPauseMs: harnessPause.longestMs,
      sessions: stats.sessions, statusPolls: statusWatch.polls, pollsWithTwoLive: statusWatch.pollsWithTwoLive, ledgerChecks,
      tradesAcknowledged: soakCtx.trades.size, tradesInAudit: final.tradesInAudit, shopInFlightApplied: final.shopInFlightApplied,
      slowestRecoveryMs: Math.max(0, ...recoveredIn.values()), reentrySlowestMs, characters: seeded.length, recovered: recoveredIn.size, botsTotal: everyBot.length,
      restarts: cluster.nodes.map((n) => `${n.name} ${n.starts - 1}`).join(', '),
      violations: violations.summary(), logDir: options.keepLogs || violations.total > 0 ? dir : null,
    };
  } finally {
    await cluster?.stopAll().catch(() => undefined);
    await redis?.stop().catch(() => undefined);
    await db?.close().catch(() => undefined);
    await scratch?.drop().then(() => groups.clearLastResort(), (error: Error) => log(`could not drop the scratch database: ${error.message}`));
    groups.killAll();
    if (!failed && !options.keepLogs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The economy soak: a real server process on a persistent database, trader pairs and shoppers over /ws, and
 * `kill -9` at random moments followed by a restart on the same data. At the end, SQL checks (see docs/soak.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TokenService } from '../../../src/auth/tokens.ts';
import { openDatabase, type Database } from '../../../src/db/database.ts';
import { seededRandom } from '../seed.ts';
import { freePort } from '../server-process.ts';
import { Bot, newSoakContext, shopperLoop, traderPairLoop, inFlightExplains, type ShopperState, type SoakContext } from './bots.ts';
import {
  addTotals, auditRows, coinMirrorMismatches, deathRows, itemsTotals, ledgerOf, sameTotals, seedCharacters, sortedTotals, sumTotals,
  type SeedSpec, type Totals,
} from './ledger.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SECRET = 'soak-secret-0123456789abcdef0123456789';
/** Beside the bank booth (106, 85): every trader stands here (partners within 2 tiles, the booth within reach). */
const AT_BANK = { x: 107, z: 86 };
/** Beside Mirela, keeper of the general store. */
const AT_GENERAL_STORE = { x: 89, z: 87 };

export interface SoakOptions {
  durationSeconds: number;
  /** Total bots: `shoppers` of them shop, the rest trade in pairs (an odd one out shops too). */
  bots: number;
  shoppers?: number;
  crashes: number;
  seed?: number;
  databaseUrl?: string;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface SoakReport {
  database: 'postgresql' | 'pglite';
  durationMs: number;
  traders: number;
  shoppers: number;
  crashes: number;
  restarts: number;
  acked: Record<string, number>;
  refused: Record<string, number>;
  ackedByGeneration: Record<number, number>;
  reconnects: number;
  timeouts: number;
  /** Trader rounds with nothing to move (bots.ts `emptyHanded`). */
  emptyHanded: number;
  tradesAcknowledged: number;
  tradesCompletedInAudit: number;
  tradesCompletedUnacknowledged: number;
  shopInFlightApplied: number;
  tradersBefore: Totals;
  tradersAfter: Totals;
  shoppersBefore: Totals;
  shoppersExpected: Totals;
  shoppersAfter: Totals;
  violations: string[];
  ok: boolean;
}

interface Child {
  child: ChildProcess;
  exited: Promise<void>;
  output: () => string;
}

function spawnServer(env: Record<string, string>, port: number): Child {
  const child = spawn(process.execPath, ['src/start.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-20_000); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited, output: () => output };
}

async function waitHealthy(server: Child, port: number, timeoutMs: number): Promise<void> {
  const started = Date.now();
  let exited = false;
  void server.exited.then(() => (exited = true));
  while (!exited && Date.now() - started < timeoutMs) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2_000) })).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`the server did not become healthy:\n${server.output()}`);
}

/** The bots keep going at least this long after the last restart, however late it completed. */
const MIN_RUN_AFTER_RESTART_MS = 6_000;

/** Crash instants: one uniformly random moment in each of `crashes` equal windows (after a short warm-up). */
function crashPlan(durationMs: number, crashes: number, rnd: () => number): number[] {
  const window = durationMs / Math.max(1, crashes);
  return Array.from({ length: crashes }, (_, i) => {
    const lead = Math.min(3_000, window * 0.3);
    return Math.floor(i * window + lead + rnd() * (window - lead) * 0.9);
  });
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => undefined);
  const rnd = seededRandom(options.seed ?? Date.now());
  const databaseUrl = options.databaseUrl;
  const shopperCount = Math.max(1, Math.min(options.bots - 2, options.shoppers ?? Math.max(1, Math.round(options.bots / 4))));
  let pairs = Math.floor((options.bots - shopperCount) / 2);
  if (pairs < 1) pairs = 1;
  const shoppers = Math.max(shopperCount, options.bots - 2 * pairs);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-'));
  const pgliteDataDir = path.join(dir, 'pglite');
  const openDb = (): Promise<Database> => openDatabase({ databaseUrl, pgliteDataDir, poolSize: 2 });
  const violations: string[] = [];
  let server: Child | null = null;
  const started = Date.now();
  try {
    // Seed before the server owns the database (PGlite allows one process).
    const specs: SeedSpec[] = [];
    for (let i = 0; i < pairs * 2; i++) {
      specs.push({
        role: 'trader', ...AT_BANK,
        inventory: [{ itemId: 'coins', quantity: 10_000 }, { itemId: 'feather', quantity: 500 }, { itemId: 'bronze_dagger', quantity: 1 }, { itemId: 'bread', quantity: 1 }, { itemId: 'bread', quantity: 1 }],
        bank: [{ itemId: 'coins', quantity: 1_000 }, { itemId: 'feather', quantity: 100 }, { itemId: 'bronze_dagger', quantity: 2 }],
      });
    }
    for (let i = 0; i < shoppers; i++) {
      specs.push({ role: 'shopper', ...AT_GENERAL_STORE, inventory: [{ itemId: 'coins', quantity: 50_000 }, { itemId: 'feather', quantity: 20 }], bank: [] });
    }
    let db = await openDb();
    const seeded = await seedCharacters(db, specs);
    const ids = seeded.map((s) => s.characterId);
    const before = await ledgerOf(db, ids);
    await db.close();

    const traderIds = seeded.filter((s) => s.role === 'trader').map((s) => s.characterId);
    const shopperIds = seeded.filter((s) => s.role === 'shopper').map((s) => s.characterId);
    const tokens = new TokenService({ secret: SECRET, issuer: 'rs-game-server', audience: 'rs-game', ttlSeconds: 6 * 3600 });
    const bots = seeded.map((s) => new Bot(s, tokens.sign({ accountId: s.accountId, roles: ['player'], scope: 'player' }).token));

    const env: Record<string, string> = {
      JWT_SECRET: SECRET, PGLITE_DATA_DIR: pgliteDataDir, LOG_LEVEL: 'warn',
      WS_MESSAGES_PER_SECOND: '1000', TRADE_REQUEST_COOLDOWN_MS: '0',
      // Ground items must not expire (a sink) nor become public (another bot could pick them up) during the soak.
      GROUND_ITEM_PRIVATE_SECONDS: '86400', GROUND_ITEM_PUBLIC_SECONDS: '86400',
      // One world: the bots trade with each other, and trades stay inside a world.
      WORLD_CAPACITY: '5000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    const port = await freePort();
    const ctx: SoakContext = newSoakContext({ wsUrl: null, stopAt: 0, opTimeoutMs: 10_000, violations });
    server = spawnServer(env, port);
    await waitHealthy(server, port, 60_000);
    ctx.target.wsUrl = `ws://127.0.0.1:${port}`;
    const durationMs = options.durationSeconds * 1000;
    const soakStart = Date.now();
    ctx.stopAt = soakStart + durationMs;
    log(`soak: ${pairs} trader pairs, ${shoppers} shoppers, ${options.crashes} crashes over ${options.durationSeconds} s on ${databaseUrl ? 'postgresql' : 'pglite'}`);

    const traderBots = bots.filter((b) => b.me.role === 'trader');
    const shopperStates: ShopperState[] = bots.filter((b) => b.me.role === 'shopper')
      .map((bot) => ({ bot, expected: { ...before.get(bot.id)! }, inFlight: null, inFlightApplied: 0 }));
    const loops: Array<Promise<void>> = [];
    for (let i = 0; i < traderBots.length; i += 2) loops.push(traderPairLoop(traderBots[i], traderBots[i + 1], ctx, seededRandom(Math.floor(rnd() * 2 ** 31))));
    for (const s of shopperStates) loops.push(shopperLoop(s, ctx, seededRandom(Math.floor(rnd() * 2 ** 31))));

    let crashes = 0;
    let restarts = 0;
    const plan = crashPlan(durationMs, options.crashes, rnd);
    const progress = setInterval(() => log(`  t=${Math.round((Date.now() - soakStart) / 1000)}s acked ${JSON.stringify(ctx.acked)} crashes ${crashes}`), 5_000);
    try {
      for (const at of plan) {
        const wait = soakStart + at - Date.now();
        if (wait > 0) await sleep(wait);
        if (Date.now() >= ctx.stopAt) break;
        ctx.target.wsUrl = null;
        // The bots stay alive through the restart, however long it takes on a busy machine…
        ctx.stopAt = Math.max(ctx.stopAt, Date.now() + 120_000);
        server.child.kill('SIGKILL');
        await server.exited;
        crashes++;
        log(`  kill -9 #${crashes} at t=${Math.round((Date.now() - soakStart) / 100) / 10}s; restarting on the same data`);
        server = spawnServer(env, port);
        await waitHealthy(server, port, 60_000);
        restarts++;
        ctx.target.generation++;
        ctx.target.wsUrl = `ws://127.0.0.1:${port}`;
        // …and then get a window to prove the restarted server works.
        ctx.stopAt = Math.max(soakStart + durationMs, Date.now() + MIN_RUN_AFTER_RESTART_MS);
      }
      const rest = ctx.stopAt - Date.now();
      if (rest > 0) await sleep(rest);
    } finally {
      clearInterval(progress);
    }
    // Bots finish their current operation (bounded by the op timeout) and leave.
    await Promise.race([Promise.all(loops), sleep(ctx.opTimeoutMs * 3 + 5_000)]);
    ctx.target.wsUrl = null;
    const done = server.exited;
    server.child.kill('SIGTERM');
    await Promise.race([done, sleep(15_000)]);
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    server = null;

    // The SQL checks.
    db = await openDb();
    let report: SoakReport;
    try {
      const after = await ledgerOf(db, ids);
      const audit = await auditRows(db, ids);
      const completed = audit.filter((r) => r.status === 'completed');
      const byId = new Map(completed.map((r) => [r.id, r]));
      const traderSet = new Set(traderIds);
      // 1. Every trade a bot saw completed is a completed audit row, with exactly the items it was told it received.
      for (const t of ctx.trades.values()) {
        const row = byId.get(t.tradeId);
        if (!row) {
          violations.push(`trade ${t.tradeId} was acknowledged (tradeCompleted) but is not completed in trade_audit`);
          continue;
        }
        for (const [who, received] of t.received) {
          const expected = who === row.initiatorId ? itemsTotals(row.partnerItems) : itemsTotals(row.initiatorItems);
          if (!sameTotals(expected, received)) violations.push(`trade ${t.tradeId}: ${who} was told it received ${JSON.stringify(received)}, the audit says ${JSON.stringify(expected)}`);
        }
      }
      for (const r of completed) {
        if (!traderSet.has(r.initiatorId) || !traderSet.has(r.partnerId)) violations.push(`completed trade ${r.id} involves a character outside the traders`);
      }
      // 2. Per trader: what it holds = seeded + Σ over completed audit rows (received − given). Bank, drop and
      //    pick-up only move items within one character, so every completed trade must be applied to both sides
      //    and nothing else may have moved: no half-applied trade, no duplicate, no loss.
      for (const id of traderIds) {
        const expected: Totals = { ...before.get(id)! };
        for (const r of completed) {
          if (r.initiatorId === id) { addTotals(expected, itemsTotals(r.initiatorItems), -1); addTotals(expected, itemsTotals(r.partnerItems)); }
          if (r.partnerId === id) { addTotals(expected, itemsTotals(r.partnerItems), -1); addTotals(expected, itemsTotals(r.initiatorItems)); }
        }
        if (!sameTotals(expected, after.get(id)!)) violations.push(`trader ${id}: holds ${JSON.stringify(after.get(id))}, seeded + completed trades = ${JSON.stringify(sortedTotals(expected))}`);
      }
      const tradersBefore = sumTotals(traderIds.map((id) => before.get(id)!));
      const tradersAfter = sumTotals(traderIds.map((id) => after.get(id)!));
      if (!sameTotals(tradersBefore, tradersAfter)) violations.push(`the traders' closed economy changed: ${JSON.stringify(tradersBefore)} → ${JSON.stringify(tradersAfter)}`);
      // 3. Per shopper: seeded + acknowledged purchases and sales (+ the op in flight at a crash when the restart
      //    showed it applied) = what the database holds (+ the op still in flight at the end, all or nothing).
      let shopInFlightApplied = 0;
      for (const s of shopperStates) {
        shopInFlightApplied += s.inFlightApplied;
        const held = after.get(s.bot.id)!;
        const diff = sortedTotals(addTotals({ ...held }, s.expected, -1));
        if (Object.keys(diff).length > 0 && !inFlightExplains(diff, s.inFlight)) {
          violations.push(`shopper ${s.bot.id}: holds ${JSON.stringify(held)}, acknowledged shop operations give ${JSON.stringify(s.expected)}`);
        }
      }
      // 4. characters.coins mirrors the inventory; nobody died (a death would be an unplanned move).
      violations.push(...await coinMirrorMismatches(db, ids));
      const deaths = await deathRows(db, ids);
      if (deaths > 0) violations.push(`${deaths} player_deaths rows for soak characters`);
      // 5. The soak did what it claims: crashes happened and every kind of operation was acknowledged, after the
      //    last restart too.
      if (crashes < options.crashes) violations.push(`only ${crashes} of ${options.crashes} crashes happened`);
      for (const kind of ['trade', 'bank:deposit', 'bank:withdraw', 'inventory:drop', 'groundItem:pickup', 'shop:buy', 'shop:sell']) {
        if (!ctx.acked[kind]) violations.push(`no ${kind} was acknowledged`);
      }
      if (!ctx.ackedByGeneration[ctx.target.generation]) violations.push('no operation was acknowledged after the last restart');

      const acknowledged = new Set(ctx.trades.keys());
      report = {
        database: databaseUrl ? 'postgresql' : 'pglite', durationMs: Date.now() - started,
        traders: traderIds.length, shoppers: shopperIds.length, crashes, restarts,
        acked: ctx.acked, refused: ctx.refused, ackedByGeneration: ctx.ackedByGeneration, reconnects: ctx.reconnects, timeouts: ctx.timeouts, emptyHanded: ctx.emptyHanded,
        tradesAcknowledged: ctx.trades.size, tradesCompletedInAudit: completed.length,
        tradesCompletedUnacknowledged: completed.filter((r) => !acknowledged.has(r.id)).length,
        shopInFlightApplied,
        tradersBefore, tradersAfter,
        shoppersBefore: sumTotals(shopperIds.map((id) => before.get(id)!)),
        shoppersExpected: sumTotals(shopperStates.map((s) => s.expected)),
        shoppersAfter: sumTotals(shopperIds.map((id) => after.get(id)!)),
        violations, ok: violations.length === 0,
      };
    } finally {
      await db.close();
    }
    return report;
  } finally {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await Promise.race([server.exited, sleep(5_000)]);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function formatReport(r: SoakReport): string {
  const lines = [
    `economy soak on ${r.database}: ${Math.round(r.durationMs / 1000)} s, ${r.traders} traders (${r.traders / 2} pairs), ${r.shoppers} shoppers`,
    `  crashes (kill -9): ${r.crashes}, restarts: ${r.restarts}, reconnects: ${r.reconnects}, timeouts: ${r.timeouts}, trader rounds with nothing to move: ${r.emptyHanded}`,
    `  acknowledged: ${Object.entries(r.acked).map(([k, n]) => `${k} ${n}`).join(', ')}`,
    `  acknowledged per server run: ${Object.entries(r.ackedByGeneration).map(([g, n]) => `#${g} ${n}`).join(', ')}`,
    `  refused (state unchanged): ${Object.entries(r.refused).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
    `  trades: ${r.tradesAcknowledged} acknowledged, ${r.tradesCompletedInAudit} completed in trade_audit (${r.tradesCompletedUnacknowledged} committed but not acknowledged before a crash: verified fully applied)`,
    `  shop operations in flight at a crash and found applied: ${r.shopInFlightApplied}`,
    `  traders' totals before: ${JSON.stringify(r.tradersBefore)}`,
    `  traders' totals after:  ${JSON.stringify(r.tradersAfter)}`,
    `  shoppers' totals before: ${JSON.stringify(r.shoppersBefore)}`,
    `  shoppers' expected (seeded + acknowledged shop sources/sinks): ${JSON.stringify(r.shoppersExpected)}`,
    `  shoppers' totals after: ${JSON.stringify(r.shoppersAfter)}`,
    `  verdict: ${r.ok ? 'PASS — every item accounted for exactly' : `FAIL (${r.violations.length} violations)`}`,
    ...r.violations.slice(0, 50).map((v) => `    ✗ ${v}`),
  ];
  return lines.join('\n');
}

/**
 * A crash during a stream of trades: the server process is killed with SIGKILL while pairs of players trade as
 * fast as they can, restarted, and the database is checked with SQL — every trade recorded as completed in
 * trade_audit is fully applied to both inventories, every other one not at all, and no item appeared or vanished.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTemporaryUser } from '../../src/auth/accounts.ts';
import { TokenService } from '../../src/auth/tokens.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { Character } from '../../src/db/entities/index.ts';
import { uniqueName } from '../helpers/database.ts';
import { spawnServer, waitForHealth, type ServerProcess } from '../helpers/process.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { itemTotals, openTrade, putItems, type Trader } from './support.ts';

const SECRET = 'trade-crash-test-secret-0123456789';
const PAIRS = 4;
const START = 100_000;
const COINS_PER_TRADE = 10;

interface Pair {
  a: { id: string; accountId: string };
  b: { id: string; accountId: string };
}

describe('trading: kill -9 during a stream of trades @db', function () {
  this.timeout(120_000);
  let dir: string;
  let server: ServerProcess | undefined;

  const dbOptions = () => ({ databaseUrl: process.env.DATABASE_URL, pgliteDataDir: path.join(dir, 'db'), poolSize: 2 });
  const env = () => ({
    JWT_SECRET: SECRET, PGLITE_DATA_DIR: path.join(dir, 'db'), DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'warn',
    TRADE_REQUEST_COOLDOWN_MS: '0', WS_MESSAGES_PER_SECOND: '1000',
  });

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trade-crash-'));
  });
  after(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function seed(): Promise<Pair[]> {
    const db = await openDatabase(dbOptions());
    try {
      const pairs: Pair[] = [];
      for (let i = 0; i < PAIRS; i++) {
        const em = db.em.fork();
        const [ua, ub] = [await createTemporaryUser(em, 86_400), await createTemporaryUser(em, 86_400)];
        const a = em.create(Character, { id: randomUUID(), accountId: ua.id, name: uniqueName('ca'), positionX: 120, positionZ: 96, lastLoginAt: new Date() });
        const b = em.create(Character, { id: randomUUID(), accountId: ub.id, name: uniqueName('cb'), positionX: 121, positionZ: 96, lastLoginAt: new Date() });
        await em.flush();
        await putItems(db, a.id, [{ slot: 0, itemId: 'coins', quantity: START }]);
        await putItems(db, b.id, [{ slot: 0, itemId: 'feather', quantity: START }]);
        pairs.push({ a: { id: a.id, accountId: ua.id }, b: { id: b.id, accountId: ub.id } });
      }
      return pairs;
    } finally {
      await db.close();
    }
  }

  async function enter(port: number, tokens: TokenService, who: { id: string; accountId: string }): Promise<Trader> {
    const ws = await JsonWsClient.connect(`ws://127.0.0.1:${port}`);
    ws.send('authenticate', { token: tokens.sign({ accountId: who.accountId, roles: ['player'], scope: 'player' }).token });
    await ws.waitFor('authResult');
    ws.send('world:enter', { characterId: who.id });
    await ws.waitFor('world:joined');
    return { id: who.id, name: '', account: { token: '', accountId: who.accountId }, ws };
  }

  /** Trades until the connection dies: a gives 10 coins, b gives 1 feather, both screens accepted. */
  async function tradeForever(a: Trader, b: Trader, counter: { started: number }): Promise<void> {
    for (;;) {
      const tradeId = await openTrade(a, b);
      counter.started++;
      a.ws.send('tradeAddItem', { tradeId, inventorySlot: 0, quantity: COINS_PER_TRADE });
      b.ws.send('tradeAddItem', { tradeId, inventorySlot: 0, quantity: 1 });
      await a.ws.next('tradeUpdated', (d) => d.myOffer.items.length === 1 && d.theirOffer.items.length === 1);
      for (let screen = 0; screen < 2; screen++) {
        const seen = b.ws.next(screen === 0 ? 'tradeUpdated' : 'tradeUpdated', (d) => d.theirOffer.accepted);
        a.ws.send('tradeAccept', { tradeId });
        await seen;
        const next = screen === 0 ? a.ws.next('tradeConfirmScreen') : a.ws.next('tradeCompleted');
        b.ws.send('tradeAccept', { tradeId });
        await next;
      }
    }
  }

  async function check(pairs: Pair[]): Promise<number> {
    const db: Database = await openDatabase(dbOptions());
    try {
      let completedTotal = 0;
      for (const { a, b } of pairs) {
        const rows = await db.em.fork().execute<Array<{ n: string }>>(
          `select count(*) as n from trade_audit where status = 'completed' and initiator_id = ? and partner_id = ?`, [a.id, b.id]);
        const n = Number(rows[0].n);
        completedTotal += n;
        const totalsA = await itemTotals(db, [a.id]);
        const totalsB = await itemTotals(db, [b.id]);
        const expectA: Record<string, number> = { coins: START - COINS_PER_TRADE * n, ...(n > 0 ? { feather: n } : {}) };
        const expectB: Record<string, number> = { feather: START - n, ...(n > 0 ? { coins: COINS_PER_TRADE * n } : {}) };
        assert.deepEqual(totalsA, expectA, `pair ${a.id}: ${n} completed trades in the audit, inventory of a`);
        assert.deepEqual(totalsB, expectB, `pair ${a.id}: ${n} completed trades in the audit, inventory of b`);
        assert.deepEqual(await itemTotals(db, [a.id, b.id]), { coins: START, feather: START });
      }
      return completedTotal;
    } finally {
      await db.close();
    }
  }

  it('every trade is applied to both sides or to neither', async () => {
    const pairs = await seed();
    server = await spawnServer(env());
    await waitForHealth(server, 60_000);
    const tokens = new TokenService({ secret: SECRET, issuer: 'rs-game-server', audience: 'rs-game', ttlSeconds: 3600 });
    const counter = { started: 0 };
    const streams: Array<Promise<void>> = [];
    for (const pair of pairs) {
      const [a, b] = await Promise.all([enter(server.port, tokens, pair.a), enter(server.port, tokens, pair.b)]);
      streams.push(tradeForever(a, b, counter).catch(() => undefined));
    }
    // Let some trades complete, then kill at an arbitrary instant of the stream.
    const started = Date.now();
    while (counter.started < PAIRS * 3 && Date.now() - started < 20_000) await sleep(20);
    await sleep(Math.floor(Math.random() * 200));
    server.child.kill('SIGKILL');
    assert.equal((await server.exited).signal, 'SIGKILL');
    await Promise.all(streams);

    // The restarted server recovers the database and starts.
    server = await spawnServer(env());
    await waitForHealth(server, 60_000);
    server.child.kill('SIGTERM');
    await server.exited;

    const completed = await check(pairs);
    assert.ok(completed >= PAIRS, `trades completed before the crash (${completed})`);
  });
});

/**
 * kill -9 in the middle of a stream of bank, shop, equipment and drop operations: after a restart on the same
 * database every acknowledged operation is there, the one in flight is there entirely or not at all, and no item
 * exists twice (checked with SQL).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TokenService } from '../../src/auth/tokens.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { Character, User } from '../../src/db/entities/index.ts';
import { sellPrice } from '../../src/game/shop.ts';
import { loadBundledWorld } from '../../loadtest/lib/game-data.ts';
import { uniqueName } from '../helpers/database.ts';
import { spawnServer, waitForHealth, type ServerProcess } from '../helpers/process.ts';
import { databaseUnderTest } from '../helpers/server.ts';
import { JsonWsClient, type WsEvent } from '../helpers/ws-client.ts';
import { AT_BANK, AT_GENERAL_STORE, GENERAL_STORE, ledger, rowsOf, seed, stack, type Rows } from './support.ts';

const SECRET = 'economy-crash-test-secret';

interface Op {
  type: string;
  data: Record<string, unknown>;
  done: string;
  /** Expected ledger change when it applies (shop operations; the rest only move items). */
  delta: Map<string, number>;
}

interface Stream {
  characterId: string;
  ops: () => Op;
  acked: Map<string, number>;
  inFlight: Op | null;
  lastSync: Record<string, any> | null;
  count: number;
}

function add(target: Map<string, number>, delta: ReadonlyMap<string, number>): void {
  for (const [id, n] of delta) target.set(id, (target.get(id) ?? 0) + n);
  for (const [id, n] of [...target]) if (n === 0) target.delete(id);
}

function sorted(map: ReadonlyMap<string, number>): Map<string, number> {
  return new Map([...map].filter(([, n]) => n !== 0).sort(([a], [b]) => a.localeCompare(b)));
}

/** Sends one op and waits for its answer; null when the connection died first (the op is in flight). */
async function send(client: JsonWsClient, op: Op): Promise<WsEvent | null> {
  const from = client.events.length;
  client.send(op.type, op.data);
  for (;;) {
    for (let i = from; i < client.events.length; i++) {
      const e = client.events[i];
      if (e.type === op.done || (e.type === 'error' && e.data.event === op.type)) return e;
      if (e.type === 'error' && e.data.code === 'RATE_LIMITED') throw new Error('rate limited');
    }
    if (client.socket.readyState !== client.socket.OPEN) return null;
    await sleep(1);
  }
}

const world = loadBundledWorld();

/**
 * What the operation in flight at the kill would have changed. A sale sells whatever its slot held just
 * before it was sent (slots move during the stream), at the store's price for that item.
 */
function inFlightDelta(stream: Stream): ReadonlyMap<string, number> {
  const op = stream.inFlight!;
  const inventory = stream.lastSync?.inventory as Array<{ itemId: string; quantity: number } | null> | undefined;
  if (op.type !== 'shop:sell' || !inventory) return op.delta;
  const { storeId, slot, quantity } = op.data as { storeId: string; slot: number; quantity: number };
  const held = inventory[slot];
  if (!held) return new Map();
  const store = world.storesById.get(storeId)!;
  const sold = Math.min(quantity, held.quantity);
  return new Map([[held.itemId, -sold], ['coins', sold * sellPrice(store, world.itemsById.get(held.itemId)!.value)]]);
}

async function run(client: JsonWsClient, stream: Stream): Promise<void> {
  for (;;) {
    const op = stream.ops();
    stream.inFlight = op;
    const answer = await send(client, op);
    if (!answer) return;
    stream.inFlight = null;
    stream.count++;
    if (answer.type === 'shop:state') {
      const last = answer.data.last as { action: string; itemId: string; quantity: number; coins: number };
      const sign = last.action === 'bought' ? 1 : -1;
      add(stream.acked, new Map([[last.itemId, sign * last.quantity], ['coins', -sign * last.coins]]));
    }
    const sync = [...client.events].reverse().find((e) => e.type === 'player:sync');
    if (sync) stream.lastSync = sync.data;
  }
}

describe(`kill -9 during a stream of economy operations on ${databaseUnderTest()} @db`, function () {
  this.timeout(120_000);
  let dataDir: string;
  let server: ServerProcess | undefined;

  before(() => { dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'game-crash-')); });
  after(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const env = () => ({
    PGLITE_DATA_DIR: path.join(dataDir, 'pglite'), DATABASE_URL: process.env.DATABASE_URL, JWT_SECRET: SECRET,
    SAVE_INTERVAL: '1', LOG_LEVEL: 'warn', WS_MESSAGES_PER_SECOND: '10000',
  });
  const open = () => openDatabase({ databaseUrl: process.env.DATABASE_URL, pgliteDataDir: env().PGLITE_DATA_DIR });

  async function character(db: Database, accountId: string, at: { x: number; z: number }): Promise<string> {
    const em = db.em.fork();
    const c = em.create(Character, { id: randomUUID(), accountId, name: uniqueName('k'), positionX: at.x, positionZ: at.z, lastLoginAt: new Date() });
    await em.flush();
    return c.id;
  }

  async function enter(port: number, token: string, characterId: string): Promise<JsonWsClient> {
    const client = await JsonWsClient.connect(`ws://127.0.0.1:${port}`);
    client.send('authenticate', { token, characterId });
    await client.waitFor('world:joined', () => true, 15_000);
    return client;
  }

  it('leaves every item exactly once: acknowledged operations applied, the one in flight all or nothing', async () => {
    // Seed before the server owns the database.
    let db = await open();
    const accountId = randomUUID();
    const em = db.em.fork();
    em.create(User, { id: accountId, displayName: 'Crash', roles: ['player'] });
    await em.flush();
    const banker = await character(db, accountId, AT_BANK);
    const shopper = await character(db, accountId, AT_GENERAL_STORE);
    await seed(db, banker, {
      inventory: [stack('coins', 5000), stack('bronze_sword'), stack('bread'), stack('bread'), stack('feather', 200), stack('bronze_full_helm')],
      bank: { tabs: [{ name: 'main', items: [{ itemId: 'coins', quantity: 1000 }, { itemId: 'bread', quantity: 5 }] }] },
    });
    await seed(db, shopper, { inventory: [stack('coins', 100_000), stack('bronze_dagger'), stack('bronze_dagger'), stack('bronze_dagger')] });
    const initial = new Map<string, Map<string, number>>();
    for (const id of [banker, shopper]) initial.set(id, ledger(await rowsOf(db, id)));
    await db.close();

    const token = new TokenService({ secret: SECRET, issuer: 'rs-game-server', audience: 'rs-game', ttlSeconds: 3600 })
      .sign({ accountId, roles: ['player'], scope: 'player' }).token;
    server = await spawnServer(env());
    await waitForHealth(server);
    const bankerClient = await enter(server.port, token, banker);
    const shopperClient = await enter(server.port, token, shopper);

    let b = 0;
    const bankerOps: Op[] = [
      { type: 'bank:deposit', data: { slot: 0, quantity: 13 }, done: 'bank:state', delta: new Map() },
      { type: 'bank:withdraw', data: { itemId: 'coins', quantity: 11 }, done: 'bank:state', delta: new Map() },
      { type: 'equipment:equip', data: { inventorySlot: 1 }, done: 'player:sync', delta: new Map() },
      { type: 'bank:deposit', data: { slot: 2, quantity: 'all' }, done: 'bank:state', delta: new Map() },
      { type: 'equipment:unequip', data: { slot: 'weapon' }, done: 'player:sync', delta: new Map() },
      { type: 'bank:withdraw', data: { itemId: 'bread', quantity: 2 }, done: 'bank:state', delta: new Map() },
      { type: 'equipment:equip', data: { inventorySlot: 5 }, done: 'player:sync', delta: new Map() },
      { type: 'inventory:drop', data: { slot: 4, quantity: 1 }, done: 'inventory:dropped', delta: new Map() },
      { type: 'bank:depositEquipment', data: {}, done: 'bank:state', delta: new Map() },
      { type: 'bank:withdraw', data: { itemId: 'bronze_full_helm', quantity: 1 }, done: 'bank:state', delta: new Map() },
    ];
    let s = 0;
    const shopperOps: Op[] = [
      { type: 'shop:buy', data: { storeId: GENERAL_STORE, itemId: 'feather', quantity: 3 }, done: 'shop:state', delta: new Map([['feather', 3], ['coins', -6]]) },
      { type: 'shop:sell', data: { storeId: GENERAL_STORE, slot: 1, quantity: 1 }, done: 'shop:state', delta: new Map([['bronze_dagger', -1], ['coins', 4]]) },
      { type: 'shop:buy', data: { storeId: GENERAL_STORE, itemId: 'bread', quantity: 1 }, done: 'shop:state', delta: new Map([['bread', 1], ['coins', -12]]) },
      { type: 'inventory:move', data: { from: 2, to: 1 }, done: 'player:sync', delta: new Map() },
      { type: 'shop:buy', data: { storeId: GENERAL_STORE, itemId: 'bronze_dagger', quantity: 1 }, done: 'shop:state', delta: new Map([['bronze_dagger', 1], ['coins', -10]]) },
    ];
    const streams: Stream[] = [
      { characterId: banker, ops: () => bankerOps[b++ % bankerOps.length], acked: new Map(), inFlight: null, lastSync: null, count: 0 },
      { characterId: shopper, ops: () => shopperOps[s++ % shopperOps.length], acked: new Map(), inFlight: null, lastSync: null, count: 0 },
    ];
    const running = [run(bankerClient, streams[0]), run(shopperClient, streams[1])];
    // Kill once both streams have run a while (bounded: a busy machine answers slower), at a random moment.
    const runningSince = Date.now();
    while (streams.some((st) => st.count <= 10) && Date.now() - runningSince < 30_000) await sleep(50);
    await sleep(Math.floor(Math.random() * 1_000));
    server.child.kill('SIGKILL');
    assert.equal((await server.exited).signal, 'SIGKILL');
    await Promise.all(running);
    assert.ok(streams.every((st) => st.count > 10), `the streams ran (${streams.map((st) => st.count).join(', ')} answered)`);

    // Restart on the same database: the server starts, and the players come back with what the database holds.
    server = await spawnServer(env());
    await waitForHealth(server);
    const back = await enter(server.port, token, banker);
    const backSync = await back.waitFor('player:sync');
    back.close();
    server.child.kill('SIGTERM');
    assert.equal((await server.exited).code, 0, server.output());

    db = await open();
    try {
      const rows = new Map<string, Rows>();
      for (const id of [banker, shopper]) rows.set(id, await rowsOf(db, id));
      for (const stream of streams) {
        const r = rows.get(stream.characterId)!;
        const expected = new Map(initial.get(stream.characterId)!);
        add(expected, stream.acked);
        const actual = sorted(ledger(r));
        const withInFlight = new Map(expected);
        if (stream.inFlight) add(withInFlight, inFlightDelta(stream));
        const matches = [sorted(expected), sorted(withInFlight)].some((m) => JSON.stringify([...m]) === JSON.stringify([...actual]));
        assert.ok(matches, `ledger of ${stream.characterId}: ${JSON.stringify([...actual])} is neither ${JSON.stringify([...sorted(expected)])} nor that plus the op in flight ${JSON.stringify(stream.inFlight)}`);
        const coins = r.inventory.filter((i) => i.item_id === 'coins').reduce((n, i) => n + i.quantity, 0);
        assert.equal(r.coins, coins, 'characters.coins mirrors the inventory coins');
        if (!stream.inFlight && stream.lastSync) {
          const synced = (stream.lastSync.inventory as Array<{ itemId: string; quantity: number } | null>)
            .flatMap((x, slot) => (x ? [{ slot, item_id: x.itemId, quantity: x.quantity }] : []));
          assert.deepEqual(r.inventory, synced, 'no op in flight: the inventory is exactly the last acknowledged one');
        }
      }
      const bankerRows = rows.get(banker)!;
      const backRows = (backSync.data.inventory as Array<{ itemId: string; quantity: number } | null>)
        .flatMap((x, slot) => (x ? [{ slot, item_id: x.itemId, quantity: x.quantity }] : []));
      assert.deepEqual(backRows, bankerRows.inventory, 'the restarted server serves what the database holds');
      const stackable = await db.em.fork().execute<Array<{ n: number }>>(
        `select count(*)::int as n from (select character_id, item_id from inventory where item_id in ('coins', 'feather') and character_id in (?, ?)
         group by character_id, item_id having count(*) > 1) d`, [banker, shopper]);
      assert.equal(stackable[0].n, 0, 'a stackable item has one stack per inventory');
    } finally {
      await db.close();
    }
  });
});

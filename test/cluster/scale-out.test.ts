/**
 * Two server processes on one Redis and one PostgreSQL (docs/scaling.md): players entering through either process
 * reach the same world (the standing world, wherever it runs; worlds-across-processes.test.ts covers worlds spread
 * over both), trade across the entry points, and share the REST rate limit. Needs Redis on REDIS_URL /
 * TEST_REDIS_URL (default 127.0.0.1:6379) and PostgreSQL (DATABASE_URL, or a scratch database on the local server).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client as SdkClient } from '@colyseus/sdk';
import type { Database } from '../../src/db/database.ts';
import { Character } from '../../src/db/entities/index.ts';
import { uniqueName } from '../helpers/database.ts';
import { anonymousAccount, visibleEntities } from '../helpers/players.ts';
import type { ServerProcess } from '../helpers/process.ts';
import type { TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { startTwoProcesses, type TwoProcesses } from '../helpers/two-processes.ts';
import { addItem, bothAcceptScreen1, itemTotals, inventoryRows, openTrade, putItems, type Trader } from '../trade/support.ts';

/** What the shared test helpers need of a server: its addresses. */
function endpoint(server: ServerProcess): TestServer {
  return { baseUrl: server.baseUrl, wsUrl: `ws://127.0.0.1:${server.port}` } as TestServer;
}

describe('scale-out: two processes on one Redis and one PostgreSQL @db', function () {
  this.timeout(120_000);
  let cluster: TwoProcesses | undefined;
  let db: Database | undefined;
  const servers: ServerProcess[] = [];
  const sockets: JsonWsClient[] = [];
  let a: TestServer;
  let b: TestServer;

  before(async function () {
    cluster = await startTwoProcesses('scale-out', { RATE_LIMIT_REST_PER_MINUTE: '100', TRUST_PROXY: '1' });
    if (!cluster) return this.skip();
    servers.push(...cluster.servers);
    [a, b] = servers.map(endpoint);
    db = cluster.db;
  });

  after(async () => {
    for (const socket of sockets) socket.socket.terminate();
    await cluster?.stop();
  });

  async function character(at: { x: number; z: number }, entry: TestServer): Promise<{ id: string; token: string }> {
    const account = await anonymousAccount(entry);
    const em = db!.em.fork();
    const row = em.create(Character, { id: randomUUID(), accountId: account.accountId, name: uniqueName('c'), positionX: at.x, positionZ: at.z, lastLoginAt: new Date() });
    await em.flush();
    return { id: row.id, token: account.token };
  }

  async function enter(entry: TestServer, player: { id: string; token: string }): Promise<{ ws: JsonWsClient; roomId: string }> {
    const ws = await JsonWsClient.connect(entry.wsUrl);
    sockets.push(ws);
    const unlessClosed = <T>(wait: Promise<T>) => Promise.race([wait, ws.closed.then(({ code }) => {
      throw new Error(`closed with ${code}`);
    })]);
    ws.send('authenticate', { token: player.token });
    assert.equal((await unlessClosed(ws.waitFor('authResult', () => true, 10_000))).data.success, true);
    ws.send('world:enter', { characterId: player.id });
    const joined = await unlessClosed(ws.waitFor('world:joined', () => true, 10_000));
    return { ws, roomId: joined.data.roomId };
  }

  it('players entering through either process share one world and see each other', async () => {
    const first = await character({ x: 120, z: 96 }, a);
    const second = await character({ x: 121, z: 96 }, b);
    const onA = await enter(a, first);
    const onB = await enter(b, second);
    assert.equal(onB.roomId, onA.roomId, 'the /ws socket on the second process reached the same world room');

    // REST that reads the live world is answered by the process of the caller's world, whichever process it reaches.
    const position = await fetch(`${b.baseUrl}/api/characters/${second.id}/position`, { headers: { Authorization: `Bearer ${second.token}` } });
    assert.equal(position.status, 200);
    assert.deepEqual(await position.json().then((p: any) => [p.online, p.source]), [true, 'live']); // eslint-disable-line @typescript-eslint/no-explicit-any

    const sdkPlayer = await character({ x: 122, z: 96 }, b);
    const sdk = await new SdkClient(b.baseUrl, { headers: { Authorization: `Bearer ${sdkPlayer.token}` } }).join('world', { characterId: sdkPlayer.id });
    try {
      assert.equal(sdk.roomId, onA.roomId, 'the SDK client matched through the second process joined the same room');
      const deadline = Date.now() + 10_000;
      const sees = (ws: JsonWsClient, id: string) => visibleEntities(ws).has(`player:${id}`);
      while (Date.now() < deadline && !(sees(onA.ws, second.id) && sees(onB.ws, first.id) && sees(onB.ws, sdkPlayer.id))) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(sees(onA.ws, second.id), 'the player on the first process sees the one who entered through the second');
      assert.ok(sees(onB.ws, first.id), 'and the other way round');
      assert.ok(sees(onB.ws, sdkPlayer.id), 'the SDK player is in the same world');
    } finally {
      await sdk.leave();
    }
  });

  it('players entering through different processes trade, and the swap is in SQL', async () => {
    const seller = await character({ x: 130, z: 96 }, a);
    const buyer = await character({ x: 131, z: 96 }, b);
    await putItems(db!, seller.id, [{ slot: 0, itemId: 'bronze_hatchet', quantity: 1 }]);
    await putItems(db!, buyer.id, [{ slot: 0, itemId: 'coins', quantity: 250 }]);
    const before = await itemTotals(db!, [seller.id, buyer.id]);
    const traders: Trader[] = [];
    for (const [player, entry] of [[seller, a], [buyer, b]] as const) {
      const { ws } = await enter(entry, player);
      traders.push({ id: player.id, name: '', account: { token: player.token, accountId: '' }, ws });
    }
    const [s, u] = traders;
    const tradeId = await openTrade(s, u);
    await addItem(tradeId, s, u, 0, 1);
    await addItem(tradeId, u, s, 0, 250);
    await bothAcceptScreen1(tradeId, s, u);
    const done = [s.ws.next('tradeCompleted', () => true, 10_000), u.ws.next('tradeCompleted', () => true, 10_000)];
    s.ws.send('tradeAccept', { tradeId });
    u.ws.send('tradeAccept', { tradeId });
    await Promise.all(done);

    const sellerRows = await inventoryRows(db!, seller.id);
    const buyerRows = await inventoryRows(db!, buyer.id);
    assert.deepEqual(sellerRows.map((r) => [r.item_id, r.quantity]), [['coins', 250]]);
    assert.deepEqual(buyerRows.map((r) => [r.item_id, r.quantity]), [['bronze_hatchet', 1]]);
    assert.deepEqual(await itemTotals(db!, [seller.id, buyer.id]), before, 'nothing made or lost');
  });

  it('GET /api/v1/player is cached, and a write through the other process refreshes it (account changes are relayed)', async () => {
    const player = await character({ x: 140, z: 96 }, a);
    const auth = { Authorization: `Bearer ${player.token}` };
    const read = async (server = b) => {
      const response = await fetch(`${server.baseUrl}/api/v1/player`, { headers: auth });
      assert.equal(response.status, 200);
      return await response.json() as { displayName: string; characters: Array<{ id: string }> };
    };
    assert.deepEqual((await read()).characters.map((c) => c.id), [player.id]);
    assert.deepEqual((await read(a)).characters.map((c) => c.id), [player.id]);
    // A row written behind the server's back (announced by nobody) is not seen while the entry lives: the cache is on.
    const em = db!.em.fork();
    const accountId = (await em.findOneOrFail(Character, { id: player.id })).accountId;
    em.create(Character, { id: randomUUID(), accountId, name: uniqueName('c') });
    await em.flush();
    assert.equal((await read()).characters.length, 1, 'answered from the cache');
    assert.equal((await read(a)).characters.length, 1, 'the other process caches it too');
    // A write through one process drops the entry there once it commits, and on the other through Redis.
    const renamed = await fetch(`${a.baseUrl}/api/v1/player`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ displayName: 'Cached Once' }),
    });
    assert.equal(renamed.status, 200);
    const after = await read(a);
    assert.equal(after.displayName, 'Cached Once');
    assert.equal(after.characters.length, 2, 'the next read went to the database');
    const deadline = Date.now() + 5_000;
    let elsewhere = await read();
    while (elsewhere.characters.length !== 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      elsewhere = await read();
    }
    assert.deepEqual([elsewhere.displayName, elsewhere.characters.length], ['Cached Once', 2], 'the other process dropped its entry');
  });

  it('a browser SDK client reconnects through the other process: the HTTP step authorises its header-less socket', async () => {
    const player = await character({ x: 123, z: 96 }, b);
    const headers = { Authorization: `Bearer ${player.token}` };
    const room = await new SdkClient(b.baseUrl, { headers }).join('world', { characterId: player.id });
    room.onMessage('*', () => {});
    const token = room.reconnectionToken;
    room.reconnection.enabled = false;
    (room.connection.transport as unknown as { ws: WebSocket }).ws.close(4999);
    await new Promise((resolve) => setTimeout(resolve, 500));

    // As a browser: the token on the HTTP request (to the process without the world), none on the room socket.
    const browser = new SdkClient(b.baseUrl, { headers });
    const internals = browser as unknown as { http: { options: { headers: object } }; consumeSeatReservation: (...args: unknown[]) => Promise<unknown> };
    const consume = internals.consumeSeatReservation.bind(browser);
    internals.consumeSeatReservation = (...args) => {
      internals.http.options.headers = {};
      return consume(...args);
    };
    const again = await browser.reconnect(token);
    try {
      assert.equal(again.roomId, room.roomId, 'the player is back in the same world room');
    } finally {
      again.onMessage('*', () => {});
      await again.leave();
    }
  });

  it('the REST rate limit is shared: the 101st request across both processes is refused', async () => {
    const address = `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const get = (server: TestServer) => fetch(`${server.baseUrl}/api/v1/world`, { headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < 100; i += 1) {
      const response = await get(i % 2 === 0 ? a : b);
      await response.arrayBuffer();
      assert.notEqual(response.status, 429, `request ${i + 1} was refused`);
    }
    const refused = await get(b);
    assert.equal(refused.status, 429);
    assert.equal(((await refused.json()) as { code: string }).code, 'RATE_LIMITED');
  });

  it('when a process dies, its standing world reopens on the other one and players enter again', async () => {
    const player = await character({ x: 124, z: 96 }, b);
    servers[0].child.kill('SIGKILL');
    await servers[0].exited;
    const deadline = Date.now() + 30_000;
    let entered: { ws: JsonWsClient; roomId: string } | undefined;
    while (!entered && Date.now() < deadline) {
      // The first attempts find the dead process' listing, are closed with 1012, and trigger the reopening.
      entered = await enter(b, player).catch(() => undefined);
      if (!entered) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.ok(entered, 'a player entered through the surviving process');
    const status = await fetch(`${b.baseUrl}/status`).then((r) => r.json()) as { playersOnline?: number };
    assert.equal(status.playersOnline, 1, `the surviving process runs the standing world now: ${JSON.stringify(status)}`);
  });
});

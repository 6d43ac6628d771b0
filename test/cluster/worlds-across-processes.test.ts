/**
 * Worlds spread over two processes (#19, docs/scaling.md): Colyseus' matchmaker places a new world on the
 * least-loaded process, a /ws client reaches its world wherever it runs (hand-over), hops cross processes, REST that
 * reads the live world finds the character's world, and no character is ever in two worlds under concurrent entries
 * through both processes. WORLD_CAPACITY is 2 (a world must hold two players for them to meet). Needs Redis at
 * 127.0.0.1:6379 and PostgreSQL (DATABASE_URL, or a scratch database on the local server).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/database.ts';
import { Character } from '../../src/db/entities/index.ts';
import { uniqueName } from '../helpers/database.ts';
import { anonymousAccount, visibleEntities } from '../helpers/players.ts';
import type { ServerProcess } from '../helpers/process.ts';
import { connectTestRedis } from '../helpers/redis.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { startTwoProcesses, type TwoProcesses } from '../helpers/two-processes.ts';
import { until } from '../helpers/until.ts';


interface Player { id: string; token: string }
interface Entered { ws: JsonWsClient; world: number; roomId: string }

/** For checks that ask the database or Redis: asked less often than `until` asks. */
const settled = (check: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000) => until(check, what, timeoutMs, 100);

describe('worlds across two processes (REDIS_URL, PostgreSQL) @db', function () {
  this.timeout(180_000);
  let cluster: TwoProcesses | undefined;
  let db: Database | undefined;
  const servers: ServerProcess[] = [];
  const sockets: JsonWsClient[] = [];
  let a: ServerProcess;
  let b: ServerProcess;

  before(async function () {
    // WORLD_CAPACITY 2: a world must hold two players for them to meet.
    cluster = await startTwoProcesses('worlds-across-processes', { WORLD_CAPACITY: '2', WORLDS_MIN: '1' });
    if (!cluster) return this.skip();
    servers.push(...cluster.servers);
    [a, b] = servers;
    db = cluster.db;
  });

  after(async () => {
    for (const socket of sockets) socket.socket.terminate();
    await cluster?.stop();
  });

  const wsUrl = (server: ServerProcess) => `ws://127.0.0.1:${server.port}`;

  async function player(at: { x: number; z: number }): Promise<Player> {
    const account = await anonymousAccount({ baseUrl: a.baseUrl } as never);
    const em = db!.em.fork();
    const row = em.create(Character, { id: randomUUID(), accountId: account.accountId, name: uniqueName('w'), positionX: at.x, positionZ: at.z, lastLoginAt: new Date() });
    await em.flush();
    return { id: row.id, token: account.token };
  }

  async function connect(entry: ServerProcess, who: Player): Promise<JsonWsClient> {
    const ws = await JsonWsClient.connect(wsUrl(entry));
    sockets.push(ws);
    ws.send('authenticate', { token: who.token });
    assert.equal((await ws.waitFor('authResult', () => true, 10_000)).data.success, true);
    return ws;
  }

  async function enter(entry: ServerProcess, who: Player, world?: number): Promise<Entered> {
    const ws = await connect(entry, who);
    ws.send('world:enter', { characterId: who.id, ...(world ? { world } : {}) });
    const joined = await Promise.race([
      ws.waitFor('world:joined', () => true, 15_000),
      ws.waitFor('error', () => true, 15_000).then((e) => { throw new Error(`refused: ${JSON.stringify(e.data)}`); }),
    ]);
    assert.equal(ws.events.filter((e) => e.type === 'authResult').length, 1, 'one authResult: the upstream\'s is swallowed');
    return { ws, world: joined.data.world, roomId: joined.data.roomId };
  }

  /** The world numbers a process runs itself (its /status). */
  async function worldsOn(server: ServerProcess): Promise<number[]> {
    const status = await fetch(`${server.baseUrl}/status`).then((r) => r.json()) as { worlds: Array<{ world: number }> };
    return status.worlds.map((w) => w.world);
  }

  async function claims(characterId: string): Promise<Array<{ world: number; room_id: string }>> {
    const rows = await db!.em.getConnection().execute<Array<{ world: number; room_id: string }>>(
      'select world, room_id from character_worlds where character_id = ?', [characterId]);
    return rows.map((row) => ({ world: Number(row.world), room_id: row.room_id }));
  }

  async function leave(entered: Entered): Promise<void> {
    const left = entered.ws.next('world:left', () => true, 10_000);
    entered.ws.send('world:leave', {});
    await left;
  }

  async function hop(hopper: Entered, to: number): Promise<void> {
    const hopped = hopper.ws.next('world:hopped', () => true, 15_000);
    const joined = hopper.ws.next('world:joined', (d) => d.world === to, 15_000);
    hopper.ws.send('world:hop', { world: to });
    assert.deepEqual((await hopped).data, { from: hopper.world, to });
    const landed = (await joined).data;
    hopper.world = to;
    hopper.roomId = landed.roomId;
  }

  let w1: Entered[];
  let third: Entered;
  let fourth: Entered;
  let thirdPlayer: Player;
  let keeperPlayer: Player;

  it('a full world makes the matchmaker open the next one on the other process; a /ws client on A plays in it', async () => {
    const p1 = await player({ x: 100, z: 100 });
    const p2 = await player({ x: 101, z: 100 });
    w1 = [await enter(a, p1), await enter(a, p2)];
    assert.deepEqual(w1.map((e) => e.world), [1, 1], 'the first two fill the standing world');
    assert.deepEqual(await worldsOn(a), [1], 'the standing world runs on the first process');

    thirdPlayer = await player({ x: 110, z: 100 });
    third = await enter(a, thirdPlayer);
    assert.equal(third.world, 2, 'world 1 is full: the server opened world 2');
    assert.deepEqual(await worldsOn(b), [2], 'the least-loaded process runs world 2');
    assert.deepEqual(await worldsOn(a), [1]);

    const p4 = await player({ x: 111, z: 100 });
    fourth = await enter(b, p4);
    assert.equal(fourth.world, 2, 'the fullest open world with room');
    await settled(() => visibleEntities(third.ws).has(`player:${p4.id}`), 'the player on A to see the one in its world on B');
    await settled(() => visibleEntities(fourth.ws).has(`player:${thirdPlayer.id}`), 'and the other way round');
    const path = third.ws.next('player:path', () => true, 10_000);
    third.ws.send('player:move', { x: 112, z: 100 });
    await path;

    // GET /api/v1/world?world=N is answered by world N's process, whichever process it reaches.
    for (const server of [a, b]) {
      for (const world of [1, 2]) {
        const snapshot = await fetch(`${server.baseUrl}/api/v1/world?world=${world}`, { headers: { Authorization: `Bearer ${thirdPlayer.token}` } });
        assert.equal(snapshot.status, 200, `world ${world} through ${server === a ? 'A' : 'B'}: ${snapshot.status}`);
        assert.equal(((await snapshot.json()) as { world: number }).world, world);
      }
    }
    // The caller's world without ?world: the process of its character's world answers.
    const mine = await fetch(`${a.baseUrl}/api/v1/world`, { headers: { Authorization: `Bearer ${thirdPlayer.token}` } });
    assert.equal(((await mine.json()) as { world: number }).world, 2);

    // REST that reads the live world goes to the character's world's process, from either process.
    for (const server of [a, b]) {
      const position = await fetch(`${server.baseUrl}/api/characters/${thirdPlayer.id}/position`, { headers: { Authorization: `Bearer ${thirdPlayer.token}` } });
      assert.equal(position.status, 200);
      const body = await position.json() as { online: boolean; source: string };
      assert.deepEqual([body.online, body.source], [true, 'live'], `through ${server === a ? 'A' : 'B'}`);
    }
  });

  it('GET /api/v1/worlds lists the worlds of both processes on either', async () => {
    for (const server of [a, b]) {
      await settled(async () => {
        const body = await fetch(`${server.baseUrl}/api/v1/worlds`).then((r) => r.json()) as { worlds: Array<{ world: number; players: number }> };
        return JSON.stringify(body.worlds.map((w) => [w.world, w.players])) === JSON.stringify([[1, 2], [2, 2]]);
      }, 'both worlds listed with their players', 5_000);
    }
  });

  it('hops cross processes both ways and end in the target world (one claim, naming it)', async () => {
    await leave(w1[1]);
    // The client's socket is on A, its world on B: B's connection asks A to move it (relay:move), A enters world 1.
    await hop(third, 1);
    const world1Room = third.roomId;
    assert.deepEqual(await claims(thirdPlayer.id), [{ world: 1, room_id: world1Room }]);
    const path = third.ws.next('player:path', () => true, 10_000);
    third.ws.send('player:move', { x: 113, z: 100 });
    await path;

    // The client's socket is on B, its world too, the target on A: B hands the connection over to A.
    await leave(w1[0]);
    await hop(fourth, 1);
    assert.equal(fourth.roomId, world1Room);
    const path4 = fourth.ws.next('player:path', () => true, 10_000);
    fourth.ws.send('player:move', { x: 114, z: 100 });
    await path4;
  });

  it('100 concurrent entries of the same characters through both processes put each in one world at most', async () => {
    // A keeper holds world 2 open (it closes when empty); world 1 is emptied.
    keeperPlayer = await player({ x: 120, z: 100 });
    const keeper = await enter(b, keeperPlayer, 2);
    assert.equal(keeper.world, 2);
    await leave(third);
    await leave(fourth);
    const racers = [await player({ x: 130, z: 100 }), await player({ x: 131, z: 100 })];
    const attempts = await Promise.all(Array.from({ length: 100 }, async (_, i) => {
      const who = racers[i % 2];
      const ws = await connect(i % 4 < 2 ? a : b, who);
      ws.send('world:enter', { characterId: who.id, world: i % 8 < 4 ? 1 : 2 });
      const outcome = await Promise.race([
        ws.waitFor('world:joined', () => true, 30_000).then((e) => ({ joined: e.data.world as number })),
        ws.waitFor('error', () => true, 30_000).then((e) => ({ refused: e.data.code as string })),
      ]);
      return { who: who.id, ws, ...outcome };
    }));
    for (const racer of racers) {
      const mine = attempts.filter((attempt) => attempt.who === racer.id);
      const joined = mine.filter((attempt) => 'joined' in attempt);
      assert.equal(joined.length, 1, `exactly one entry of ${racer.id} succeeded: ${JSON.stringify(mine.map((m) => 'joined' in m ? m.joined : m.refused))}`);
      const refusals = new Set(mine.filter((attempt) => 'refused' in attempt).map((attempt) => (attempt as { refused: string }).refused));
      for (const code of refusals) assert.ok(['ALREADY_ONLINE', 'WORLD_FULL'].includes(code), `refused with ${code}`);
      const claimed = await claims(racer.id);
      assert.equal(claimed.length, 1, 'one character_worlds row');
      assert.equal(claimed[0].world, (joined[0] as { joined: number }).joined, 'naming the world it joined');
    }
    for (const attempt of attempts) if ('joined' in attempt) await leave({ ws: attempt.ws, world: attempt.joined, roomId: '' });
  });

  it('an entry into a world whose process cannot be located is refused WORLD_UNAVAILABLE; one the server places goes to another world', async () => {
    // The keeper holds world 2 on B. B is stopped (so it cannot announce itself again) and its address forgotten, as
    // after a Redis restart: world 2 is still listed and its lease still live (10 s), but nobody can reach it.
    assert.deepEqual(await worldsOn(b), [2]);
    const redis = await connectTestRedis();
    assert.ok(redis, 'Redis answers');
    const named = await player({ x: 122, z: 100 });
    const placed = await player({ x: 123, z: 100 });
    b.child.kill('SIGSTOP');
    try {
      let forgotten = 0;
      for (const key of await redis.keys('test-*:internal-addresses')) {
        for (const [processId, address] of Object.entries(await redis.hgetall(key))) {
          if (address.endsWith(`:${b.port}`)) forgotten += await redis.hdel(key, processId);
        }
      }
      assert.equal(forgotten, 1, "B's address was announced once");
      const ws = await connect(a, named);
      ws.send('world:enter', { characterId: named.id, world: 2 });
      const refused = await ws.waitFor('error', () => true, 10_000);
      assert.deepEqual([refused.data.code, refused.data.event], ['WORLD_UNAVAILABLE', 'world:enter']);
      assert.equal(typeof refused.data.retryAfterSeconds, 'number');
      assert.deepEqual(await claims(named.id), [], 'no seat, no claim');
      // Placed by the server: world 2 is the fullest, but it cannot be reached, so world 1 (on A) takes it.
      const entered = await enter(a, placed);
      assert.equal(entered.world, 1);
      await leave(entered);
    } finally {
      b.child.kill('SIGCONT');
      const announced = async () => {
        for (const key of await redis.keys('test-*:internal-addresses')) {
          if (Object.values(await redis.hgetall(key)).some((address) => address.endsWith(`:${b.port}`))) return true;
        }
        return false;
      };
      await settled(announced, 'B to announce its address again', 15_000).finally(() => redis.disconnect());
    }
  });

  it('when a process dies, the sockets handed over to it close with 1012 and their players enter again elsewhere', async () => {
    const watcher = await player({ x: 121, z: 100 });
    const handed = await enter(a, watcher, 2);
    assert.deepEqual(await worldsOn(b), [2]);
    b.child.kill('SIGKILL');
    await b.exited;
    assert.equal((await handed.ws.closed).code, 1012, 'the hand-over closes with service restart');
    // The keeper was on the dead process: its claim on the dead world must not keep it out.
    // 15 s: less than a dead world's heartbeat takes to expire (WORLD_DEAD_SECONDS), so its claims were forgotten.
    for (const who of [watcher, keeperPlayer]) {
      const deadline = Date.now() + 15_000;
      let entered: Entered | undefined;
      while (!entered && Date.now() < deadline) {
        entered = await enter(a, who).catch(() => undefined);
        if (!entered) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      assert.ok(entered, 'entered again through the surviving process');
      assert.ok((await worldsOn(a)).includes(entered.world), 'in a world of the surviving process');
      assert.deepEqual((await claims(who.id)).map((c) => c.world), [entered.world]);
    }
  });
});

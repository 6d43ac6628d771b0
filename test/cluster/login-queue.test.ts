/**
 * The login queue across two processes (#39, docs/worlds.md "When the server is full"): one line per world, in Redis,
 * first come first served whichever process a waiter connected to; a waiter on the other process is handed over to
 * the world's process when its turn comes; the world list of either process shows the line. And a new world is not
 * opened on a process without headroom while another has some. WORLD_CAPACITY 1: one player fills world 1. Needs
 * Redis at 127.0.0.1:6379 and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { anonymousAccount } from '../helpers/players.ts';
import { connectTestRedis } from '../helpers/redis.ts';
import type { ServerProcess } from '../helpers/process.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { startTwoProcesses, type TwoProcesses } from '../helpers/two-processes.ts';
import { until } from '../helpers/until.ts';

/** For checks that ask the database or Redis: asked less often than `until` asks. */
const settled = (check: () => Promise<boolean> | boolean, what: string, timeoutMs = 15_000) => until(check, what, timeoutMs, 100);

describe('the login queue across two processes (REDIS_URL, PostgreSQL) @db', function () {
  this.timeout(180_000);
  let cluster: TwoProcesses | undefined;
  let a: ServerProcess;
  let b: ServerProcess;
  const sockets: JsonWsClient[] = [];

  before(async function () {
    // Admission by the event loop's lag at its production default (the test environment turns it off).
    cluster = await startTwoProcesses('login-queue', { WORLD_CAPACITY: '1', WORLDS_MIN: '1', ADMISSION_LAG_MS: '100' });
    if (!cluster) return this.skip();
    [a, b] = cluster.servers;
    // /health answers before the standing worlds are open: wait until world 1 is listed.
    await settled(async () => (await worldList(a)).some((w) => w.world === 1), 'world 1 to be listed', 30_000);
  });

  after(async () => {
    for (const socket of sockets) socket.socket.terminate();
    await cluster?.stop();
  });

  async function worldList(server: ServerProcess): Promise<Array<{ world: number; status: string; queue: number }>> {
    return ((await (await fetch(`${server.baseUrl}/api/v1/worlds`)).json()) as { worlds: Array<{ world: number; status: string; queue: number }> }).worlds;
  }

  async function connect(entry: ServerProcess): Promise<{ ws: JsonWsClient; characterId: string }> {
    const account = await anonymousAccount({ baseUrl: entry.baseUrl } as never);
    const characterId = await cluster!.character(account.accountId, { x: 100 + sockets.length, z: 100 });
    const ws = await JsonWsClient.connect(`ws://127.0.0.1:${entry.port}`);
    sockets.push(ws);
    ws.send('authenticate', { token: account.token });
    assert.equal((await ws.waitFor('authResult', () => true, 10_000)).data.success, true);
    return { ws, characterId };
  }

  it('lines up waiters from both processes in arrival order and lets them into the world in that order', async () => {
    const inside = await connect(a);
    inside.ws.send('world:enter', { characterId: inside.characterId, world: 1 });
    await inside.ws.waitFor('world:joined', () => true, 15_000);

    // Waiters through B, A, B in turn: one line for world 1, wherever they connected.
    const line = [];
    for (const [index, entry] of [b, a, b].entries()) {
      const waiter = await connect(entry);
      waiter.ws.send('world:enter', { characterId: waiter.characterId, world: 1, queue: true });
      const place = await waiter.ws.waitFor('queue:position', () => true, 15_000);
      assert.deepEqual([place.data.world, place.data.position], [1, index + 1], `waiter ${index} through ${entry === a ? 'A' : 'B'}`);
      line.push(waiter);
    }
    // A fresh entry through either process, not asking to queue, is refused with the line's length.
    const other = await connect(b);
    other.ws.send('world:enter', { characterId: other.characterId, world: 1 });
    const refused = await other.ws.waitFor('error', () => true, 15_000);
    // WORLD_FULL; WORLD_BUSY should world 1's process lag at that moment (a busy CI machine): refused either way.
    assert.ok(['WORLD_FULL', 'WORLD_BUSY'].includes(refused.data.code), refused.data.code);
    assert.equal(refused.data.queueLength, 3);
    for (const server of [a, b]) {
      await settled(async () => (await worldList(server)).find((w) => w.world === 1)?.queue === 3, `the world list of ${server === a ? 'A' : 'B'} to show the line`);
    }

    // Each time the one inside leaves, the head of the line gets the seat; the others move up.
    let seated = inside;
    for (const [index, waiter] of line.entries()) {
      const left = seated.ws.next('world:left', () => true, 10_000);
      seated.ws.send('world:leave', {});
      await left;
      const joined = await waiter.ws.waitFor('world:joined', () => true, 20_000);
      assert.equal(joined.data.world, 1);
      for (const behind of line.slice(index + 1)) {
        assert.equal(behind.ws.events.some((e) => e.type === 'world:joined'), false, 'nobody behind jumps the line');
      }
      if (line[index + 1]) await line[index + 1].ws.waitFor('queue:position', (data) => data.position === 1, 10_000);
      seated = waiter;
    }
    for (const server of [a, b]) {
      await settled(async () => (await worldList(server)).find((w) => w.world === 1)?.queue === 0, 'the line to be empty');
    }
  });

  it('opens a new world on the process with headroom, not on the least-loaded one when that one is slow', async () => {
    // World 1 (on A) is full. B runs no room: Colyseus' own choice for a new world would be B.
    const status = async (server: ServerProcess) => (await (await fetch(`${server.baseUrl}/status`)).json()) as { processId: string; worlds: Array<{ world: number }> };
    assert.deepEqual((await status(a)).worlds.map((w) => w.world), [1]);
    assert.deepEqual((await status(b)).worlds, []);
    const bId = (await status(b)).processId;
    // B is slow, not dead: stopped 150 ms of every 250 (its event loop lags), as a process on a saturated core.
    const pid = b.child.pid!;
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(pid, name);
      } catch {
        // the process is gone (the suite is ending)
      }
    };
    const stall = setInterval(() => {
      signal('SIGSTOP');
      setTimeout(() => signal('SIGCONT'), 150);
    }, 250);
    const redis = (await connectTestRedis())!;
    try {
      await settled(async () => {
        const keys = await redis.keys('*admission-processes');
        for (const key of keys) {
          const state = await redis.hget(key, bId);
          if (state && JSON.parse(state).busy === true) return true;
        }
        return false;
      }, 'B to publish that it is busy', 20_000);
      // A reads the others' states every half second: let it read B's.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const entering = await connect(a);
      entering.ws.send('world:enter', { characterId: entering.characterId });
      const joined = await entering.ws.waitFor('world:joined', () => true, 20_000);
      assert.notEqual(joined.data.world, 1, 'world 1 is full: a new world');
      assert.deepEqual((await status(a)).worlds.map((w) => w.world), [1, joined.data.world], 'opened on A, which has headroom');
      const opened = await cluster!.db.em.fork().getConnection().execute<Array<{ number: number }>>('select number from worlds where process_id = ?', [bId]);
      assert.deepEqual(opened, [], 'no world was opened on B, not even one given up');
    } finally {
      clearInterval(stall);
      signal('SIGCONT');
      redis.disconnect();
    }
    assert.deepEqual((await status(b)).worlds, [], 'nothing was opened on the slow process');
  });
});

/**
 * A /ws player whose socket was handed over to its world on another process, when the process it entered through
 * dies (docs/scaling.md "What a client sees, and the bounds"): to the world's process that is a dropped connection,
 * so the world holds the player's seat for a reconnection (20 s). A fresh `world:enter` of the character is refused
 * ALREADY_ONLINE while it does; `world:enter {reconnectionToken}` through the surviving process takes the seat back at
 * once, in the same world room — what the play page's client does after a drop. Found by the chaos run: a walker
 * that entered afresh after such a drop was back only 20.6 s after the last fault (bound 16 s). Needs Redis and
 * PostgreSQL (DATABASE_URL, or a scratch database on the local server).
 */
import assert from 'node:assert/strict';
import { anonymousAccount } from '../helpers/players.ts';
import type { ServerProcess } from '../helpers/process.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { startTwoProcesses, type TwoProcesses } from '../helpers/two-processes.ts';

describe('the process a player entered through dies, its world lives on another @db', function () {
  this.timeout(120_000);
  let cluster: TwoProcesses | undefined;
  const sockets: JsonWsClient[] = [];

  before(async function () {
    cluster = await startTwoProcesses('entry-process-death', { WORLDS_MIN: '1' });
    if (!cluster) return this.skip();
  });

  after(async () => {
    for (const socket of sockets) socket.socket.terminate();
    await cluster?.stop();
  });

  async function authenticated(server: ServerProcess, token: string): Promise<JsonWsClient> {
    const ws = await JsonWsClient.connect(`ws://127.0.0.1:${server.port}`);
    sockets.push(ws);
    ws.send('authenticate', { token });
    assert.equal((await ws.waitFor('authResult', () => true, 10_000)).data.success, true);
    return ws;
  }

  /** The answer to a `world:enter`: its `world:joined`, or the `error` refusing it. */
  async function enter(ws: JsonWsClient, data: Record<string, unknown>): Promise<{ type: string; data: Record<string, any> }> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const from = ws.events.length;
    ws.send('world:enter', data);
    return Promise.race([ws.waitFor('world:joined', () => true, 15_000, from), ws.waitFor('error', () => true, 15_000, from)]);
  }

  it('a fresh entry is refused ALREADY_ONLINE while the seat is held; the reconnection token takes it back at once', async () => {
    const [first, second] = cluster!.servers;
    const statusOf = async (server: ServerProcess) => (await fetch(`${server.baseUrl}/status`).then((r) => r.json())) as { worlds?: Array<{ world: number }> };
    const runsWorld1 = async (server: ServerProcess) => (await statusOf(server)).worlds?.some((w) => w.world === 1) ?? false;
    // /health answers once a process listens, before the standing world is open: wait for it.
    for (let attempt = 0; attempt < 60 && !(await runsWorld1(first)) && !(await runsWorld1(second)); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const [home, entry] = (await runsWorld1(first)) ? [first, second] : [second, first];
    assert.ok(await runsWorld1(home), 'one of the processes runs world 1');

    const account = await anonymousAccount({ baseUrl: home.baseUrl } as never);
    const characterId = await cluster!.character(account.accountId, { x: 120, z: 96 });

    const relayed = await authenticated(entry, account.token);
    const joined = await enter(relayed, { characterId, world: 1 });
    assert.equal(joined.type, 'world:joined', JSON.stringify(joined.data));

    entry.child.kill('SIGKILL');
    await entry.exited;
    const closed = await relayed.closed;
    assert.notEqual(closed.code, 4012, 'the world was not lost: only the way to it');

    const fresh = await enter(await authenticated(home, account.token), { characterId });
    assert.deepEqual([fresh.type, fresh.data.code], ['error', 'ALREADY_ONLINE'], `a fresh entry while the seat is held: ${JSON.stringify(fresh.data)}`);

    const startedAt = Date.now();
    const back = await enter(await authenticated(home, account.token), { reconnectionToken: joined.data.reconnectionToken });
    assert.equal(back.type, 'world:joined', `the reconnection: ${JSON.stringify(back.data)}`);
    assert.deepEqual([back.data.roomId, back.data.world], [joined.data.roomId, 1], 'back in the same world room');
    assert.ok(Date.now() - startedAt < 5_000, `back within 5 s (took ${Date.now() - startedAt} ms)`);
  });
});
